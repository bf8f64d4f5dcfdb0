import Database
import Foundation
import Testing

@testable import DocketCore

/// A search's page is found by walking the sort index and matching text here, or by the
/// full-text index; both must give exactly what the index alone gives.
@Suite struct TextWalkTests {
  static let titles = [
    "Übersetzung prüfen", "naïve café crème", "Fix build on Linux", "Release 20.04 fails",
    "C++ templates", "日本語のテキスト", "e\u{301}te\u{301} plans", "emoji 🐛 bug", "MiXeD CaSe Words",
    "login-layout", "ſtraße Strasse", "ÀÉÎÕÜ accents", "tab\there", "", "build-build build",
    "ﬁle ligature", "Ⅻ roman", "x\u{202E}reversed", "İstanbul ıi", "ǅemal titlecase",
    "Fixing builds fast", "fix, then build", "prefix fix", "a1b2 x-y-z",
  ]
  static let details = [
    "", "German strings", "Steps:\nline two", "café au lait", "20 04 spaced", "naive",
    "Übersetzung", "build", "NEAR(fix", "\"quoted\"",
  ]
  static let searches = [
    "ub", "uber", "über", "PRÜF", "naive", "cafe", "café", "creme", "fix build", "20.04", "20 04",
    "c", "c++", "日本", "日本語", "ete", "e\u{301}te\u{301}", "🐛", "bug", "mixed case", "login-layout",
    "layout-login", "strasse", "straße", "ſtraße", "aeiou", "accents", "tab", "here", "build",
    "-build", "fix -linux", "-cafe -naive", "file", "ﬁle", "xii", "reversed", "istanbul", "i",
    "dzemal", "ǅemal", "quoted", "near", "lait", "line two", "\"line two\"", "two line", "s",
    "b", "t", "x", "fix buil", "fixing build", "builds", "fix then", "then fix", "a1b", "x y z",
    "y z", "refix", "fix -fixing",
  ]

  func database() throws -> TestDatabase {
    let db = try TestDatabase()
    let tag = try db.tag("Bug")
    for (index, title) in Self.titles.enumerated() {
      for copy in 0..<3 {
        try db.issue(
          title, detail: Self.details[(index + copy) % Self.details.count],
          priority: Priority(rawValue: (index + copy) % 3)!, completed: copy == 2,
          daysAgo: Double(index * 3 + copy), tags: copy == 1 ? [tag] : [])
      }
    }
    return db
  }

  /// A database of `count` issues titled by `title(index)`, the first made most recently (one
  /// second apart), in one transaction.
  static func issues(_ count: Int, title: (Int) -> String) throws -> TestDatabase {
    let db = try TestDatabase()
    try db.queue.write { conn in
      for index in 0..<count {
        try conn.insertIssue(
          Issue(
            id: db.uuids.make(), title: title(index),
            created: db.now.addingTimeInterval(-Double(index))))
      }
    }
    return db
  }

  @Test func walkedPagesAreWhatTheIndexFinds() throws {
    let db = try database()
    for search in Self.searches {
      let query = try SearchParser.parse(search)
      for sort in [IssueSort(field: .priority), IssueSort(field: .title, ascending: true)] {
        let request = IssueRequest(filter: .all, search: query, sort: sort, now: db.now)
        // Without a limit the index answers; with one the walk does (every issue is walked).
        let indexed = try db.queue.read { try $0.fetchIssues(request) }
        let walked = try db.queue.read { conn in
          try TextWalk.walk(request, wanted: 1_000, db: conn) { _ in } == .complete
        }
        // Text without words (an emoji) narrows nothing, and is left to the index.
        let wordless =
          FullTextExpression.expression(for: query.text) == nil
          && FullTextExpression.expression(for: query.excludedText) == nil
        #expect(walked != wordless, "\(search): walked \(walked)")
        let page = try db.queue.read { try $0.fetchIssues(request, limit: 1_000) }
        #expect(page.map(\.id) == indexed.map(\.id), "\(search) \(sort)")
        let counted = try db.queue.read { try $0.countIssues(request, limit: 1_000) }
        #expect(counted == indexed.count, "\(search)")
      }
    }
  }

  /// A count of text that is not walked is read from the full-text index's matches, each joined
  /// to its issue (with a tag, from the set of matches): whole and up to a limit, it must be
  /// what the list holds, in every filter, with and without the completed issues.
  @Test func countsOfTextAreWhatTheListHolds() throws {
    let db = try database()
    let bug = try #require(try db.queue.read { try $0.fetchTags() }.first)
    let neverWalks = TextWalk.Limits(sample: 0, budget: 0)
    let filters: [IssueFilter] = [.all, .open, .completed, .recent, .tag(bug.id)]
    var counted = 0
    for search in Self.searches + ["tag:bug fix", "fix -tag:bug", "b priority:high"] {
      let query = try SearchParser.parse(search)
      for filter in filters {
        for showCompleted in [true, false] {
          let request = IssueRequest(
            filter: filter, search: query, showCompleted: showCompleted, now: db.now)
          let listed = try db.queue.read { try $0.fetchIssues(request) }.count
          let whole = try db.queue.read { try $0.countIssues(request) }
          #expect(whole == listed, "\(search) in \(filter)")
          for limit in Set([1, 2, listed, listed + 1]) where limit > 0 {
            let limited = try db.queue.read {
              try $0.countIssues(request, limit: limit, walk: neverWalks)
            }
            #expect(limited == min(limit, listed), "\(search) in \(filter) up to \(limit)")
          }
          counted += listed
        }
      }
    }
    // The searches find something: the counts compared are not all zero.
    #expect(counted > 1_000)
  }

  /// Text that few issues match gives up the walk once its share is known, and the index
  /// answers; text that many match is found by the walk within the sample.
  @Test func rareTextGivesUpTheWalkAndCommonTextDoesNot() throws {
    let db = try Self.issues(TextWalk.Limits.interactive.sample + 600) {
      $0 == 900 ? "needle in hay" : "hay bale \($0)"
    }
    let rare = IssueRequest(search: try SearchParser.parse("needle"), now: db.now)
    let common = IssueRequest(search: try SearchParser.parse("hay"), now: db.now)
    let rareWalk = try db.queue.read { try TextWalk.walk(rare, wanted: 100, db: $0) { _ in } }
    // One of the first 512 matched (the oldest come first): the share is below one in a hundred,
    // and the page is driven from the few matches.
    guard case .gaveUp(let share?) = rareWalk else {
      Testing.Issue.record("the rare word was walked: \(rareWalk)")
      return
    }
    #expect(share < 0.01)
    #expect(
      try db.queue.read { try TextWalk.walk(common, wanted: 100, db: $0) { _ in } } == .complete)
    let page = try db.queue.read { try $0.fetchIssues(rare, limit: 100) }
    #expect(page.map(\.title) == ["needle in hay"])
    #expect(try db.queue.read { try $0.countIssues(rare, limit: 100) } == 1)
    #expect(try db.queue.read { try $0.fetchIssues(common, limit: 100) }.count == 100)
  }
}

extension TextWalkTests {
  /// Text on one issue in twenty is walked by the terminal app (its rows are cached) and asked of
  /// the index by a command run once; both give the same page.
  @Test func aCommandRunOnceWalksOnlyForCommonText() throws {
    let db = try Self.issues(2_400) { $0 % 20 == 0 ? "needle \($0)" : "hay \($0)" }
    let request = IssueRequest(search: try SearchParser.parse("needle"), now: db.now)
    let interactive = try db.queue.read {
      try TextWalk.walk(request, wanted: 100, limits: .interactive, db: $0) { _ in }
    }
    let oneShot = try db.queue.read {
      try TextWalk.walk(request, wanted: 100, limits: .oneShot, db: $0) { _ in }
    }
    #expect(interactive == .complete)
    #expect(oneShot != .complete)
    let walkedPage = try db.queue.read { try $0.fetchIssues(request, limit: 100) }
    let indexedPage = try db.queue.read {
      try $0.fetchIssues(request, limit: 100, walk: .oneShot)
    }
    #expect(walkedPage.count == 100)
    #expect(walkedPage == indexedPage)
  }

  /// A walk that found the text on none of its sample says so, and the page is then decided by
  /// counting the matches, not by the sample: in a database of millions, the sample (taken as
  /// half a match) projected past the point where the page is driven from the matches, and a
  /// word on no issue walked every open issue.
  @Test func aSampleWithoutMatchesLeavesTheDecisionToTheIndex() throws {
    let db = try Self.issues(300) { "hay \($0)" }
    try db.queue.write { conn in
      // Row numbers only grow: one far row makes the database count as five million issues.
      try conn.execute(
        "INSERT INTO issues (seq, id, title, created) VALUES (5000000, ?, 'far hay', 0)",
        [db.uuids.make()])
    }
    let request = IssueRequest(search: try SearchParser.parse("needle"), now: db.now)
    try db.queue.read { conn in
      let outcome = try TextWalk.walk(request, wanted: 50, limits: .oneShot, db: conn) { _ in }
      #expect(outcome == .gaveUp(share: 0))
      guard case .gaveUp(let share) = outcome else { return }
      let sampled = try IssueRequestSQL(request, db: conn, forPage: true, textShare: share)
      #expect(sampled.drivesFromText)
      // Text the sample found on many issues is taken as common without asking the index.
      let common = try IssueRequestSQL(request, db: conn, forPage: true, textShare: 0.05)
      #expect(!common.drivesFromText)
    }
    #expect(try db.queue.read { try $0.fetchIssues(request, limit: 50, walk: .oneShot) } == [])
  }
}
