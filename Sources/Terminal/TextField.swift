/// The text and cursor of a one-line input, with the editing keys of a shell: moving by character
/// and word, Home/End, deleting backwards and forwards, by word (Ctrl-W), to the start (Ctrl-U),
/// and pasting. The cursor counts characters (graphemes), so it never splits one.
public struct TextField: Equatable, Hashable, Sendable {
  public private(set) var text: String
  public private(set) var cursor: Int
  /// The whole text is selected (a placeholder title such as "New issue"): typing or deleting
  /// replaces it, a move keeps it and ends the selection at the start or the end.
  public private(set) var selected: Bool

  public init(_ text: String = "", cursor: Int? = nil, selected: Bool = false) {
    self.text = text
    self.cursor = min(max(0, cursor ?? text.count), text.count)
    self.selected = selected && !text.isEmpty
  }

  public enum Edit: Equatable, Sendable {
    case insert(String)
    case backspace, deleteForward, deleteWordBackward, deleteToStart, deleteToEnd
    case left, right, wordLeft, wordRight, home, end
  }

  /// The edit a key means in a text field, or nil for keys that are not editing keys.
  public static func edit(for key: Key) -> Edit? {
    switch key {
    case .character(let character): return .insert(String(character))
    case .paste(let text): return .insert(text)
    case .backspace: return .backspace
    case .delete, .control("d"): return .deleteForward
    case .control("w"), .alt("\u{7F}"): return .deleteWordBackward
    case .control("u"): return .deleteToStart
    case .control("k"): return .deleteToEnd
    case .left, .control("b"): return .left
    case .right, .control("f"): return .right
    case .alt("b"): return .wordLeft
    case .alt("f"): return .wordRight
    case .home, .control("a"): return .home
    case .end, .control("e"): return .end
    default: return nil
    }
  }

  /// Applies an edit; returns whether the text changed.
  @discardableResult
  public mutating func apply(_ edit: Edit) -> Bool {
    var characters = Array(text)
    let before = text
    if selected {
      selected = false
      switch edit {
      case .insert, .backspace, .deleteForward, .deleteWordBackward, .deleteToStart, .deleteToEnd:
        characters = []
        cursor = 0
        if case .insert = edit { break }
        text = ""
        return text != before
      case .left, .home, .wordLeft:
        cursor = 0
        return false
      case .right, .end, .wordRight:
        cursor = characters.count
        return false
      }
    }
    switch edit {
    case .insert(let inserted):
      // One line: line breaks in pasted text become spaces, and controls are dropped.
      let clean = Array(SafeText.typed(inserted))
      characters.insert(contentsOf: clean, at: cursor)
      cursor += clean.count
    case .backspace:
      guard cursor > 0 else { return false }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .deleteForward:
      guard cursor < characters.count else { return false }
      characters.remove(at: cursor)
    case .deleteWordBackward:
      let start = Self.wordStart(characters, before: cursor)
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .deleteToStart:
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .deleteToEnd:
      characters.removeSubrange(cursor..<characters.count)
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .wordLeft: cursor = Self.wordStart(characters, before: cursor)
    case .wordRight: cursor = Self.wordEnd(characters, after: cursor)
    case .home: cursor = 0
    case .end: cursor = characters.count
    }
    text = String(characters)
    return text != before
  }

  /// Replaces the whole text, the cursor at its end.
  public mutating func set(_ newText: String) {
    selected = false
    text = newText
    cursor = newText.count
  }

  static func wordStart(_ characters: [Character], before index: Int) -> Int {
    var position = index
    while position > 0, !characters[position - 1].isLetter && !characters[position - 1].isNumber {
      position -= 1
    }
    while position > 0, characters[position - 1].isLetter || characters[position - 1].isNumber {
      position -= 1
    }
    return position
  }

  static func wordEnd(_ characters: [Character], after index: Int) -> Int {
    var position = index
    while position < characters.count,
      !characters[position].isLetter && !characters[position].isNumber
    { position += 1 }
    while position < characters.count,
      characters[position].isLetter || characters[position].isNumber
    { position += 1 }
    return position
  }

  /// The part of the text to show in `width` columns so that the cursor is visible, and the
  /// cursor's column within it.
  public func visible(width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 0 else { return ("", 0) }
    let characters = Array(text)
    var start = 0
    // Scroll so that the cursor (and the cell after it) fits.
    while DisplayWidth.of(String(characters[start..<cursor])) >= width, start < cursor {
      start += 1
    }
    var shown = ""
    var used = 0
    for character in characters[start...] {
      let columns = DisplayWidth.of(character)
      if used + columns > width { break }
      shown.append(character)
      used += columns
    }
    return (shown, DisplayWidth.of(String(characters[start..<cursor])))
  }
}
