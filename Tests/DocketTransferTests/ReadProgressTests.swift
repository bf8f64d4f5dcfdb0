import DocketCore
import Foundation
import JSONText
import Testing

@testable import DocketTransfer

/// A long read says how far it is: about once a mebibyte, in order, for records one a line, in a
/// list, and in Docket's own document.
@Suite struct ReadProgressTests {
  static func task(_ index: Int) -> String {
    let uuid = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!
    return
      #"{"description":"Task \#(index) \#(String(repeating: "x", count: 300))","entry":"20251130T080000Z","status":"pending","uuid":"\#(uuid.uuidString.lowercased())"}"#
  }

  static func heard(_ bytes: [UInt8], format: TransferFormat? = nil) throws -> (
    reports: [Int], issues: Int
  ) {
    final class Heard { var reports: [Int] = [] }
    let heard = Heard()
    let batch = try TransferReader.read(
      bytes, format: format, progress: { heard.reports.append($0) })
    return (heard.reports, batch.issues.count)
  }

  static func githubIssue(_ number: Int) -> String {
    #"{"number":\#(number + 1),"title":"Issue \#(number)","body":"\#(String(repeating: "z", count: 300))","labels":[{"name":"good first issue"}],"state":"OPEN","createdAt":"2026-11-30T06:40:30Z","updatedAt":"2026-11-30T06:40:30Z","closedAt":null}"#
  }

  /// Taskwarrior's tasks one a line and in a list, and GitHub's issues in a list.
  @Test(arguments: ["task lines", "task list", "github list"])
  func aLongReadSaysHowFarItIs(kind: String) throws {
    let records = (0..<12_000).map(kind.hasPrefix("github") ? Self.githubIssue : Self.task)
    let text =
      kind.hasSuffix("list")
      ? "[\n" + records.joined(separator: ",\n") + "\n]\n" : records.joined(separator: "\n")
    let bytes = Array(text.utf8)
    let (reports, issues) = try Self.heard(bytes)
    #expect(issues == 12_000)
    // About one a mebibyte: each at least a mebibyte after the last, none past the end.
    let mebibytes = bytes.count >> 20
    #expect(reports.count >= mebibytes - 1 && reports.count <= mebibytes, "\(reports)")
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $1 - $0 >= 1 << 20 })
    #expect(reports.allSatisfy { $0 <= bytes.count } && (reports.first ?? 0) >= 1 << 20)
  }

  /// Docket's own document of `count` issues, written as Docket writes it (no escapes).
  static func docketDocument(_ count: Int) -> [UInt8] {
    let issues = (0..<count).map { index in
      let id = String(format: "00000000-0000-4000-8000-%012d", index)
      return
        #"{"id":"\#(id)","title":"Issue \#(index)","detail":"\#(String(repeating: "y", count: 300))","priority":"low","completed":false,"created":"2026-11-30T06:40:30Z","modified":null,"tags":[]}"#
    }
    let text =
      #"{"format":"docket","version":1,"exported":"2026-11-30T06:40:30Z","tags":[],"issues":["#
      + issues.joined(separator: ",\n") + "]}\n"
    return Array(text.utf8)
  }

  /// Said as it is read, whether its format is named or found: about once a mebibyte.
  @Test(arguments: [nil, .docket] as [TransferFormat?])
  func docketsOwnDocumentSaysHowFarItIs(format: TransferFormat?) throws {
    let bytes = Self.docketDocument(8_000)
    try #require(bytes.count > 2 << 20, "the document is \(bytes.count) bytes")
    let (reports, count) = try Self.heard(bytes, format: format)
    #expect(count == 8_000)
    let mebibytes = bytes.count >> 20
    #expect(reports.count >= mebibytes - 1 && reports.count <= mebibytes, "\(reports)")
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $1 - $0 >= 1 << 20 })
  }

  /// Read once: the reader's own reports, unfiltered (the import's never go back, which would
  /// hide a second read), cover the document once, as it is read as it goes.
  @Test func docketsOwnDocumentIsReadOnce() throws {
    let bytes = Self.docketDocument(8_000)
    final class Heard { var reports: [Int] = [] }
    let heard = Heard()
    var reader = JSONReader(bytes: bytes)
    reader.progress = { heard.reports.append($0) }
    let batch = try #require(try DocketFormat.stream(&reader))
    #expect(batch.issues.count == 8_000 && reader.isAtEnd)
    #expect(heard.reports.count == bytes.count >> 20, "\(heard.reports)")
    #expect(zip(heard.reports, heard.reports.dropFirst()).allSatisfy { $0 < $1 })
  }
}
