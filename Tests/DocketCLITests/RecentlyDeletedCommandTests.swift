import Foundation
import JSONText
import Testing

/// `docket list --filter deleted` and `docket restore`, as a person uses them.
@Suite struct RecentlyDeletedCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func deletedIssuesAreListedNewestFirstAndRestoredByReference() throws {
    let crash = try box.add(["Crash on start", "--priority", "high", "--tag", "Bug"])
    let typo = try box.add(["Typo in help"])
    let kept = try box.add(["Kept"])
    let none = try box.docket(["list", "--filter", "deleted"])
    #expect(none.status == 0 && none.output.isEmpty)
    #expect(try box.docket(["delete", crash, "--yes"]).status == 0)
    #expect(try box.docket(["delete", typo, "--yes"]).status == 0)

    let listed = try box.docket(["list", "--filter", "deleted"])
    #expect(listed.status == 0)
    #expect(listed.lines.first?.hasPrefix("REF") == true)
    #expect(
      listed.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == [
        typo, crash,
      ])
    #expect(listed.output.contains("this device"))
    #expect(!listed.output.contains("Kept"))

    let json = try JSONReader.document(
      Array(try box.docket(["list", "--filter", "deleted", "crash", "--json"]).output.utf8))
    let only = try #require(json.array?.first)
    #expect(json.array?.count == 1)
    #expect(only["ref"]?.string == crash)
    #expect(only["title"]?.string == "Crash on start")
    #expect(only["priority"]?.string == "high")
    #expect(only["deletedBy"] == .null)
    #expect(only["restorableUntil"]?.string != nil)

    let restored = try box.docket(["restore", crash])
    #expect(restored.status == 0)
    #expect(restored.lines == ["Restored \(crash): Crash on start"])
    let show = try box.docket(["show", crash])
    #expect(show.status == 0)
    #expect(show.output.contains("Tags:     Bug"))
    #expect(try box.docket(["list", "--filter", "deleted", "--json"]).output.contains(typo))
    #expect(!(try box.docket(["list", "--filter", "deleted", "--json"]).output.contains(crash)))

    // Restoring again, a living issue, or a reference nothing has: words and exit 2.
    let again = try box.docket(["restore", crash])
    #expect(again.status == 2)
    #expect(again.error == "docket: “Crash on start” is not deleted.\n")
    #expect(try box.docket(["restore", kept]).status == 2)
    let unknown = try box.docket(["restore", "0000"])
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("docket list --filter deleted shows them"))
  }

  @Test func deleteNowEndsLivingAndRecentlyDeletedIssuesForGood() throws {
    let living = try box.add(["Living"])
    let deleted = try box.add(["Deleted first"])
    let kept = try box.add(["Kept"])
    #expect(try box.docket(["delete", deleted, "--yes"]).status == 0)
    // Not on a terminal, only with --yes.
    #expect(try box.docket(["delete", "--now", living]).status == 2)
    let run = try box.docket(["delete", "--now", living, deleted, "--yes"])
    #expect(run.status == 0)
    #expect(
      run.lines == [
        "Deleted for good \(living): Living", "Deleted for good \(deleted): Deleted first",
      ])
    #expect(try box.docket(["list", "--filter", "deleted", "--json"]).output == "[]\n")
    let again = try box.docket(["restore", deleted])
    #expect(again.status == 2)
    #expect(try box.docket(["list", "--json"]).output.contains("Kept"))
    #expect(try box.docket(["show", kept]).status == 0)
  }

  @Test func aRestoreOfSeveralIsAllOrNothingAndJSONShowsTheIssues() throws {
    let one = try box.add(["One"])
    let two = try box.add(["Two"])
    #expect(try box.docket(["delete", one, two, "--yes"]).status == 0)
    // One reference wrong: every reference is checked first, so nothing is restored.
    #expect(try box.docket(["restore", one, "0000"]).status == 2)
    #expect(try box.docket(["show", one]).status == 2)
    let both = try box.docket(["restore", one, two, "--json"])
    #expect(both.status == 0)
    let issues = try JSONReader.document(Array(both.output.utf8)).array ?? []
    #expect(issues.map { $0["title"]?.string } == ["One", "Two"])
    #expect(try box.docket(["list", "--json"]).output.contains("\"Two\""))
  }

  @Test func theDeletedListRefusesWhatDoesNotApplyInTheReadersLanguage() throws {
    let sorted = try box.docket(["list", "--filter", "deleted", "--sort", "title"])
    #expect(sorted.status == 2)
    #expect(sorted.error.contains("--sort"))
    let token = try box.docket(["list", "--filter", "deleted", "tag:Bug"])
    #expect(token.status == 2)
    #expect(token.error.contains("tag:Bug"))
    let german = try box.docket(
      ["list", "--filter", "deleted", "--sort", "title"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(german.error.contains("gilt nicht"))
  }
}
