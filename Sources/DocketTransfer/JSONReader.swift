/// Reads JSON from UTF-8 bytes, strictly (RFC 8259), keeping track of lines so that an error names
/// where it is. Invalid UTF-8 is an error, never replaced. Reads one document, or a sequence of
/// documents one after another (JSON Lines, as `task export` can write).
public struct JSONReader {
  private let bytes: [UInt8]
  private var offset = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// Nesting deeper than this is refused (a file of a million `[` would otherwise overflow the
  /// stack).
  static let maximumDepth = 512
  /// Told how many bytes are read, about once a mebibyte (for a display of how far a long read
  /// is).
  public var progress: ((Int) -> Void)? {
    didSet { nextProgress = progress == nil ? .max : offset + 1 << 20 }
  }
  /// Where `progress` is told next; never without it.
  private var nextProgress = Int.max

  public init(bytes: [UInt8]) {
    self.bytes = bytes
    // A byte order mark at the start is allowed and skipped.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      offset = 3
      lineStart = 3
    }
  }

  /// Where the reader is now.
  public var position: TextPosition {
    // Columns count characters: continuation bytes of UTF-8 do not start one.
    let column = bytes[lineStart..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return TextPosition(line: line, column: column)
  }

  public var isAtEnd: Bool {
    mutating get {
      skipWhitespace()
      return offset >= bytes.count
    }
  }

  /// The next whole value; at the end of the input, an error.
  public mutating func readValue() throws(JSONSyntaxError) -> JSON {
    skipWhitespace()
    guard offset < bytes.count else { throw failure(.unexpectedEnd) }
    switch bytes[offset] {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): return try readWord("true", .bool(true))
    case UInt8(ascii: "f"): return try readWord("false", .bool(false))
    case UInt8(ascii: "n"): return try readWord("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
    default: throw unexpected("a value")
    }
  }

  /// Reads the whole input as one value, with nothing after it.
  public static func document(_ bytes: [UInt8], progress: ((Int) -> Void)? = nil)
    throws(JSONSyntaxError) -> JSON
  {
    var reader = JSONReader(bytes: bytes)
    reader.progress = progress
    let value = try reader.readValue()
    guard reader.isAtEnd else { throw reader.unexpected("the end of the file") }
    return value
  }

  /// The line the next value starts on.
  public mutating func nextLine() -> Int {
    skipWhitespace()
    return line
  }

  /// The first non-blank byte, without moving.
  public mutating func peek() -> UInt8? {
    skipWhitespace()
    return offset < bytes.count ? bytes[offset] : nil
  }

  // MARK: Parts

  private mutating func readObject() throws(JSONSyntaxError) -> JSON {
    try enter()
    var members: [(String, JSON)] = []
    try readItems(close: UInt8(ascii: "}")) { reader throws(JSONSyntaxError) in
      guard reader.bytes[reader.offset] == UInt8(ascii: "\"") else {
        throw reader.unexpected("a name in quotes")
      }
      let key = try reader.readString()
      try reader.expect(UInt8(ascii: ":"), "':'")
      members.append((key, try reader.readValue()))
    }
    depth -= 1
    return .object(members)
  }

  private mutating func readArray() throws(JSONSyntaxError) -> JSON {
    try enter()
    var values: [JSON] = []
    try readItems(close: UInt8(ascii: "]")) { reader throws(JSONSyntaxError) in
      values.append(try reader.readValue())
    }
    depth -= 1
    return .array(values)
  }

  /// Reads the members of a top-level array one at a time: `body` sees each element, its index
  /// and the line it starts on, and nothing of the whole array is kept.
  public mutating func forEachElement(
    _ body: (_ element: JSON, _ index: Int, _ line: Int) throws -> Void
  ) throws {
    skipWhitespace()
    guard offset < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[offset] == UInt8(ascii: "[") else { throw unexpected("'['") }
    try enter()
    var index = 0
    var failure: (any Error)?
    do {
      try readItems(close: UInt8(ascii: "]")) { reader throws(JSONSyntaxError) in
        let line = reader.line
        let element = try reader.readValue()
        do { try body(element, index, line) } catch {
          // The caller's own error ends the reading as it is, not as a syntax error.
          failure = error
          throw JSONSyntaxError(problem: .unexpectedEnd, position: reader.position)
        }
        index += 1
      }
    } catch {
      if let failure { throw failure }
      throw error
    }
    depth -= 1
  }

  /// Reads the members of an object one at a time, its `{` at the reader: `body` sees each
  /// member's name with the reader at the member's value, and reads the value itself
  /// (`readValue`, `forEachElement`), so that nothing of the whole object need be kept.
  public mutating func forEachMember(
    _ body: (_ name: String, _ reader: inout JSONReader) throws -> Void
  ) throws {
    skipWhitespace()
    guard offset < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[offset] == UInt8(ascii: "{") else { throw unexpected("'{'") }
    try enter()
    var failure: (any Error)?
    do {
      try readItems(close: UInt8(ascii: "}")) { reader throws(JSONSyntaxError) in
        guard reader.bytes[reader.offset] == UInt8(ascii: "\"") else {
          throw reader.unexpected("a name in quotes")
        }
        let name = try reader.readString()
        try reader.expect(UInt8(ascii: ":"), "':'")
        let value = reader.offset
        do {
          try body(name, &reader)
          precondition(reader.offset > value, "forEachMember's body reads the member's value")
        } catch let error as JSONSyntaxError { throw error } catch {
          // The caller's own error ends the reading as it is, not as a syntax error.
          failure = error
          throw JSONSyntaxError(problem: .unexpectedEnd, position: reader.position)
        }
      }
    } catch {
      if let failure { throw failure }
      throw error
    }
    depth -= 1
  }

  /// The items of an object or array, its opening bracket at the reader: `item` reads one (the
  /// reader at its first byte), and the commas between and the closing bracket are checked here.
  private mutating func readItems(
    close: UInt8, _ item: (inout JSONReader) throws(JSONSyntaxError) -> Void
  ) throws(JSONSyntaxError) {
    offset += 1
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == close {
      offset += 1
      return
    }
    let expected = close == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'"
    while true {
      skipWhitespace()
      guard offset < bytes.count else { throw failure(.unexpectedEnd) }
      try item(&self)
      if offset >= nextProgress, let progress {
        progress(offset)
        nextProgress = offset + 1 << 20
      }
      skipWhitespace()
      guard offset < bytes.count else { throw failure(.unexpectedEnd) }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == close {
        offset += 1
        return
      }
      throw unexpected(expected)
    }
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw failure(.tooDeep) }
  }

  private mutating func readWord(_ word: StaticString, _ value: JSON) throws(JSONSyntaxError)
    -> JSON
  {
    let length = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { expected in
      offset + length <= bytes.count && bytes[offset..<offset + length].elementsEqual(expected)
    }
    guard matches else { throw unexpected("a value") }
    offset += length
    return value
  }

  private mutating func readNumber() throws(JSONSyntaxError) -> Double {
    let start = offset
    func digits() -> Int {
      let first = offset
      while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
        offset += 1
      }
      return offset - first
    }
    if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    guard offset < bytes.count else { throw failure(.badNumber) }
    if bytes[offset] == UInt8(ascii: "0") {
      offset += 1
    } else if digits() == 0 {
      throw failure(.badNumber)
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
      offset += 1
      guard digits() > 0 else { throw failure(.badNumber) }
    }
    if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
      offset += 1
      if offset < bytes.count,
        bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
      {
        offset += 1
      }
      guard digits() > 0 else { throw failure(.badNumber) }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    guard let value = Double(text), value.isFinite else { throw failure(.badNumber) }
    return value
  }

  private mutating func readString() throws(JSONSyntaxError) -> String {
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

  private mutating func expect(_ byte: UInt8, _ name: String) throws(JSONSyntaxError) {
    skipWhitespace()
    guard offset < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[offset] == byte else { throw unexpected(name) }
    offset += 1
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        offset += 1
      case UInt8(ascii: "\n"):
        offset += 1
        line += 1
        lineStart = offset
      default:
        return
      }
    }
  }

  func failure(_ problem: JSONSyntaxError.Problem) -> JSONSyntaxError {
    JSONSyntaxError(problem: problem, position: position)
  }

  func unexpected(_ expected: String) -> JSONSyntaxError {
    guard offset < bytes.count else { return failure(.unexpectedEnd) }
    // The character found, whole (a multi-byte one too), or its byte where it is not UTF-8.
    var end = offset + 1
    while end < bytes.count, end < offset + 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
    let found =
      String(validating: bytes[offset..<end], as: UTF8.self) ?? "\\x"
      + String(
        bytes[offset], radix: 16)
    return failure(.unexpected(character: found, expected: expected))
  }
}
