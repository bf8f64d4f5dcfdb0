import Foundation
import Testing

@testable import DocketEmbed

/// What the build embeds must read back as the file: a raw string literal with enough `#` that
/// nothing inside ends it or reads as an escape, and files it cannot carry refused.
@Suite struct EmbedTests {
  @Test func theDelimiterGrowsPastWhatTheTextHolds() {
    #expect(rawLiteral("plain") == "#\"\"\"\nplain\n\"\"\"#")
    // Text that would end a literal of one `#`, or escape inside it, gets two; and so on.
    #expect(rawLiteral("a \"\"\"# b").hasPrefix("##\"\"\"\n"))
    #expect(rawLiteral("a \\#(x) b").hasPrefix("##\"\"\"\n"))
    #expect(rawLiteral("a \\##n \"\"\"# b").hasPrefix("###\"\"\"\n"))
    let text = "x \\##n \"\"\"## y"
    let literal = rawLiteral(text)
    let hashes = String(literal.prefix { $0 == "#" })
    #expect(!text.contains("\"\"\"" + hashes) && !text.contains("\\" + hashes))
    #expect(literal.hasSuffix("\n\"\"\"" + hashes))
  }

  @Test func keysAreWrittenAsSafeStringLiterals() {
    #expect(literal("a\"b\\c\u{1}") == "\"a\\\"b\\\\c\\u{1}\"")
    #expect(literal("Übersetzung") == "\"Übersetzung\"")
  }

  @Test func aFileLosesOnlyItsLastLineEndAndIsRefusedWhenItCannotBeCarried() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-embed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
      let path = folder.appendingPathComponent(name).path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }
    #expect(try text(of: file("a", Array("one\ntwo\n\n".utf8))) == "one\ntwo\n")
    #expect(throws: EmbedError.self) { try text(of: file("b", Array("one\r\ntwo\n".utf8))) }
    #expect(throws: EmbedError.self) { try text(of: file("c", [0x61, 0xFF, 0x0A])) }
  }

  @Test func aBinaryFileIsCarriedWholeInBase64() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-embed-\(UUID().uuidString).png"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Every byte value, a carriage return and invalid UTF-8 among them.
    let bytes = (0..<512).map { UInt8($0 % 256) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let source = try constantsSource(["icon=\(path)"], binary: true)
    let line = try #require(source.split(separator: "\n").first { $0.hasPrefix("let icon = ") })
    let base64 = line.dropFirst("let icon = \"".count).dropLast()
    #expect(Data(base64Encoded: String(base64)).map { Array($0) } == bytes)
  }
}
