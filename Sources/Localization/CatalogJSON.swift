/// A small JSON reader for string catalogs, working on the UTF-8 bytes directly.
///
/// A catalog is read on every run of a command-line program, so its cost is start-up time:
/// Foundation's `JSONSerialization` spends most of it building Objective-C-style containers
/// that are thrown away at once. This reader builds only what a catalog needs: objects (keys in
/// order), arrays, strings, and the other values as `.other`.
indirect enum CatalogJSON: Equatable {
  case object([Member])
  case array([CatalogJSON])
  case string(String)
  case other

  struct Member: Equatable {
    var key: String
    var value: CatalogJSON
  }

  /// The value of `key` in an object.
  subscript(key: String) -> CatalogJSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  var string: String? {
    if case .string(let text) = self { text } else { nil }
  }

  struct SyntaxError: Error, Equatable {
    /// Where in the text (bytes from the start) the problem was found.
    var offset: Int
    var reason: String
  }

  static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> CatalogJSON {
    var reader = Reader(bytes: bytes)
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.position == bytes.count else { throw reader.error("text after the end") }
    return value
  }

  /// Reads a catalog's outline without building its values: the source language, and where in
  /// the text the value of each key of `strings` lies. The whole text is checked, so malformed
  /// JSON is refused here as `parse` would refuse it.
  static func outline(_ bytes: [UInt8]) throws(SyntaxError) -> (
    sourceLanguage: String?, strings: [String: Range<Int>]
  ) {
    var reader = Reader(bytes: bytes)
    var source: String?
    var strings: [String: Range<Int>] = [:]
    try reader.expect(UInt8(ascii: "{"))
    try reader.members { reader, key throws(SyntaxError) in
      switch key {
      case "sourceLanguage":
        reader.skipSpace()
        if reader.position < bytes.count, bytes[reader.position] == UInt8(ascii: "\"") {
          source = try reader.string()
        } else {
          try reader.skip(depth: 1)
        }
      case "strings":
        reader.skipSpace()
        guard reader.position < bytes.count, bytes[reader.position] == UInt8(ascii: "{") else {
          try reader.skip(depth: 1)
          return
        }
        reader.position += 1
        try reader.members { reader, name throws(SyntaxError) in
          reader.skipSpace()
          let start = reader.position
          try reader.skip(depth: 2)
          strings[name] = start..<reader.position
        }
      default:
        try reader.skip(depth: 1)
      }
    }
    reader.skipSpace()
    guard reader.position == bytes.count else { throw reader.error("text after the end") }
    return (source, strings)
  }

  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    func error(_ reason: String) -> SyntaxError { SyntaxError(offset: position, reason: reason) }

    mutating func skipSpace() {
      while position < bytes.count,
        bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D
          || bytes[position] == 0x09
      {
        position += 1
      }
    }

    mutating func expect(_ byte: UInt8) throws(SyntaxError) {
      skipSpace()
      guard position < bytes.count, bytes[position] == byte else {
        throw error("expected “\(Character(Unicode.Scalar(byte)))”")
      }
      position += 1
    }

    mutating func value(depth: Int) throws(SyntaxError) -> CatalogJSON {
      // Nesting deeper than any catalog's is refused rather than risking the stack.
      guard depth < 64 else { throw error("nested too deeply") }
      skipSpace()
      guard position < bytes.count else { throw error("unexpected end of text") }
      switch bytes[position] {
      case UInt8(ascii: "{"):
        position += 1
        var members: [Member] = []
        try self.members { reader, key throws(SyntaxError) in
          members.append(Member(key: key, value: try reader.value(depth: depth + 1)))
        }
        return .object(members)
      case UInt8(ascii: "["):
        position += 1
        var elements: [CatalogJSON] = []
        try self.elements { reader throws(SyntaxError) in
          elements.append(try reader.value(depth: depth + 1))
        }
        return .array(elements)
      case UInt8(ascii: "\""):
        return .string(try string())
      default:
        // Numbers, true, false and null: a catalog holds none that matter; skip the word.
        let start = position
        while position < bytes.count,
          let scalar = Optional(bytes[position]),
          (scalar >= 0x30 && scalar <= 0x39) || (scalar >= 0x61 && scalar <= 0x7A)
            || scalar == UInt8(ascii: "-") || scalar == UInt8(ascii: "+")
            || scalar == UInt8(ascii: ".") || scalar == UInt8(ascii: "E")
        {
          position += 1
        }
        guard position > start else { throw error("unexpected character") }
        return .other
      }
    }

    /// Reads the members of an object whose `{` has been read, handing each key to `body`,
    /// which must read the value; stops after the `}`.
    mutating func members(
      _ body: (inout Reader, String) throws(SyntaxError) -> Void
    ) throws(SyntaxError) {
      try items(closedBy: "}") { reader throws(SyntaxError) in
        reader.skipSpace()
        let key = try reader.string()
        try reader.expect(UInt8(ascii: ":"))
        try body(&reader, key)
      }
    }

    /// Reads the elements of an array whose `[` has been read, `body` reading each one; stops
    /// after the `]`.
    mutating func elements(_ body: (inout Reader) throws(SyntaxError) -> Void) throws(SyntaxError) {
      try items(closedBy: "]", body)
    }

    /// Reads items separated by commas up to `close`, `body` reading each one; an empty list is
    /// the closing character alone.
    private mutating func items(
      closedBy close: Unicode.Scalar, _ body: (inout Reader) throws(SyntaxError) -> Void
    ) throws(SyntaxError) {
      let closing = UInt8(ascii: close)
      skipSpace()
      if position < bytes.count, bytes[position] == closing {
        position += 1
        return
      }
      while true {
        try body(&self)
        skipSpace()
        guard position < bytes.count else { throw error("unexpected end of text") }
        if bytes[position] == UInt8(ascii: ",") {
          position += 1
        } else if bytes[position] == closing {
          position += 1
          return
        } else {
          throw error("expected “,” or “\(close)”")
        }
      }
    }

    /// Checks one value and moves past it, building nothing.
    mutating func skip(depth: Int) throws(SyntaxError) {
      guard depth < 64 else { throw error("nested too deeply") }
      skipSpace()
      guard position < bytes.count else { throw error("unexpected end of text") }
      switch bytes[position] {
      case UInt8(ascii: "{"):
        position += 1
        try members { reader, _ throws(SyntaxError) in try reader.skip(depth: depth + 1) }
      case UInt8(ascii: "["):
        position += 1
        try elements { reader throws(SyntaxError) in try reader.skip(depth: depth + 1) }
      case UInt8(ascii: "\""):
        try skipString()
      default:
        _ = try value(depth: depth)
      }
    }

    /// Moves past a string, checking its escapes, without decoding it (no allocation).
    mutating func skipString() throws(SyntaxError) {
      position += 1
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          position += 1
          return
        }
        if byte < 0x20 { throw error("a control character inside a string") }
        if byte == UInt8(ascii: "\\") {
          // Escapes are checked in full when the value is read; here only skipped.
          position += 2
          continue
        }
        position += 1
      }
      throw error("a string that never ends")
    }

    mutating func string() throws(SyntaxError) -> String {
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw error("expected a string")
      }
      position += 1
      let start = position
      // The common case: no escapes, so the bytes are the string.
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
          defer { position += 1 }
          return try text(bytes[start..<position])
        }
        if byte == UInt8(ascii: "\\") { break }
        if byte < 0x20 { throw error("a control character inside a string") }
        position += 1
      }
      var buffer = Array(bytes[start..<position])
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""):
          return try text(buffer[...])
        case UInt8(ascii: "\\"):
          guard position < bytes.count else { throw error("unexpected end of text") }
          let escaped = bytes[position]
          position += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
          case UInt8(ascii: "b"): buffer.append(0x08)
          case UInt8(ascii: "f"): buffer.append(0x0C)
          case UInt8(ascii: "n"): buffer.append(0x0A)
          case UInt8(ascii: "r"): buffer.append(0x0D)
          case UInt8(ascii: "t"): buffer.append(0x09)
          case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
              // A surrogate pair: the low half must follow.
              guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
              else { throw error("a lone surrogate") }
              position += 2
              let low = try hex4()
              guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate") }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("a lone surrogate") }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
          default:
            throw error("an unknown escape")
          }
        default:
          if byte < 0x20 { throw error("a control character inside a string") }
          buffer.append(byte)
        }
      }
      throw error("a string that never ends")
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
      guard position + 4 <= bytes.count else { throw error("unexpected end of text") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[position]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw error("a bad \\u escape")
        }
        value = value << 4 | UInt32(digit)
        position += 1
      }
      return value
    }

    func text(_ slice: ArraySlice<UInt8>) throws(SyntaxError) -> String {
      guard let text = String(validating: slice, as: UTF8.self) else {
        throw error("text that is not UTF-8")
      }
      return text
    }
  }
}
