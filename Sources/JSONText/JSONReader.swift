/// Reads JSON from UTF-8 bytes, strictly (RFC 8259), keeping track of lines so that an error names
/// where it is. Invalid UTF-8 is an error, never replaced. Reads one document, or a sequence of
/// documents one after another (JSON Lines, as `task export` can write).
public struct JSONReader {
  let bytes: [UInt8]
  var offset = 0
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

  /// How many bytes of the input are read: where the next value starts, once `peek()` has
  /// passed the blanks before it.
  public var byteOffset: Int { offset }

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

  /// The error `problem` at the reader's place.
  public func failure(_ problem: JSONSyntaxError.Problem) -> JSONSyntaxError {
    JSONSyntaxError(problem: problem, position: position)
  }

  /// The error of finding what is at the reader where `expected` (in words) should be.
  public func unexpected(_ expected: String) -> JSONSyntaxError {
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
