import Database
import DocketCore
import Foundation
import Testing

@Suite struct AddAndShowTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func addPrintsAReferenceThatShowFinds() throws {
    let reference = try box.add([
      "Fix", "the", "build", "--priority", "high", "--tag", "Bug", "-t", "CI", "--detail",
      "Fails on Linux",
    ])
    #expect(reference.count >= 4 && reference.allSatisfy(\.isHexDigit))
    let show = try box.docket(["show", reference])
    #expect(show.status == 0)
    #expect(show.lines[0] == "Fix the build  \(reference)")
    #expect(show.output.contains("Priority: ▲ High"))
    #expect(show.output.contains("Status:   ○ Open"))
    #expect(show.output.contains("Tags:     Bug, CI"))
    #expect(show.output.contains("Modified: never"))
    #expect(show.lines.last == "Fails on Linux")
  }

  @Test func jsonShapesAreAsDocumented() throws {
    let add = try box.docket([
      "add", "Ship it", "--priority=medium", "--tag", "Release", "--completed", "--json",
    ])
    #expect(add.status == 0)
    let issue = try #require(try add.json() as? [String: Any])
    #expect(
      issue.keys.sorted() == [
        "completed", "created", "detail", "id", "modified", "priority", "ref", "tags", "title",
      ])
    #expect(issue["title"] as? String == "Ship it")
    #expect(issue["detail"] as? String == "")
    #expect(issue["priority"] as? String == "medium")
    #expect(issue["completed"] as? Bool == true)
    #expect(issue["modified"] is NSNull)
    #expect(issue["tags"] as? [String] == ["Release"])
    let id = try #require(issue["id"] as? String)
    #expect(UUID(uuidString: id) != nil && id == id.lowercased())
    let reference = try #require(issue["ref"] as? String)
    #expect(id.replacingOccurrences(of: "-", with: "").hasPrefix(reference))
    let created = try #require(issue["created"] as? String)
    #expect(
      created.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
    // The keys come in the documented order.
    let keys = add.output.split(separator: "\n").compactMap { line -> String? in
      guard let quote = line.firstIndex(of: "\""), line.contains(":") else { return nil }
      let rest = line[line.index(after: quote)...]
      return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
    #expect(
      Array(keys.prefix(9)) == [
        "id", "ref", "title", "detail", "priority", "completed", "created", "modified", "tags",
      ])

    let show = try box.docket(["show", reference, "--json"])
    #expect(try show.json() as? NSDictionary == issue as NSDictionary)
    let list = try box.docket(["list", "--filter", "all", "--json"])
    #expect((try list.json() as? [[String: Any]])?.first?["id"] as? String == id)
  }

  @Test func anEmptyTitleIsRefused() throws {
    for title in ["", "   ", "\n"] {
      let run = try box.docket(["add", title])
      #expect(run.status == 2)
      #expect(run.error.hasPrefix("docket: the title is empty"))
    }
    #expect(try box.docket(["list", "--filter", "all", "--json"]).output == "[]\n")
  }

  @Test func valuesMayStartWithADashAndDoubleDashEndsOptions() throws {
    let reference = try box.add(["--", "-x marks the spot", "--priority"])
    let show = try box.docket(["show", reference, "--json"])
    let issue = try #require(try show.json() as? [String: Any])
    #expect(issue["title"] as? String == "-x marks the spot --priority")
    let detail = try box.docket(["add", "Negative", "--detail", "-5 degrees", "--json"])
    #expect((try detail.json() as? [String: Any])?["detail"] as? String == "-5 degrees")
  }
}

@Suite struct ListTests {
  let box: Sandbox
  let refs: [String: String]

  init() throws {
    box = try Sandbox()
    var refs: [String: String] = [:]
    refs["login"] = try box.add([
      "Fix login layout", "--priority", "high", "--tag", "Bug", "--tag", "UI Design",
    ])
    refs["build"] = try box.add(["Fix build on Linux", "--priority", "medium", "--tag", "Bug"])
    refs["docs"] = try box.add(["Übersetzung prüfen", "--tag", "Docs"])
    refs["done"] = try box.add(["Release 1.0", "--completed", "--tag", "Bug"])
    self.refs = refs
  }

  func titles(_ arguments: [String]) throws -> [String] {
    let run = try box.docket(["list"] + arguments + ["--json"])
    #expect(run.status == 0, "\(arguments): \(run.error)")
    return (try run.json() as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
  }

  @Test func filtersSearchesAndTokens() throws {
    #expect(try titles([]) == ["Fix login layout", "Fix build on Linux", "Übersetzung prüfen"])
    #expect(try titles(["--filter", "completed"]) == ["Release 1.0"])
    #expect(try titles(["--filter", "all"]).count == 4)
    #expect(try titles(["--filter", "recent", "--hide-completed"]).count == 3)
    // Show completed starts off, as in the seed; --show-completed shows them for one list.
    #expect(try titles(["--filter", "tag:bug"]) == ["Fix login layout", "Fix build on Linux"])
    #expect(
      try titles(["--filter", "tag:bug", "--show-completed"]) == [
        "Fix login layout", "Fix build on Linux", "Release 1.0",
      ])
    #expect(try titles(["fix", "bu"]) == ["Fix build on Linux"])
    #expect(try titles(["ubersetz"]) == ["Übersetzung prüfen"])
    #expect(try titles(["tag:Bug", "priority:high"]) == ["Fix login layout"])
    #expect(try titles(["-tag:Bug"]) == ["Übersetzung prüfen"])
    #expect(try titles(["tag:\"UI Design\""]) == ["Fix login layout"])
    #expect(try titles(["p:h", "p:m"]) == ["Fix login layout", "Fix build on Linux"])
    #expect(try titles(["is:completed"]) == ["Release 1.0"])
    #expect(try titles(["foo:bar"]) == [])
    // Odd input searches for what words it holds (an unclosed quote runs to the end) and never fails.
    #expect(try titles(["\"", "NEAR(", "*"]) == [])
    #expect(try titles(["*", "^", "-", "20.04"]) == [])
    #expect(try titles(["🐛"]).count == 3)
  }

  @Test func aSortIsForOneListUnlessRememberedAndFlipsWithTheDirectionFlags() throws {
    let plain = try titles([])
    // (Another order than by title, so that a title sort kept would show.)
    #expect(plain != ["Fix build on Linux", "Fix login layout", "Übersetzung prüfen"])
    #expect(
      try titles(["--sort", "title"]) == [
        "Fix build on Linux", "Fix login layout", "Übersetzung prüfen",
      ])
    // For that list alone: a script's sort does not change what the next plain run shows.
    #expect(try titles([]) == plain)
    #expect(try titles(["--asc"]) != plain)
    #expect(try titles([]) == plain)
    // Kept with --remember: the next list uses it without being told.
    #expect(try box.docket(["list", "--sort", "title", "--remember"]).status == 0)
    #expect(try titles([]) == ["Fix build on Linux", "Fix login layout", "Übersetzung prüfen"])
    let nothing = try box.docket(["list", "--remember"])
    #expect(nothing.status == 2 && nothing.error.contains("--sort"), "\(nothing.error)")
    #expect(
      try titles(["--desc"]) == ["Übersetzung prüfen", "Fix login layout", "Fix build on Linux"])
    #expect(
      try titles(["--sort", "priority", "--asc"]) == [
        "Übersetzung prüfen", "Fix build on Linux", "Fix login layout",
      ])
    #expect(
      try titles(["--sort", "date"]) == [
        "Übersetzung prüfen", "Fix build on Linux", "Fix login layout",
      ])
  }

  @Test func limitAndItsErrors() throws {
    #expect(try titles(["--limit", "2"]).count == 2)
    #expect(try titles(["-n", "1"]).count == 1)
    for bad in ["0", "-3", "many"] {
      let run = try box.docket(["list", "--limit", bad])
      #expect(run.status == 2)
      #expect(run.error == "docket: --limit needs a whole number greater than 0, not “\(bad)”.\n")
    }
  }

  @Test func peopleGetAlignedColumnsAndPipesGetNoColour() throws {
    let run = try box.docket(["list"])
    #expect(run.status == 0)
    #expect(!run.output.contains("\u{1B}["))
    let lines = run.lines
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("REF "))
    let titleColumn = try #require(lines[0].range(of: "TITLE")).lowerBound.utf16Offset(in: lines[0])
    for line in lines.dropFirst() {
      let prefix = String(line.prefix(titleColumn))
      #expect(prefix.hasSuffix("  "), "columns are not aligned: \(line)")
    }
    #expect(lines[1].contains(refs["login"]!))
    #expect(lines[1].contains("▲ High"))
  }

  @Test func badFiltersAndTokensAreUsageErrors() throws {
    let token = try box.docket(["list", "priority:urgent"])
    #expect(token.status == 2)
    #expect(
      token.error
        == "docket: Unknown priority “urgent” in priority:urgent: use low, medium or high.\n")
    let filter = try box.docket(["list", "--filter", "soon"])
    #expect(filter.status == 2)
    #expect(filter.error.contains("“soon” is not a valid value for --filter"))
    let tag = try box.docket(["list", "--filter", "tag:Nope"])
    #expect(tag.status == 2)
    #expect(tag.error == "docket: there is no tag named “Nope”; docket tag list shows the tags.\n")
  }
}

@Suite struct ChangeTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func editFlagsChangeFieldsAndTags() throws {
    let reference = try box.add(["Old title", "--tag", "Bug", "--tag", "UI"])
    let run = try box.docket([
      "edit", reference, "--title", "New title", "--priority", "h", "--tag", "-bug", "--tag",
      "+Docs", "--tag", "CLI", "--json",
    ])
    #expect(run.status == 0)
    let issue = try #require(try run.json() as? [String: Any])
    #expect(issue["title"] as? String == "New title")
    #expect(issue["priority"] as? String == "high")
    #expect(issue["tags"] as? [String] == ["CLI", "Docs", "UI"])
    #expect(issue["modified"] as? String != nil)
    let empty = try box.docket(["edit", reference, "--title", " "])
    #expect(empty.status == 2)
  }

  @Test func closeAndReopenTakeSeveralReferencesAllOrNothing() throws {
    let first = try box.add(["One"])
    let second = try box.add(["Two"])
    let bad = try box.docket(["close", first, "ffff"])
    #expect(bad.status == 2)
    #expect(try box.docket(["list", "--json"]).output.contains("\"completed\": false"))
    let close = try box.docket(["close", first, second])
    #expect(close.status == 0)
    #expect(close.lines == ["Closed \(first): One", "Closed \(second): Two"])
    #expect(try box.docket(["close", first]).lines == ["Already closed \(first): One"])
    #expect(try box.docket(["reopen", second]).lines == ["Reopened \(second): Two"])
    #expect(try box.docket(["list", "--filter", "completed", "--json"]).output.contains("\"One\""))
  }

  @Test func deleteNeedsYesWithoutATerminal() throws {
    let reference = try box.add(["Doomed"])
    let refused = try box.docket(["delete", reference])
    #expect(refused.status == 2)
    #expect(refused.error == "docket: refusing to delete without --yes when not on a terminal.\n")
    #expect(try box.docket(["show", reference]).status == 0)
    let deleted = try box.docket(["delete", reference, "--yes"])
    #expect(deleted.status == 0)
    #expect(deleted.lines == ["Deleted \(reference): Doomed"])
    let gone = try box.docket(["show", reference])
    #expect(gone.status == 2)
    #expect(gone.error.contains("no issue has the reference"))
  }

  @Test func tagsAreListedAddedRenamedAndDeleted() throws {
    _ = try box.add(["A", "--tag", "Bug"])
    _ = try box.add(["B", "--tag", "bug", "--completed"])
    #expect(try box.docket(["tag", "add", "  Docs  "]).lines == ["Added tag Docs."])
    #expect(try box.docket(["tag", "add", "DOCS"]).lines == ["Tag Docs exists already."])
    let list = try box.docket(["tag", "list", "--json"])
    let tags = try #require(try list.json() as? [[String: Any]])
    #expect(tags.map { $0["name"] as? String } == ["Bug", "Docs"])
    #expect(tags[0]["open"] as? Int == 1 && tags[0]["total"] as? Int == 2)
    // Counts are written as whole numbers, as documented.
    #expect(list.output.contains("\"open\": 1,\n") && list.output.contains("\"total\": 2\n"))
    #expect(tags[0].keys.sorted() == ["id", "name", "open", "total"])
    #expect(
      try box.docket(["tag", "list", "--sort", "count"]).lines.dropFirst().first?.hasPrefix("Bug")
        == true)
    #expect(
      try box.docket(["tag", "rename", "docs", "Documentation"]).lines == [
        "Renamed tag Docs to Documentation."
      ])
    let taken = try box.docket(["tag", "rename", "Documentation", "BUG"])
    #expect(taken.status == 2)
    #expect(
      taken.error
        == "docket: A tag named “Bug” already exists; to give its name to the issues of “Documentation” and remove “Documentation”, add --merge.\n"
    )
    #expect(try box.docket(["tag", "delete", "Documentation"]).status == 2)
    #expect(
      try box.docket(["tag", "delete", "Documentation", "--yes"]).lines == [
        "Deleted tag Documentation."
      ])
    #expect(try box.docket(["tag", "delete", "Nope", "--yes"]).status == 2)
    #expect(try box.docket(["tag", "add", " "]).error == "docket: A tag name cannot be empty.\n")
  }

  @Test func awardsAndSampleData() throws {
    let sample = try box.docket(["sample-data"])
    #expect(sample.status == 0)
    #expect(sample.lines == ["Added 12 sample issues and 6 tags."])
    let again = try box.docket(["sample-data"])
    #expect(again.status == 1)
    #expect(again.error.contains("already has 12 issues"))
    let awards = try box.docket(["awards", "--json"])
    let list = try #require(try awards.json() as? [[String: Any]])
    #expect(list.count == 20)
    #expect(list[1]["id"] as? String == "issues-10")
    #expect(list[1]["criterion"] as? String == "issues")
    #expect(list[1]["value"] as? Int == 10)
    #expect(list[1]["name"] as? String == "10 Issues")
    #expect(list[1]["description"] as? String == "Create 10 issues.")
    #expect(list[1]["unlocked"] as? Bool == true)
    #expect(list[2]["unlocked"] as? Bool == false)
    #expect(
      list[0].keys.sorted() == ["criterion", "description", "id", "name", "unlocked", "value"])
    // Piped, the rows alone: 20 awards, no summary line.
    let piped = try box.docket(["awards"]).lines
    #expect(piped.count == 20 && piped.filter { $0.hasPrefix("★") }.count == 4, "\(piped)")
  }
}

@Suite struct ReferenceTests {
  @Test func ambiguousReferencesListTheCandidates() throws {
    let box = try Sandbox()
    let queue = try DocketDatabase.open(path: box.database)
    try queue.write { db in
      for (id, title) in [
        ("8c1e0000-0000-4000-8000-000000000001", "First"),
        ("8c1e0000-0000-4000-8000-000000000002", "Second"),
        ("8c1f0000-0000-4000-8000-000000000000", "Other"),
      ] {
        try db.insertIssue(Issue(id: UUID(uuidString: id)!, title: title, created: Date()))
      }
    }
    let ambiguous = try box.docket(["show", "8c1e"])
    #expect(ambiguous.status == 2)
    #expect(
      ambiguous.error == """
        docket: “8c1e” matches several issues:
          8c1e0000000040008000000000000001  First
          8c1e0000000040008000000000000002  Second
        Give more digits to choose one.

        """)
    #expect(try box.docket(["show", "8c1f"]).lines.first == "Other  8c1f")
    #expect(
      try box.docket(["show", "8c1e0000-0000-4000-8000-000000000002"]).lines.first?.hasPrefix(
        "Second") == true)
    #expect(
      try box.docket(["show", "8c1"]).error
        == "docket: “8c1” is too short: a reference has at least 4 hex digits.\n")
    #expect(try box.docket(["show", "8c1z"]).status == 2)
    let list = try box.docket(["list"])
    #expect(list.lines.dropFirst().map { String($0.prefix(4)) }.contains("8c1f"))
  }
}
