/// A table of one-line rows in columns: some of a fixed width, some as wide as their widest cell
/// (up to a limit), one taking what is left. The columns are measured over the rows drawn, so
/// that what is in view lines up whatever each row holds.
public enum Table {
  public enum Width: Equatable, Sendable {
    /// Exactly this many cells.
    case fixed(Int)
    /// As wide as the widest cell of the column, at most this many cells; nothing when every
    /// cell is empty.
    case fit(max: Int)
    /// What the other columns leave.
    case rest
  }

  /// A cell: its text and style.
  public struct Cell: Equatable, Sendable {
    public var text: String
    public var style: CellStyle

    public init(_ text: String, _ style: CellStyle = .plain) {
      self.text = text
      self.style = style
    }
  }

  /// The width of each column in a row of `width` cells, with one cell between columns.
  /// `rows` are the cells of the rows drawn (each row has a cell for every column).
  public static func widths(_ columns: [Width], rows: [[Cell]], width: Int) -> [Int] {
    var widths = columns.enumerated().map { index, column -> Int in
      switch column {
      case .fixed(let cells): return max(0, cells)
      case .fit(let most):
        let widest = rows.map { DisplayWidth.of($0[index].text) }.max() ?? 0
        return min(widest, max(0, most))
      case .rest: return 0
      }
    }
    let used = zip(columns, widths).filter { $0.0 != .rest && $0.1 > 0 }
    let gaps = max(0, used.count + (columns.contains(.rest) ? 1 : 0) - 1)
    let left = max(0, width - used.map(\.1).reduce(0, +) - gaps)
    if let rest = columns.firstIndex(of: .rest) { widths[rest] = left }
    return widths
  }

  /// Draws `rows` from the top of `rect`, one a line, in columns of `widths` (from `widths(…)`).
  /// `rowStyle` fills a whole row first (the selection) and is the style of its cells.
  public static func draw(
    _ buffer: inout Buffer, _ rect: Rect, widths: [Int], rows: [[Cell]],
    rowStyle: (Int) -> CellStyle? = { _ in nil }
  ) {
    for (offset, row) in rows.prefix(rect.height).enumerated() {
      let y = rect.y + offset
      let whole = rowStyle(offset)
      if let whole {
        buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: whole)
      }
      var x = rect.x
      for (cell, width) in zip(row, widths) where width > 0 {
        buffer.draw(
          cell.text, x: x, y: y, style: whole ?? cell.style, maxWidth: min(width, rect.maxX - x))
        x += width + 1
        if x >= rect.maxX { break }
      }
    }
  }
}
