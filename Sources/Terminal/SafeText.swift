/// Text from data made safe to show on a terminal.
///
/// A title, a tag name or a line from an imported file can hold bytes that a terminal obeys
/// instead of showing: an escape sequence that writes the clipboard (OSC 52), retitles the window
/// or clears the screen; a C1 control (U+009B is a CSI on its own); a bidirectional override that
/// makes text read backwards. Each becomes a visible placeholder, so the text stays recognisable
/// and nothing in it is obeyed:
///
/// - C0 controls and DEL become their Control Pictures (ESC is `␛`, BEL `␇`, DEL `␡`); a tab and
///   a line break are kept only where the layout handles them (`keeping`), else become `␉`/`␊`;
/// - C1 controls (U+0080–U+009F), which have no pictures, become `�`;
/// - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) become
///   `�` too.
///
/// `typed` is for what a person types or pastes into a field: there the controls are dropped.
public enum SafeText {
  /// Which layout characters may stay as they are.
  public struct Keeping: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let tabs = Keeping(rawValue: 1)
    public static let lineBreaks = Keeping(rawValue: 2)
  }

  /// `text` with every control and direction override replaced by a visible placeholder.
  public static func sanitized(_ text: String, keeping: Keeping = []) -> String {
    // Most text is printable ASCII, UTF-8 letters or marks: checked byte by byte, unchanged.
    if !needsWork(text.utf8, keeping: keeping) { return text }
    // Appended to a String (amortised constant time): appending a run of scalars to a
    // UnicodeScalarView copies it whole each time, so a long text takes time quadratic in its
    // length.
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      result += replacement(for: scalar, keeping: keeping)
    }
    return result
  }

  /// What a person typed or pasted, with the controls and direction overrides dropped; tabs
  /// become spaces, and line breaks too unless `keeping` them.
  public static func typed(_ text: String, keeping: Keeping = []) -> String {
    let unified = text.replacingCRLF()
    if !needsWork(unified.utf8, keeping: keeping.intersection(.lineBreaks)) { return unified }
    var result = String.UnicodeScalarView()
    for scalar in unified.unicodeScalars {
      switch scalar.value {
      case 0x0A where keeping.contains(.lineBreaks): result.append(scalar)
      case 0x09, 0x0A, 0x0D: result.append(" ")
      case _ where isControl(scalar): continue
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  /// True when `text` holds nothing that `sanitized` would change.
  public static func isSafe(_ text: String, keeping: Keeping = []) -> Bool {
    !needsWork(text.utf8, keeping: keeping)
  }

  private static func needsWork(_ bytes: String.UTF8View, keeping: Keeping) -> Bool {
    // A native string's bytes are read in place: walking the view itself costs several times
    // as much a byte, and every title of a long list is checked.
    if let answer = bytes.withContiguousStorageIfAvailable({ needsWork($0, keeping: keeping) }) {
      return answer
    }
    return needsWork(Array(bytes), keeping: keeping)
  }

  private static func needsWork<Bytes: Sequence<UInt8>>(_ bytes: Bytes, keeping: Keeping) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 {
        if byte == 0x09, keeping.contains(.tabs) {
        } else if byte == 0x0A, keeping.contains(.lineBreaks) {
        } else {
          return true
        }
      } else if byte == 0x7F {
        return true
      } else if previous == 0xC2, byte >= 0x80, byte <= 0x9F {
        // U+0080–U+009F are C2 80 … C2 9F in UTF-8.
        return true
      } else if beforePrevious == 0xE2, previous == 0x80, byte >= 0xAA, byte <= 0xAE {
        // U+202A–U+202E are E2 80 AA … E2 80 AE.
        return true
      } else if beforePrevious == 0xE2, previous == 0x81, byte >= 0xA6, byte <= 0xA9 {
        // U+2066–U+2069 are E2 81 A6 … E2 81 A9.
        return true
      }
      beforePrevious = previous
      previous = byte
    }
    return false
  }

  /// True for the characters a terminal may obey instead of showing: C0 controls, DEL, C1
  /// controls and the bidirectional overrides. (JSON output escapes the same ones.)
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  private static func replacement(for scalar: Unicode.Scalar, keeping: Keeping) -> String {
    switch scalar.value {
    case 0x09 where keeping.contains(.tabs), 0x0A where keeping.contains(.lineBreaks):
      return String(scalar)
    case 0x00...0x1F:
      // U+2400 is the picture of NUL, and the pictures follow in the order of the controls.
      return String(Unicode.Scalar(0x2400 + scalar.value)!)
    case 0x7F:
      return "\u{2421}"
    case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
      return "\u{FFFD}"
    default:
      return String(scalar)
    }
  }
}

extension String {
  /// Windows and old Mac line ends as `\n`.
  fileprivate func replacingCRLF() -> String {
    guard utf8.contains(0x0D) else { return self }
    var result = String.UnicodeScalarView()
    var scalars = unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      if scalar == "\r" {
        result.append("\n")
        if pending == "\n" { pending = scalars.next() }
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
