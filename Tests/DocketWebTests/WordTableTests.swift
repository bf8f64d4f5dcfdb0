import Database
import Foundation
import Testing

@testable import DocketCore

/// The page's table of words (words.js, which copy.js searches offline by) says what the
/// full-text index's tokenizer does with every code point, on the SQLite Docket links.
@Suite struct WordTableTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/DocketWeb/Assets/words.js")

  /// The table as copy.js reads it: the code points that end a word, and what the others become.
  static func table() throws -> (separators: Set<UInt32>, folds: [UInt32: String]) {
    let text = try String(contentsOf: file, encoding: .utf8)
    func field(_ name: String) throws -> [[Substring]] {
      let start = try #require(text.range(of: "\(name): '"))
      let end = try #require(text[start.upperBound...].firstIndex(of: "'"))
      return text[start.upperBound..<end].split(separator: ",")
        .map { $0.split(separator: ".", omittingEmptySubsequences: false) }
    }
    var separators = Set<UInt32>()
    var end: UInt32 = 0
    for run in try field("separators") {
      let start = end + UInt32(try #require(UInt32(run[0], radix: 36)))
      end = start + UInt32(try #require(UInt32(run[1], radix: 36)))
      for point in start..<end { separators.insert(point) }
    }
    var folds: [UInt32: String] = [:]
    var last: UInt32 = 0
    for entry in try field("folds") {
      last += try #require(UInt32(entry[0], radix: 36))
      folds[last] =
        entry[1].isEmpty
        ? "" : String(Character(try #require(Unicode.Scalar(UInt32(entry[1], radix: 36) ?? 0))))
    }
    return (separators, folds)
  }

  @Test func everyCodePointIsCutAndFoldedAsTheIndexDoes() throws {
    let (separators, folds) = try Self.table()
    let queue = try DocketDatabase.inMemory(now: { Date() })
    var differences: [String] = []
    try queue.read { db in
      let tokenizer = try #require(
        FullTextTokenizer(db, arguments: TextMatcher.tokenizerArguments))
      for point in UInt32(0)..<0x11_0000 {
        guard let scalar = Unicode.Scalar(point) else { continue }
        let bytes = Array("q\(Character(scalar))q".utf8)
        var tokens: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
          tokenizer.forEachToken(in: buffer) { tokens.append(String(decoding: $0, as: UTF8.self)) }
        }
        let expected =
          separators.contains(point)
          ? ["q", "q"] : ["q" + (folds[point] ?? String(Character(scalar))) + "q"]
        if tokens != expected && differences.count < 20 {
          differences.append(String(format: "U+%04X: %@ in SQLite", point, tokens.description))
        }
      }
    }
    #expect(differences.isEmpty, "words.js differs; run scripts/make-word-table.py: \(differences)")
    // The table is not empty by mistake: ASCII punctuation ends words, capitals fold.
    #expect(separators.contains(0x21) && folds[0x41] == "a")
  }
}
