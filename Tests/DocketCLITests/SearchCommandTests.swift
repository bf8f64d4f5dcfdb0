import Foundation
import Testing

/// Exclusions on the command line: `-word` and `-"two words"` take away what matches.
@Suite struct SearchCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  func titles(_ words: [String]) throws -> [String] {
    let run = try box.docket(["list"] + words + ["--json"])
    #expect(run.status == 0, "\(words): \(run.error)")
    let issues = try #require(try run.json() as? [[String: Any]])
    return issues.compactMap { $0["title"] as? String }.sorted()
  }

  @Test func exclusionsAloneWithTextWithTokensAndQuoted() throws {
    _ = try box.add(["Fix crash on start", "--tag", "Bug"])
    _ = try box.add(["Fix the build", "--tag", "CI"])
    _ = try box.add(["Crash report form", "--detail", "two words here"])
    #expect(try titles(["fix", "-crash"]) == ["Fix the build"])
    #expect(try titles(["-crash"]) == ["Fix the build"])
    #expect(try titles(["-tag:Bug", "-build"]) == ["Crash report form"])
    #expect(try titles([#"-"two words""#]) == ["Fix crash on start", "Fix the build"])
    #expect(try titles([#"-"words two""#]).count == 3)
  }
}
