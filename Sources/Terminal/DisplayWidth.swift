/// How many terminal columns text takes: wide (CJK) and emoji characters take two, combining
/// marks and zero-width characters none.
public enum DisplayWidth {
  public static func of(_ text: some StringProtocol) -> Int {
    // Printable ASCII is one column a byte: most text, measured without grapheme breaking.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return text.reduce(0) { $0 + of($1) }
  }

  /// The same for a `String`, compiled for it: the generic version called from another module
  /// walks the text through generic witnesses, several times slower on a long list.
  public static func of(_ text: String) -> Int {
    var text = text
    let printableASCII = text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    if printableASCII { return text.utf8.count }
    return text.reduce(0) { $0 + of($1) }
  }

  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
      // A cluster that starts with a mark or an invisible has no cell of its own.
      return 0
    default:
      break
    }
    if first.properties.isEmojiPresentation { return 2 }
    // A text-style emoji asked to show as an image (U+FE0F) takes two cells too.
    if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
    return isWide(first) ? 2 : 1
  }

  /// East Asian Wide and Fullwidth ranges.
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }

  /// `text` cut to at most `width` columns; when it had to be cut, the last column is an
  /// ellipsis. Never splits a character.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    var result = ""
    var used = 0
    for character in text {
      let next = of(character)
      if used + next > width - 1 { break }
      result.append(character)
      used += next
    }
    return result + "…"
  }

  /// `text` followed by spaces up to `width` columns.
  public static func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - of(text)))
  }
}
