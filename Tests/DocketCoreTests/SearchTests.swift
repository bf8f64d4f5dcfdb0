import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct SearchTests {
  let db: TestDatabase
  let bug: Tag
  let ui: Tag

  init() throws {
    db = try TestDatabase()
    bug = try db.tag("Bug")
    ui = try db.tag("UI Design")
    try db.issue("Übersetzung prüfen", detail: "German strings", priority: .low, tags: [ui])
    try db.issue("Fix build on Linux", detail: "Release 20.04 fails", priority: .high, tags: [bug])
    try db.issue("Fix login layout", detail: "narrow screens", priority: .medium, tags: [bug, ui])
    try db.issue("Build docs", priority: .low, completed: true, tags: [bug])
  }

  @Test func wordsMatchPrefixesIgnoringCaseAndDiacritics() throws {
    #expect(try db.titles(search: "ubersetz") == ["Übersetzung prüfen"])
    #expect(try db.titles(search: "PRUF") == ["Übersetzung prüfen"])
    #expect(try db.titles(search: "fi") == ["Fix build on Linux", "Fix login layout"])
    #expect(try db.titles(search: "german") == ["Übersetzung prüfen"])
  }

  @Test func allWordsMustMatch() throws {
    #expect(try db.titles(search: "fix build") == ["Fix build on Linux"])
    #expect(try db.titles(search: "fix nothing") == [])
  }

  @Test func exclusionsTakeAwayWhatMatches() throws {
    // Alone: the filter, less what matches.
    #expect(try db.titles(search: "-fix") == ["Übersetzung prüfen"])
    #expect(try db.titles(search: "-narrow") == ["Fix build on Linux", "Übersetzung prüfen"])
    // With text: "fix -login" is the fix that is not about login (a prefix, as text is).
    #expect(try db.titles(search: "fix -log") == ["Fix build on Linux"])
    // With tokens.
    #expect(try db.titles(search: "tag:Bug -linux") == ["Fix login layout"])
    #expect(try db.titles(search: "-build is:completed") == [])
    // Quoted: the words next to each other; "login layout" excluded, "layout" alone kept.
    #expect(try db.titles(search: #"fix -"login layout""#) == ["Fix build on Linux"])
    #expect(
      try db.titles(search: #"fix -"layout login""#) == ["Fix build on Linux", "Fix login layout"])
    // Nothing to search for in it: it takes nothing away.
    #expect(try db.titles(search: "fix -***") == ["Fix build on Linux", "Fix login layout"])
  }

  @Test func tagTokensCombineWithAndAndCanExclude() throws {
    #expect(try db.titles(search: "tag:bug") == ["Fix build on Linux", "Fix login layout"])
    #expect(try db.titles(search: #"tag:Bug tag:"ui design""#) == ["Fix login layout"])
    #expect(try db.titles(search: "tag:Bug -tag:\"UI Design\"") == ["Fix build on Linux"])
    #expect(try db.titles(search: "tag:nosuchtag") == [])
    #expect(try db.titles(search: "-tag:nosuchtag").count == 3)
  }

  @Test func priorityTokensAreAnyOf() throws {
    #expect(try db.titles(search: "p:h") == ["Fix build on Linux"])
    #expect(try db.titles(search: "p:h p:m") == ["Fix build on Linux", "Fix login layout"])
    #expect(try db.titles(search: "-p:low") == ["Fix build on Linux", "Fix login layout"])
  }

  @Test func statusTokensOverrideTheFiltersCompletionRule() throws {
    #expect(try db.titles(.open, search: "is:completed") == ["Build docs"])
    #expect(try db.titles(.completed, search: "is:open").count == 3)
    #expect(try db.titles(.open, search: "is:open is:completed").count == 4)
    #expect(
      try db.titles(.tag(bug.id), search: "is:completed", showCompleted: false) == ["Build docs"])
  }

  @Test func textAndTokensCombine() throws {
    #expect(try db.titles(.all, search: "build tag:bug") == ["Fix build on Linux", "Build docs"])
    #expect(try db.titles(.all, search: "build tag:bug is:completed") == ["Build docs"])
    #expect(try db.titles(.all, search: "build p:high tag:bug") == ["Fix build on Linux"])
  }

  @Test func searchNarrowsTheCurrentFilter() throws {
    #expect(try db.titles(.tag(ui.id), search: "fix") == ["Fix login layout"])
    #expect(try db.titles(.completed, search: "build") == ["Build docs"])
  }

  @Test func countsFollowTheSameRequest() throws {
    let request = IssueRequest(filter: .all, search: try SearchParser.parse("build"), now: db.now)
    #expect(try db.queue.read { try $0.countIssues(request) } == 2)
  }

  static let hostileInputs: [String] = [
    "\"", "\"\"", "\"unclosed", "*", "**", "a*b", "AND", "OR", "NOT", "fix AND", "OR build",
    "NOT NOT",
    "NEAR(", "NEAR(fix build)", "NEAR(a b, 3)", "-", "--", "-x", "- -", ":", "::", "a:b:c", "^",
    "^fix",
    "20.04", "(", ")", "()", "{}", "[", "'", "';", "%", "_", "\\", "fix\\", "\u{0}", "+", "col:x",
    "title:fix", "detail:", "🐛", "🐛 fix", "👩‍👩‍👧", "e\u{301}", "\u{301}", "\u{301}\u{302}", "Ω≈ç√",
    "日本語", "ﷺ", "\t\n", String(repeating: "a", count: 10_000),
    String(repeating: "fix ", count: 2_500), String(repeating: "\"", count: 10_001), "", "   ",
  ]

  @Test(arguments: hostileInputs)
  func hostileTextNeverFails(input: String) throws {
    let query: SearchQuery
    do {
      query = try SearchParser.parse(input)
    } catch {
      Testing.Issue.record("parsing \(input.prefix(20).debugDescription) failed: \(error)")
      return
    }
    for filter in [IssueFilter.open, .all, .recent, .tag(bug.id)] {
      let request = IssueRequest(filter: filter, search: query, now: db.now)
      _ = try db.queue.read { try $0.fetchIssues(request, limit: 50) }
      _ = try db.queue.read { try $0.countIssues(request) }
    }
  }

  @Test func wordlessTextNarrowsNothingAndPunctuationSplitsWords() throws {
    #expect(try db.titles(search: "***").count == 3)
    #expect(try db.titles(search: "🐛").count == 3)
    #expect(try db.titles(search: "20.04") == ["Fix build on Linux"])
    // Words joined by punctuation form a phrase: adjacent, in order.
    #expect(try db.titles(search: "login-layout") == ["Fix login layout"])
    #expect(try db.titles(search: "layout-login") == [])
    #expect(try db.titles(search: "NEAR(fix") == [])
  }

  @Test func theExpressionQuotesEveryWord() {
    #expect(
      FullTextExpression.expression(for: ["fix", "20.04", "C++"])
        == #""fix"* AND "20 04"* AND "C"*"#)
    #expect(FullTextExpression.expression(for: ["\"", "🐛"]) == nil)
    #expect(
      FullTextExpression.words(of: "e\u{301}t\u{301}e\u{301}") == ["e\u{301}t\u{301}e\u{301}"])
    #expect(FullTextExpression.words(of: "\u{301}x") == ["x"])
  }
}

/// A page of a search is the start of the whole list, whichever way it is read: from the sort
/// index (text many issues match) or from the matches, then sorted (text few match).
@Suite struct SearchPagePlanTests {
  @Test func pagesAgreeWithTheWholeListForRareAndCommonText() throws {
    let db = try TestDatabase()
    let tag = try db.tag("Bug")
    for index in 0..<400 {
      let rare = index % 97 == 0 ? " rareword" : ""
      try db.issue(
        "common item \(index)\(rare)", detail: index % 3 == 0 ? "shared detail" : "",
        priority: Priority(rawValue: index % 3)!, completed: index % 5 == 0,
        daysAgo: Double(index % 17), tags: index % 2 == 0 ? [tag] : [])
    }
    for search in ["rareword", "common", "shared", "nomatch", "rareword tag:Bug", "item -shared"] {
      for sort in [
        IssueSort(field: .priority), IssueSort(field: .date, ascending: true),
        IssueSort(field: .title),
      ] {
        for filter in [IssueFilter.open, .all, .recent] {
          let request = IssueRequest(
            filter: filter, search: try SearchParser.parse(search), sort: sort, now: db.now)
          let whole = try db.queue.read { try $0.fetchIssues(request) }
          let page = try db.queue.read { try $0.fetchIssues(request, limit: 10) }
          #expect(page == Array(whole.prefix(10)), "\(search) \(sort) \(filter)")
        }
      }
    }
    let rare = try db.queue.read {
      try $0.fetchIssues(
        IssueRequest(filter: .all, search: try SearchParser.parse("rareword"), now: db.now),
        limit: 10)
    }
    #expect(rare.count == 5)
  }
}
