/// Text in lines of at most a number of columns, broken between words. Line breaks in the text
/// start new lines. A word wider than the line is cut across lines, or, with
/// `breakingWords: false`, stands on a line of its own (options and commands in help text).
public enum Paragraph {
  /// `text` wrapped at spaces to lines of at most `width` columns; a word wider than a line is
  /// cut where the line ends (unless `breakingWords` is false). Reads the text a word at a time
  /// and stops after `limit` lines, so a pane that shows twenty lines of a megabyte reads only
  /// what those twenty lines hold.
  public static func lines(
    _ text: String, width: Int, breakingWords: Bool = true, limit: Int = .max
  ) -> [String] {
    guard width > 0, limit > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    /// Ends the line; true when the limit is reached.
    func endLine() -> Bool {
      lines.append(line)
      line = ""
      lineWidth = 0
      return lines.count >= limit
    }
    var rest = text[...]
    while true {
      let end = rest.firstIndex { $0 == " " || $0 == "\n" } ?? rest.endIndex
      let word = rest[..<end]
      let wordWidth = DisplayWidth.of(word)
      let joinedWidth = line.isEmpty ? wordWidth : lineWidth + 1 + wordWidth
      if joinedWidth <= width {
        if !line.isEmpty { line += " " }
        line += word
        lineWidth = joinedWidth
      } else {
        if !line.isEmpty, endLine() { return lines }
        if breakingWords, wordWidth > width {
          // At least one character a line, even one wider than the line (a wide character on a
          // line of one column), so the text always moves on.
          for character in word {
            let characterWidth = DisplayWidth.of(character)
            if !line.isEmpty, lineWidth + characterWidth > width, endLine() { return lines }
            line.append(character)
            lineWidth += characterWidth
          }
        } else {
          line = String(word)
          lineWidth = wordWidth
        }
      }
      guard end < rest.endIndex else { break }
      if rest[end] == "\n", endLine() { return lines }
      rest = rest[rest.index(after: end)...]
    }
    _ = endLine()
    return lines
  }
}
