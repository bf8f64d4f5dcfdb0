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

  @Test func anUnknownThemeIsAnError() throws {
    let run = try box.docket(["--theme", "bright", "list"])
    #expect(run.status == 2)
    #expect(run.error.contains("--theme"))
  }

  /// Words that start like a short option of `list` (`-f`, `-s`, `-n`) are still exclusions.
  @Test func exclusionsThatLookLikeShortOptions() throws {
    _ = try box.add(["Fix the fall of the build"])
    _ = try box.add(["New status page"])
    _ = try box.add(["Slow start"])
    #expect(try titles(["-fix"]) == ["New status page", "Slow start"])
    #expect(try titles(["-fall"]) == ["New status page", "Slow start"])
    #expect(try titles(["-slow", "-new"]) == ["Fix the fall of the build"])
    // `status:` is a key: `-status:open` is the token `is:completed`, not `--sort tatus:open`.
    #expect(try titles(["-status:open"]) == [])
    // The options themselves still work, with their value as the next word or a joined number.
    #expect(try titles(["-f", "all", "-n1"]).count == 1)
    #expect(
      try titles(["-s", "title"]) == ["Fix the fall of the build", "New status page", "Slow start"])
  }
}
