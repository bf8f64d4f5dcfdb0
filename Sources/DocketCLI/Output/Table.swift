import Terminal

/// Rows of text in aligned columns. When a width is given, the columns that may shrink are cut
/// (with an ellipsis) until every row fits on one line; rows are never wrapped.
struct Table {
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
  }

  func render(width: Int?, colors: Bool, headers: Bool = true) -> [String] {
    var widths = columns.indices.map { index in
      max(
        headers ? DisplayWidth.of(columns[index].header) : 0,
        rows.map { DisplayWidth.of($0[index].text) }.max() ?? 0)
    }
    let gaps = 2 * (columns.count - 1)
    if let width {
      var excess = widths.reduce(0, +) + gaps - width
      // Cut the shrinkable columns, the widest first, down to their minimum.
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
    var lines: [String] = []
    if headers {
      lines.append(
        line(columns.map { Cell(text: $0.header, style: .header) }, widths: widths, colors: colors))
    }
    for row in rows { lines.append(line(row, widths: widths, colors: colors)) }
    return lines
  }

  private func line(_ cells: [Cell], widths: [Int], colors: Bool) -> String {
    var parts: [String] = []
    for (index, cell) in cells.enumerated() {
      let text = DisplayWidth.truncate(cell.text, to: widths[index])
      let isLast = index == cells.count - 1
      let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(text)))
      let aligned = columns[index].alignRight ? padding + text : (isLast ? text : text + padding)
      parts.append(colors ? cell.style.apply(aligned) : aligned)
    }
    return parts.joined(separator: "  ")
  }
}

/// The few ways output is coloured on a terminal. Colour never carries meaning alone: every
/// coloured thing is also a word or a symbol.
enum Style {
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
