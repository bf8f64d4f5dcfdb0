import Foundation
import Testing

@testable import JSONText

@Suite struct JSONReaderTests {
  @Test func readsValuesExactly() throws {
    let text = #"{"a":[1,-2.5,3e2,true,false,null],"b":"x\"y\\z\n\u00e9\ud83d\udc1b","c":{}}"#
    let value = try JSONReader.document(Array(text.utf8))
    #expect(
      value["a"]
        == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
    #expect(value["b"]?.string == "x\"y\\z\né🐛")
    #expect(value["c"] == .object([]))
    // Members keep their order; a repeated key counts once, the last.
    let repeated = try JSONReader.document(Array(#"{"k":1,"j":2,"k":3}"#.utf8))
    #expect(repeated.members?.map(\.0) == ["k", "j", "k"])
    #expect(repeated["k"] == .number(3))
    // A byte order mark at the start is allowed.
    #expect(try JSONReader.document([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    #expect(
      throws: JSONSyntaxError(
        problem: .unexpected(character: "x", expected: "a value"),
        position: TextPosition(line: 1, column: 2))
    ) {
      try JSONReader.document([0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
    }
  }

  /// Every error says what and where: the line and the column (in characters).
  @Test(arguments: [
    (
      "{\"a\": 1,\n \"b\" 2}", JSONSyntaxError.Problem.unexpected(character: "2", expected: "':'"),
      2, 6
    ),
    ("[1, 2", .unexpectedEnd, 1, 6),
    ("[1 2]", .unexpected(character: "2", expected: "',' or ']'"), 1, 4),
    ("{\"é\": x}", .unexpected(character: "x", expected: "a value"), 1, 7),
    ("\"tab\there\"", .controlCharacterInString, 1, 5),
    ("\"\\q\"", .badEscape, 1, 3),
    ("\"\\ud800x\"", .badEscape, 1, 8),
    ("01", .unexpected(character: "1", expected: "the end of the file"), 1, 2),
    ("-", .badNumber, 1, 2),
    ("1.", .badNumber, 1, 3),
    ("[] []", .unexpected(character: "[", expected: "the end of the file"), 1, 4),
    ("", .unexpectedEnd, 1, 1),
  ])
  func errorsSayWhatAndWhere(
    text: String, problem: JSONSyntaxError.Problem, line: Int, column: Int
  ) {
    #expect(
      throws: JSONSyntaxError(problem: problem, position: TextPosition(line: line, column: column))
    ) {
      try JSONReader.document(Array(text.utf8))
    }
  }

  @Test func invalidUTF8IsAnErrorAtItsByteNeverReplaced() {
    var bytes = Array("[\"ok\",\n\"ab".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\"]".utf8)
    #expect(
      throws: JSONSyntaxError(problem: .invalidUTF8, position: TextPosition(line: 2, column: 4))
    ) {
      try JSONReader.document(bytes)
    }
  }

  /// Text is taken exactly when it is UTF-8, as Swift's own validation decides, and then byte
  /// for byte: a character cut off after three of its four bytes, which decoding would mend into
  /// one U+FFFD of the same length, is refused (so is one with a whole character after it, and a
  /// surrogate, an overlong form, a stray continuation byte), and a real U+FFFD is kept.
  @Test(
    arguments: [
      [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x61], [0xE2, 0x82, 0xE2, 0x82, 0xAC],
      [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE2, 0x82], [0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xEF, 0xBF, 0xBD], [0xC3, 0xA4, 0xE2, 0x82, 0xAC], [0x61, 0xEF, 0xBF, 0xBD, 0xFF],
    ] as [[UInt8]])
  func textIsTakenExactlyWhenItIsUTF8(_ inner: [UInt8]) throws {
    let bytes = Array("\"x".utf8) + inner + Array("y\"".utf8)
    let expected = String(validating: inner, as: UTF8.self)
    let read = try? JSONReader.document(bytes)
    if let expected {
      #expect(read == .string("x" + expected + "y"))
      #expect(read?.string.map { Array($0.utf8) } == Array("x".utf8) + inner + Array("y".utf8))
    } else {
      #expect(throws: JSONSyntaxError.self) { try JSONReader.document(bytes) }
    }
  }

  @Test func deepNestingIsRefusedNotACrash() {
    let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.document(deep) }
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(throws: Never.self) { try JSONReader.document(Array(fine.utf8)) }
  }
}
