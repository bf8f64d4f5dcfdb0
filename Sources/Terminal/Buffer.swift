/// A rectangle of cells, in columns and rows from the top left.
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var isEmpty: Bool { width == 0 || height == 0 }

  public func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < maxX && row >= y && row < maxY
  }

  public func intersection(_ other: Rect) -> Rect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    return Rect(
      x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
  }

  /// This rectangle less `amount` on every side.
  public func inset(by amount: Int) -> Rect {
    Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }

  public var description: String { "(\(x),\(y) \(width)×\(height))" }
}

/// One cell of the screen: a character (a whole grapheme) and its style. The cell to the right
/// of a wide character holds nothing and is skipped when drawn.
public struct Cell: Equatable, Hashable, Sendable {
  public var text: String
  public var style: CellStyle

  public init(text: String = " ", style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  public static let blank = Cell()
  /// The right half of a wide character.
  static let continuation = Cell(text: "")
}

/// What a frame will show: a grid of cells that widgets draw into. Drawing is clipped to the
/// buffer and to the rectangle given; nothing ever wraps.
public struct Buffer: Equatable, Sendable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]
  /// Where the terminal cursor should stand after the frame (screen readers follow it), if shown.
  public var cursor: (x: Int, y: Int)?

  /// Changes the style of every cell.
  mutating func mapStyles(_ transform: (CellStyle) -> CellStyle) {
    for index in cells.indices { cells[index].style = transform(cells[index].style) }
  }

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public static func == (lhs: Buffer, rhs: Buffer) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
      && lhs.cursor?.x == rhs.cursor?.x && lhs.cursor?.y == rhs.cursor?.y
  }

  public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  public subscript(x: Int, y: Int) -> Cell {
    get { cells[y * width + x] }
    set { cells[y * width + x] = newValue }
  }

  /// Fills a rectangle with one style (spaces).
  public mutating func fill(_ rect: Rect, style: CellStyle) {
    let clip = rect.intersection(area)
    for row in clip.y..<clip.maxY {
      for column in clip.x..<clip.maxX { self[column, row] = Cell(text: " ", style: style) }
    }
  }

  /// Draws `text` from (`x`, `y`) on one line, at most `maxWidth` columns and never outside
  /// `clip`; text that does not fit ends with an ellipsis. Returns the columns used.
  @discardableResult
  public mutating func draw(
    _ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil,
    clip: Rect? = nil
  ) -> Int {
    let bounds = (clip ?? area).intersection(area)
    guard y >= bounds.y, y < bounds.maxY, x < bounds.maxX else { return 0 }
    let limit = min(maxWidth ?? Int.max, bounds.maxX - x)
    guard limit > 0 else { return 0 }
    let shown = DisplayWidth.truncate(printable(text), to: limit)
    var column = x
    for character in shown {
      let columns = DisplayWidth.of(character)
      if columns == 0 {
        // A combining mark or other zero-width cluster joins the cell before it.
        if column > bounds.x, column - 1 >= 0 { self[column - 1, y].text.append(character) }
        continue
      }
      if column >= bounds.x {
        self[column, y] = Cell(text: String(character), style: style)
        if columns == 2, column + 1 < bounds.maxX {
          self[column + 1, y] = Cell(text: "", style: style)
        }
      }
      column += columns
    }
    return column - x
  }

  /// A frame around `rect`, with an optional title in its top edge.
  public mutating func drawBox(
    _ rect: Rect, style: CellStyle = .plain, title: String? = nil, titleStyle: CellStyle? = nil
  ) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let horizontal = String(repeating: "─", count: rect.width - 2)
    draw("┌" + horizontal + "┐", x: rect.x, y: rect.y, style: style)
    draw("└" + horizontal + "┘", x: rect.x, y: rect.maxY - 1, style: style)
    for row in (rect.y + 1)..<(rect.maxY - 1) {
      draw("│", x: rect.x, y: row, style: style)
      draw("│", x: rect.maxX - 1, y: row, style: style)
    }
    if let title, rect.width > 4 {
      draw(
        " " + title + " ", x: rect.x + 1, y: rect.y, style: titleStyle ?? style,
        maxWidth: rect.width - 2)
    }
  }

  /// The buffer as text, one string per row, without styles and without trailing spaces: what a
  /// snapshot test compares.
  public var lines: [String] {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += self[column, row].text }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }

  /// Control characters never reach the screen: tabs and line breaks become spaces.
  /// One line of `text` as it may reach the terminal: line breaks and tabs as spaces (a line
  /// has no room for them), every other control shown as a placeholder (`SafeText`).
  private func printable(_ text: String) -> String {
    guard !SafeText.isSafe(text) else { return text }
    let oneLine = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    return SafeText.sanitized(oneLine)
  }
}

extension Rect {
  /// A rectangle of the given size centred in this one (never larger): across, and down either
  /// in the middle or a third of the way (where dialogs read best).
  public func centred(width: Int, height: Int, third: Bool = false) -> Rect {
    let width = min(width, self.width)
    let height = min(height, self.height)
    let top = third ? self.height / 3 : (self.height - height) / 2
    return Rect(
      x: x + (self.width - width) / 2, y: y + max(0, min(top, self.height - height)), width: width,
      height: height)
  }
}
