import DocketCore
import Foundation
import Testing

/// Titles, details and tag names with escape sequences: no command writes them raw, and JSON
/// keeps them exact.
@Suite struct HostileTextTests {
  let box: Sandbox
  static let title =
    "Evil \u{1B}]52;c;aGVsbG8=\u{07} title \u{1B}[31mred \u{9B}2J \u{7F} \u{202E}txet"
  static let tag = "Tag\u{1B}[2J"
  init() throws { box = try Sandbox() }

  /// True when `text` holds a control (other than a line break) or a direction override.
  static func hasRawControls(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
  }

  @Test func noTextOutputCarriesControlsAndJSONKeepsTheExactText() throws {
    let reference = try box.add([
      Self.title, "--tag", Self.tag, "--detail", "line one\u{1B}[2J\nline two\u{07}",
    ])
    for arguments in [
      ["list"], ["list", "--filter", "all"], ["show", reference], ["tag", "list"], ["awards"],
      ["close", reference], ["reopen", reference], ["list", "red"],
      ["edit", reference, "--priority", "high"], ["tag", "rename", Self.tag, "Tag\u{9B}1"],
    ] {
      let run = try box.docket(arguments)
      #expect(run.status == 0, "\(arguments): \(run.error)")
      #expect(
        !Self.hasRawControls(run.output), "\(arguments) printed \(run.output.debugDescription)")
      #expect(!Self.hasRawControls(run.error), "\(arguments) printed \(run.error.debugDescription)")
    }
    let shown = try box.docket(["show", reference]).output
    #expect(shown.contains("Evil ␛]52;c;aGVsbG8=␇ title ␛[31mred �2J ␡ �txet"))
    #expect(shown.contains("line one␛[2J\nline two␇"))

    let json = try box.docket(["show", reference, "--json"])
    #expect(!Self.hasRawControls(json.output))
    let issue = try #require(try json.json() as? [String: Any])
    #expect(issue["title"] as? String == Self.title)
    #expect(issue["detail"] as? String == "line one\u{1B}[2J\nline two\u{07}")
  }

  /// Two issues whose ids share a prefix: the error lists their titles, safe.
  @Test func anAmbiguousReferenceListsTitlesSafely() throws {
    let db = try DocketDatabase.connection(
      path: {
        _ = try? box.docket(["list"])
        return box.database
      }())
    for suffix in ["1", "2"] {
      try db.insertIssue(
        Issue(
          id: UUID(uuidString: "abcd0000-0000-4000-8000-00000000000\(suffix)")!,
          title: "Twin \(suffix) \u{1B}]52;c;aGk=\u{07}", created: Date()))
    }
    let run = try box.docket(["show", "abcd"])
    #expect(run.status == 2)
    #expect(run.error.contains("Twin 1 ␛]52;c;aGk=␇"))
    #expect(!Self.hasRawControls(run.error))
  }

  /// Errors that echo what was typed show it safe too.
  @Test func errorsThatEchoInputAreSafe() throws {
    for arguments in [
      ["list", "--filter", "tag:\u{1B}]0;pwned\u{07}"], ["show", "zz\u{1B}[2J"],
      ["frobnicate\u{9B}"], ["list", "--sort", "\u{1B}[5m"], ["tag", "delete", "No\u{1B}such"],
    ] {
      let run = try box.docket(arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(!run.error.isEmpty)
      #expect(!Self.hasRawControls(run.error), "\(arguments) printed \(run.error.debugDescription)")
    }
  }
}
