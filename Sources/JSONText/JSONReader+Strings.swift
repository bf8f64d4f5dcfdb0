// JSON strings: plain runs validated and copied whole, escapes and surrogate pairs decoded, and
// anything that is not UTF-8 refused.
extension JSONReader {
  mutating func readString() throws(JSONSyntaxError) -> String {
    offset += 1
    let start = offset
    // Plain runs (no escapes) are the common case: validated and copied whole.
    var high: UInt8 = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        let text = try decode(start..<offset, ascii: high < 0x80)
        offset += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw failure(.controlCharacterInString) }
      high |= byte
      offset += 1
    }
    // With escapes: the bytes gathered, each run of them checked as it comes (where an error can
    // say its place), and made a string once.
    if bytes[start..<offset].contains(where: { $0 >= 0x80 }) { _ = try decode(start..<offset) }
    var gathered = Array(bytes[start..<offset])
    func appendScalar(_ scalar: Unicode.Scalar) {
      gathered.append(contentsOf: UTF8.encode(scalar)!)
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return String(decoding: gathered, as: UTF8.self)
      case UInt8(ascii: "\\"):
        offset += 1
        guard offset < bytes.count else { throw failure(.unexpectedEnd) }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""): gathered.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): gathered.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): gathered.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): gathered.append(0x08)
        case UInt8(ascii: "f"): gathered.append(0x0C)
        case UInt8(ascii: "n"): gathered.append(0x0A)
        case UInt8(ascii: "r"): gathered.append(0x0D)
        case UInt8(ascii: "t"): gathered.append(0x09)
        case UInt8(ascii: "u"):
          let unit = try readHex4()
          if (0xD800..<0xDC00).contains(unit) {
            // A surrogate pair: the low half must follow.
            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
              bytes[offset + 1] == UInt8(ascii: "u")
            else { throw failure(.badEscape) }
            offset += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure(.badEscape) }
            appendScalar(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
          } else if let scalar = Unicode.Scalar(unit) {
            appendScalar(scalar)
          } else {
            throw failure(.badEscape)
          }
        default:
          offset -= 1
          throw failure(.badEscape)
        }
      default:
        if byte < 0x20 { throw failure(.controlCharacterInString) }
        let runStart = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""),
          bytes[offset] != UInt8(ascii: "\\"), bytes[offset] >= 0x20
        {
          offset += 1
        }
        if bytes[runStart..<offset].contains(where: { $0 >= 0x80 }) {
          _ = try decode(runStart..<offset)
        }
        gathered.append(contentsOf: bytes[runStart..<offset])
      }
    }
    throw failure(.unexpectedEnd)
  }

  private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw failure(.badEscape) }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw failure(.badEscape)
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  /// The bytes as text; bytes that are not UTF-8 are an error at the first of them. `ascii`: the
  /// caller saw no byte over 0x7F.
  private mutating func decode(_ range: Range<Int>, ascii: Bool = false) throws(JSONSyntaxError)
    -> String
  {
    // Made from the bytes in place (validating through an array slice looks up generic type
    // information for every string). Decoding mends bytes that are not UTF-8, so the text is
    // theirs only when it is the same bytes again.
    let made = bytes.withUnsafeBufferPointer { all -> String? in
      let part = UnsafeBufferPointer(rebasing: all[range])
      let text = String(decoding: part, as: UTF8.self)
      return ascii || text.utf8.elementsEqual(part) ? text : nil
    }
    if let made { return made }
    let slice = bytes[range]
    // Not UTF-8: decoded a scalar at a time, to find the first bad byte.
    var iterator = slice.makeIterator()
    var decoder = UTF8()
    var consumed = range.lowerBound
    var scalars = String.UnicodeScalarView()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        scalars.append(scalar)
        consumed += UTF8.width(scalar)
      case .emptyInput:
        break loop
      case .error:
        let saved = offset
        offset = consumed
        let error = failure(.invalidUTF8)
        offset = saved
        throw error
      }
    }
    return String(scalars)
  }
}
