import DocketCore
import Foundation
import JSONText
import Testing

@testable import DocketTransfer

@Suite struct JSONWriterTests {
  /// The escaping rule, written the slow and obvious way: a scalar at a time.
  static func reference(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
        result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The byte-level writer escapes exactly what the rule says, for every mix of plain text,
  /// controls, C1, direction overrides and their neighbours in UTF-8 (E2 80 A9 and E2 80 AF are
  /// not overrides), and reads back as the same text.
  @Test func escapesExactlyTheRule() throws {
    let pieces = [
      "a", "é", "日", "🐛", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{80}",
      "\u{9F}",
      "\u{A0}", "\u{202A}", "\u{202E}", "\u{2029}", "\u{202F}", "\u{2066}", "\u{2069}", "\u{2065}",
      "\u{206A}", "e\u{301}",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
      var output = OutputBytes(write: { _ in })
      JSONWriter.appendQuoted(text, to: &output)
      let written = String(decoding: output.bytes, as: UTF8.self)
      #expect(written == Self.reference(text), "\(Array(text.unicodeScalars))")
      #expect(try JSONReader.document(output.bytes) == .string(text))
    }
  }
}
