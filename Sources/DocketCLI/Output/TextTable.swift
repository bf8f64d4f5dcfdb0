import DocketCore
import Terminal

/// Rows of text in aligned columns. When a width is given, the columns that may shrink are cut
/// (with an ellipsis) until every row fits on one line; rows are never wrapped.
struct TextTable {
  struct Column {
    var header: String
    /// Whether the column may be cut to fit, and the fewest columns it keeps.
    var shrinks = false
    var minimumWidth = 0
    var alignRight = false
  }

  var columns: [Column]
  var rows: [[Cell]] = []

  /// Text and the style it is shown in on a colour terminal.
  struct Cell {
    var text: String
    var style: Style = .plain
    /// The text's columns, when known ahead (cells repeated on every row are measured once).
    var width: Int?

    /// Text from data is made safe here, once for every table (`SafeText`).
    init(text: String, style: Style = .plain, width: Int? = nil) {
      self.text = SafeText.sanitized(text)
      self.style = style
      self.width = width
    }

    /// An issue's reference: hex digits, safe and as wide as they are long.
    init(reference: String) {
      text = reference
      style = .reference
      width = reference.utf8.count
    }

    /// The same cell, measured now.
    func measured() -> Cell { Cell(text: text, style: style, width: DisplayWidth.of(text)) }
  }

  func render(width: Int?, colors: Bool, headers: Bool = true) -> [String] {
    var lines: [String] = []
    render(width: width, colors: colors, headers: headers) { lines.append($0) }
    return lines
  }

  /// Hands each line to `emit` as it is made, so a long table is never held twice in memory.
  func render(width: Int?, colors: Bool, headers: Bool = true, emit: (String) -> Void) {
    var layout = Layout(columns: columns, contentWidths: [], width: nil, colors: colors)
    let natural = columns.indices.map { index in
      max(
        headers ? layout.measure(columns[index].header) : 0,
        rows.lazy.map { layout.measure($0[index]) }.max() ?? 0)
    }
    layout = Layout(columns: columns, contentWidths: natural, width: width, colors: colors)
    if headers { emit(layout.header()) }
    for row in rows { emit(layout.line(row)) }
  }

  /// The widths of the columns, settled before the first line: a table written as it is read
  /// (`docket list` of every issue) is laid out from widths measured ahead.
  struct Layout {
    let columns: [Column]
    private(set) var widths: [Int]
    let colors: Bool
    /// With a width (a terminal), a cell wider than its column is cut; without one (piped), it
    /// is written whole and the rest of its row moves right.
    let cuts: Bool
    // Each distinct text is measured once: priorities, statuses and dates repeat on every row.
    private var measured: [String: Int] = [:]
    /// Padding by length, made once for the usual widths: appending a ready string is the
    /// cheapest way to pad. A wider column (a cell of thousands of tags) pads with a string made
    /// when needed, rather than a table of every length up to its width.
    private let paddings: [String]

    /// The widest a column that may shrink is padded to without a width: one title of 2 000
    /// characters must not make every line of `docket list | less` as long.
    static let pipedColumnWidth = 60

    /// `contentWidths` are the widest content of each column, headers included. With `width`,
    /// the columns that may shrink are cut, the widest first, down to their minimum, until a
    /// line fits; without one, they are padded to no more than `pipedColumnWidth`.
    init(columns: [Column], contentWidths: [Int], width: Int?, colors: Bool) {
      self.columns = columns
      self.colors = colors
      cuts = width != nil
      var widths = contentWidths
      if width == nil {
        for index in widths.indices where index < columns.count && columns[index].shrinks {
          widths[index] = min(
            widths[index], max(Self.pipedColumnWidth, columns[index].minimumWidth))
        }
      }
      if let width, !widths.isEmpty {
        var excess = widths.reduce(0, +) + 2 * (columns.count - 1) - width
        while excess > 0 {
          guard
            let index = columns.indices.filter({
              columns[$0].shrinks && widths[$0] > columns[$0].minimumWidth
            })
            .max(by: { widths[$0] < widths[$1] })
          else { break }
          widths[index] -= 1
          excess -= 1
        }
      }
      self.widths = widths
      paddings = (0...min(widths.max() ?? 0, 512)).map { String(repeating: " ", count: $0) }
    }

    func spaces(_ count: Int) -> String {
      count < paddings.count ? paddings[count] : String(repeating: " ", count: count)
    }

    mutating func measure(_ text: String) -> Int {
      if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
      if let known = measured[text] { return known }
      let columns = DisplayWidth.of(text)
      measured[text] = columns
      return columns
    }

    mutating func measure(_ cell: Cell) -> Int { cell.width ?? measure(cell.text) }

    mutating func header() -> String {
      line(columns.map { Cell(text: $0.header, style: .header) })
    }

    mutating func line(_ cells: [Cell]) -> String {
      var output = OutputBytes(write: { _ in })
      append(cells, to: &output)
      return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Appends the line of `cells`, without its line end.
    mutating func append(_ cells: [Cell], to output: inout OutputBytes) {
      for (index, cell) in cells.enumerated() {
        let width = measure(cell)
        var text = cell.text
        text.withUTF8 { text in
          append(
            UnsafeRawBufferPointer(text), width: width, style: cell.style, column: index,
            isLast: index == cells.count - 1, to: &output)
        }
      }
    }

    /// Appends the line of a row encoded by `EncodedRow`, without its line end.
    mutating func append(encoded row: UnsafeRawBufferPointer, to output: inout OutputBytes) {
      var reader = EncodedRow.Reader(bytes: row)
      var index = 0
      while let cell = reader.next() {
        append(
          cell.text, width: cell.width, style: cell.style, column: index,
          isLast: reader.isAtEnd, to: &output)
        index += 1
      }
    }

    /// Appends one cell of `width` columns, made safe and measured before, with the separator
    /// before it and the padding after it; cut with an ellipsis when the column is narrower.
    private mutating func append(
      _ text: UnsafeRawBufferPointer, width: Int, style: Style, column index: Int, isLast: Bool,
      to output: inout OutputBytes
    ) {
      if index > 0 { output.appendSpaces(2) }
      if !colors, width <= widths[index] {
        // The usual case, and a long list's: the bytes as they are.
        let padding = widths[index] - width
        if columns[index].alignRight {
          output.appendSpaces(padding)
          output.append(text)
        } else {
          output.append(text)
          if !isLast { output.appendSpaces(padding) }
        }
        return
      }
      if !colors, !cuts {
        // Wider than its column, piped: whole, and no padding after it.
        output.append(text)
        return
      }
      var content = String(decoding: text, as: UTF8.self)
      var contentWidth = width
      if cuts, contentWidth > widths[index] {
        content = DisplayWidth.truncate(content, to: widths[index])
        contentWidth = DisplayWidth.of(content)
      }
      let padding = max(0, widths[index] - contentWidth)
      if colors {
        let aligned =
          columns[index].alignRight
          ? spaces(padding) + content
          : (isLast ? content : content + spaces(padding))
        output.append(style.apply(aligned))
      } else if columns[index].alignRight {
        output.append(spaces(padding))
        output.append(content)
      } else {
        output.append(content)
        if !isLast { output.append(spaces(padding)) }
      }
    }
  }
}

/// A table's row as bytes: for each cell its style, its width in columns and its text, made
/// safe. A long list encodes its rows as it reads them and lays them out once every width is
/// known (`TextTable.Layout.append(encoded:to:)`).
enum EncodedRow {
  /// Appends `cells`, each measured by `measure` unless its width is known.
  static func append(
    _ cells: [TextTable.Cell], to output: inout OutputBytes, measure: (String) -> Int
  ) -> [Int] {
    var widths: [Int] = []
    widths.reserveCapacity(cells.count)
    for cell in cells { widths.append(append(cell, to: &output, measure: measure)) }
    return widths
  }

  /// Appends one cell, measured by `measure` unless its width is known; returns its width.
  @discardableResult
  static func append(
    _ cell: TextTable.Cell, to output: inout OutputBytes, measure: (String) -> Int
  ) -> Int {
    let width = cell.width ?? measure(cell.text)
    output.append(byte: cell.style.rawValue)
    appendUInt32(width, to: &output)
    appendUInt32(cell.text.utf8.count, to: &output)
    output.append(cell.text)
    return width
  }

  /// One cell encoded, for a cell written on many rows.
  static func bytes(of cell: TextTable.Cell) -> [UInt8] {
    var output = OutputBytes.record()
    append(cell, to: &output, measure: DisplayWidth.of)
    return output.bytes
  }

  private static func appendUInt32(_ value: Int, to output: inout OutputBytes) {
    withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { output.append($0) }
  }

  /// The cells of an encoded row, in order.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func next() -> (text: UnsafeRawBufferPointer, width: Int, style: Style)? {
      guard position + 9 <= bytes.count else { return nil }
      let style = Style(rawValue: bytes[position]) ?? .plain
      let width = uint32(at: position + 1)
      let length = uint32(at: position + 5)
      let start = position + 9
      position = start + length
      return (UnsafeRawBufferPointer(rebasing: bytes[start..<position]), width, style)
    }

    private func uint32(at offset: Int) -> Int {
      Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
        | Int(bytes[offset + 3]) << 24
    }
  }
}

/// The few ways output is coloured on a terminal. Colour never carries meaning alone: every
/// coloured thing is also a word or a symbol.
enum Style: UInt8 {
  case plain, header, dim, high, medium, done, reference, error

  func apply(_ text: String) -> String {
    let code: String
    switch self {
    case .plain: return text
    case .header: code = "1"
    case .dim: code = "2"
    case .high: code = "31"
    case .medium: code = "33"
    case .done: code = "32"
    case .reference: code = "36"
    case .error: code = "1;31"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}
