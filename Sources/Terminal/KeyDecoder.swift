/// Decodes the bytes a terminal sends into keys. Input may arrive split anywhere (a UTF-8
/// character or an escape sequence across two reads): what is incomplete waits for the next
/// bytes. A lone Esc is told from the start of a sequence by time: the reader calls
/// `flushPendingEscape()` when no more bytes followed within a short wait.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  private var pasting: [UInt8]?

  public init() {}

  /// Whether bytes are waiting (an Esc that may start a sequence, or half a character).
  public var hasPending: Bool { !pending.isEmpty }

  /// The escape sequences with fixed meanings, by the bytes after ESC.
  static let sequences: [[UInt8]: Key] = {
    var table: [String: Key] = [
      "[A": .up, "[B": .down, "[C": .right, "[D": .left, "[H": .home, "[F": .end, "OA": .up,
      "OB": .down,
      "OC": .right, "OD": .left, "OH": .home, "OF": .end, "[1~": .home, "[2~": .insert,
      "[3~": .delete,
      "[4~": .end, "[5~": .pageUp, "[6~": .pageDown, "[7~": .home, "[8~": .end, "[Z": .backTab,
      "OP": .function(1),
      "OQ": .function(2), "OR": .function(3), "OS": .function(4), "[11~": .function(1),
      "[12~": .function(2),
      "[13~": .function(3), "[14~": .function(4), "[15~": .function(5), "[17~": .function(6),
      "[18~": .function(7),
      "[19~": .function(8), "[20~": .function(9), "[21~": .function(10), "[23~": .function(11),
      "[24~": .function(12),
    ]
    // Modified arrows (xterm): ESC [ 1 ; modifier letter; treated as the plain arrow.
    for modifier in 2...8 {
      for (letter, key) in [
        ("A", Key.up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end),
      ] {
        table["[1;\(modifier)\(letter)"] = key
      }
    }
    return Dictionary(uniqueKeysWithValues: table.map { (Array($0.key.utf8), $0.value) })
  }()

  static let pasteStart: [UInt8] = Array("[200~".utf8)
  static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// The keys in `bytes` (with whatever was pending before them).
  public mutating func decode(_ bytes: [UInt8]) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    while !pending.isEmpty {
      if var paste = pasting {
        if let end = pending.firstRange(of: Self.pasteEnd) {
          paste += pending[..<end.lowerBound]
          pending.removeSubrange(..<end.upperBound)
          pasting = nil
          keys.append(.paste(String(decoding: paste, as: UTF8.self)))
          continue
        }
        // Keep the last bytes, which may be the start of the end marker.
        let keep = min(pending.count, Self.pasteEnd.count - 1)
        paste += pending.dropLast(keep)
        pending = Array(pending.suffix(keep))
        pasting = paste
        return keys
      }
      guard let (key, length) = next() else { break }
      pending.removeFirst(length)
      if let key { keys.append(key) }
    }
    return keys
  }

  /// After a pause with an Esc (or half a sequence) pending: it was the Esc key alone (or an
  /// Alt combination the terminal sent slowly), and the rest is read as keys.
  public mutating func flushPendingEscape() -> [Key] {
    guard pending.first == 0x1B else { return [] }
    pending.removeFirst()
    var keys: [Key] = [.escape]
    if !pending.isEmpty {
      let rest = pending
      pending = []
      keys += decode(rest)
    }
    return keys
  }

  /// The next key and how many bytes it took; nil when more bytes are needed. A nil key with a
  /// length means bytes consumed without a key (the start of a paste).
  private mutating func next() -> (Key?, Int)? {
    let first = pending[0]
    switch first {
    case 0x1B:
      return escape()
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x00: return (.control(" "), 1)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x1C...0x1F: return (.control(Character(Unicode.Scalar(first + 0x40))), 1)
    default:
      return utf8Character()
    }
  }

  private mutating func escape() -> (Key?, Int)? {
    guard pending.count >= 2 else { return nil }
    let second = pending[1]
    if second == UInt8(ascii: "[") || second == UInt8(ascii: "O") {
      // A CSI or SS3 sequence ends at its final byte (0x40–0x7E); the parameters come before.
      var index = 2
      while index < pending.count {
        let byte = pending[index]
        if second == UInt8(ascii: "O") || (byte >= 0x40 && byte <= 0x7E) {
          let body = Array(pending[1...index])
          if body == Self.pasteStart {
            pasting = []
            return (nil, index + 1)
          }
          if let mouse = Self.mouse(body) { return (.mouse(mouse), index + 1) }
          return (Self.sequences[body] ?? .unknown(Array(pending[0...index])), index + 1)
        }
        if byte < 0x20 || index > 32 { return (.unknown(Array(pending[0..<index])), index) }
        index += 1
      }
      return nil
    }
    if second == 0x1B { return (.escape, 1) }
    // ESC then a character: Alt with that character.
    let rest = Array(pending.dropFirst())
    var inner = KeyDecoder()
    inner.pending = rest
    guard let (key, length) = inner.next(), let key else { return nil }
    switch key {
    case .character(let character): return (.alt(character), 1 + length)
    case .enter: return (.alt("\r"), 1 + length)
    default: return (.escape, 1)
    }
  }

  /// `[<button;x;yM` (press) or `m` (release): SGR mouse reports.
  static func mouse(_ body: [UInt8]) -> MouseEvent? {
    guard body.count > 3, body[1] == UInt8(ascii: "<"), let final = body.last,
      final == UInt8(ascii: "M") || final == UInt8(ascii: "m")
    else { return nil }
    let numbers = String(decoding: body[2..<(body.count - 1)], as: UTF8.self).split(separator: ";")
      .compactMap {
        Int($0)
      }
    guard numbers.count == 3 else { return nil }
    // The code's bits: 64 the wheel, 32 motion, 4, 8 and 16 Shift, Alt and Ctrl, the low two
    // the button (or, with the wheel, its direction).
    let code = numbers[0]
    let kind: MouseEvent.Kind
    if code & 64 != 0 {
      // 0 up, 1 down; 2 and 3 are the sideways wheel, which Docket does not use.
      switch code & 3 {
      case 0: kind = .wheelUp
      case 1: kind = .wheelDown
      default: return nil
      }
    } else if final == UInt8(ascii: "m") {
      kind = .release
    } else if code & 32 != 0 {
      // Motion with a button held: not a click.
      return nil
    } else {
      kind = .press(button: code & 3)
    }
    return MouseEvent(kind: kind, x: numbers[1] - 1, y: numbers[2] - 1)
  }

  private func utf8Character() -> (Key?, Int)? {
    let first = pending[0]
    let length: Int
    switch first {
    case 0x00..<0x80: length = 1
    case 0xC0..<0xE0: length = 2
    case 0xE0..<0xF0: length = 3
    case 0xF0..<0xF8: length = 4
    default: return (.unknown([first]), 1)
    }
    guard pending.count >= length else { return nil }
    let bytes = pending[0..<length]
    guard let scalar = String(validating: bytes, as: UTF8.self)?.unicodeScalars.first else {
      return (.unknown(Array(bytes)), length)
    }
    return (.character(Character(scalar)), length)
  }
}
