/// Text in lines of at most a number of columns, broken between words. Line breaks in the text
/// start new lines. A word wider than the line is cut across lines, or, with
/// `breakingWords: false`, stands on a line of its own (options and commands in help text).
public enum Paragraph {
  public static func lines(_ text: String, width: Int, breakingWords: Bool = true) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = line.isEmpty ? String(word) : line + " " + word
        if DisplayWidth.of(candidate) <= width {
          line = candidate
          continue
        }
        if !line.isEmpty { lines.append(line) }
        var rest = String(word)
        while breakingWords, rest.count > 1, DisplayWidth.of(rest) > width {
          // At least one character a line, even one wider than the line (a wide character on a
          // line of one column), so the text always moves on.
          let cut = max(1, DisplayWidth.truncate(rest, to: width + 1).dropLast().count)
          lines.append(String(rest.prefix(cut)))
          rest = String(rest.dropFirst(cut))
        }
        line = rest
      }
      lines.append(line)
    }
    return lines
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
