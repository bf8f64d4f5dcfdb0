import Terminal

/// Help laid out in two columns: a label (an option, a command) and its description, the
/// descriptions starting in one column. A label too long for its column puts its description on
/// the next line; descriptions wrap at the width, under themselves.
enum HelpLayout {
  static func rows(_ rows: [(label: String, description: String)], column: Int, width: Int)
    -> [String]
  {
    let indent = "  "
    var lines: [String] = []
    let descriptionWidth = max(20, width - column)
    for (label, description) in rows {
      let wrapped = wrap(description, width: descriptionWidth)
      let labelText = indent + label
      let labelWidth = DisplayWidth.of(labelText)
      var rest = wrapped[...]
      if labelWidth + 2 <= column, let first = rest.first {
        lines.append(labelText + String(repeating: " ", count: column - labelWidth) + first)
        rest = rest.dropFirst()
      } else {
        lines.append(labelText)
      }
      for line in rest { lines.append(String(repeating: " ", count: column) + line) }
    }
    return lines
  }

  /// `text` in lines of at most `width` columns, broken between words (a word longer than the
  /// width stands on a line of its own).
  static func wrap(_ text: String, width: Int) -> [String] {
    Paragraph.lines(text, width: max(1, width), breakingWords: false)
  }
}
