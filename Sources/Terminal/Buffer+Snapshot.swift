/// A frame written out as text for tests: the characters, then where each style starts and
/// ends, then the cursor, so that a wrong highlight or a misplaced cursor shows in a diff as
/// plainly as a wrong word.
extension Buffer {
  public var snapshot: String {
    var text = lines.joined(separator: "\n") + "\n"
    text += "--- styles (row: columns style) ---\n"
    for row in 0..<height {
      var runs: [String] = []
      var column = 0
      while column < width {
        let style = self[column, row].style
        var end = column
        while end + 1 < width, self[end + 1, row].style == style { end += 1 }
        if style != .plain {
          runs.append("\(column)-\(end) \(style.snapshotName)")
        }
        column = end + 1
      }
      if !runs.isEmpty { text += "\(row): " + runs.joined(separator: "; ") + "\n" }
    }
    text += "--- cursor ---\n"
    text += cursor.map { "\($0.x),\($0.y)" } ?? "hidden"
    return text + "\n"
  }
}

extension CellStyle {
  /// `bold+reverse fg:cyan`, for snapshots.
  var snapshotName: String {
    var parts: [String] = []
    let names: [(TextAttributes, String)] = [
      (.bold, "bold"), (.dim, "dim"), (.italic, "italic"), (.underline, "underline"),
      (.reverse, "reverse"),
    ]
    let attributeNames = names.filter { attributes.contains($0.0) }.map(\.1)
    if !attributeNames.isEmpty { parts.append(attributeNames.joined(separator: "+")) }
    if foreground != .default { parts.append("fg:\(foreground)") }
    if background != .default { parts.append("bg:\(background)") }
    return parts.joined(separator: " ")
  }
}
