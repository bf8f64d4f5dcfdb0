/// The text and cursor of a multi-line input: a text field whose Enter starts a new line and
/// whose up and down keys move between lines, keeping the column where they can.
public struct TextArea: Equatable, Hashable, Sendable {
  public private(set) var text: String
  /// The cursor, in characters from the start.
  public private(set) var cursor: Int

  public init(_ text: String = "", cursor: Int? = nil) {
    self.text = text
    self.cursor = min(max(0, cursor ?? text.count), text.count)
  }

  public enum Edit: Equatable, Sendable {
    case field(TextField.Edit)
    case newline, up, down
  }

  /// The edit a key means here; like a text field's, plus Enter, up and down.
  public static func edit(for key: Key) -> Edit? {
    switch key {
    case .enter: return .newline
    case .up: return .up
    case .down: return .down
    case .paste(let text): return .field(.insert(text.replacingOccurrences(of: "\r\n", with: "\n")))
    default: return TextField.edit(for: key).map(Edit.field)
    }
  }

  /// The lines, and the line and column (in characters) the cursor is on.
  public var lines: [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  public var cursorPosition: (line: Int, column: Int) {
    var line = 0
    var column = 0
    for character in text.prefix(cursor) {
      if character == "\n" {
        line += 1
        column = 0
      } else {
        column += 1
      }
    }
    return (line, column)
  }

  @discardableResult
  public mutating func apply(_ edit: Edit) -> Bool {
    let before = text
    switch edit {
    case .newline:
      var characters = Array(text)
      characters.insert("\n", at: cursor)
      text = String(characters)
      cursor += 1
    case .up, .down:
      let position = cursorPosition
      let allLines = lines
      let target = edit == .up ? position.line - 1 : position.line + 1
      guard allLines.indices.contains(target) else {
        cursor = edit == .up ? 0 : text.count
        return false
      }
      let start = allLines[..<target].reduce(0) { $0 + $1.count + 1 }
      cursor = start + min(position.column, allLines[target].count)
    case .field(let fieldEdit):
      // Within the line for Home/End and deletion to either end; everything else as a field.
      let position = cursorPosition
      let allLines = lines
      let lineStart = cursor - position.column
      let lineEnd = lineStart + allLines[position.line].count
      switch fieldEdit {
      case .home: cursor = lineStart
      case .end: cursor = lineEnd
      case .deleteToStart:
        var characters = Array(text)
        characters.removeSubrange(lineStart..<cursor)
        text = String(characters)
        cursor = lineStart
      case .deleteToEnd:
        var characters = Array(text)
        characters.removeSubrange(cursor..<lineEnd)
        text = String(characters)
      case .insert(let inserted):
        var characters = Array(text)
        let clean = Array(SafeText.typed(inserted, keeping: .lineBreaks))
        characters.insert(contentsOf: clean, at: cursor)
        text = String(characters)
        cursor += clean.count
      default:
        var field = TextField(text, cursor: cursor)
        field.apply(fieldEdit)
        text = field.text
        cursor = field.cursor
      }
    }
    return text != before
  }

  /// The lines to show in `width` × `height` cells so that the cursor is visible, and where the
  /// cursor stands among them.
  public func visible(width: Int, height: Int) -> (lines: [String], cursor: (x: Int, y: Int)) {
    guard width > 0, height > 0 else { return ([], (0, 0)) }
    let allLines = lines
    let position = cursorPosition
    let first = max(0, position.line - height + 1)
    var shown: [String] = []
    var cursorX = 0
    for index in first..<min(allLines.count, first + height) {
      if index == position.line {
        let field = TextField(allLines[index], cursor: position.column).visible(width: width)
        shown.append(field.text)
        cursorX = field.cursorColumn
      } else {
        shown.append(DisplayWidth.truncate(allLines[index], to: width))
      }
    }
    return (shown, (cursorX, position.line - first))
  }
}
