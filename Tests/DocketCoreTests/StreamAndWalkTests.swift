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
    "b", "t", "x",
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

  @Test func walkedPagesAreWhatTheIndexFinds() throws {
    let db = try database()
    for search in Self.searches {
      let query = try SearchParser.parse(search)
      for sort in [IssueSort(field: .priority), IssueSort(field: .title, ascending: true)] {
        let request = IssueRequest(filter: .all, search: query, sort: sort, now: db.now)
        // Without a limit the index answers; with one the walk does (every issue is walked).
        let indexed = try db.queue.read { try $0.fetchIssues(request) }
        let walked = try db.queue.read { conn in
          try TextWalk.walk(request, wanted: 1_000, db: conn) { _ in }
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

  /// Text that few issues match gives up the walk once its share is known, and the index
  /// answers; text that many match is found by the walk within the sample.
  @Test func rareTextGivesUpTheWalkAndCommonTextDoesNot() throws {
    let db = try TestDatabase()
    try db.queue.write { conn in
      for index in 0..<(TextWalk.sample + 600) {
        let title = index == 900 ? "needle in hay" : "hay bale \(index)"
        try conn.insertIssue(
          Issue(
            id: db.uuids.make(), title: title, created: db.now.addingTimeInterval(-Double(index))))
      }
    }
    let rare = IssueRequest(search: try SearchParser.parse("needle"), now: db.now)
    let common = IssueRequest(search: try SearchParser.parse("hay"), now: db.now)
    #expect(try db.queue.read { try TextWalk.walk(rare, wanted: 100, db: $0) { _ in } } == false)
    #expect(try db.queue.read { try TextWalk.walk(common, wanted: 100, db: $0) { _ in } })
    let page = try db.queue.read { try $0.fetchIssues(rare, limit: 100) }
    #expect(page.map(\.title) == ["needle in hay"])
    #expect(try db.queue.read { try $0.countIssues(rare, limit: 100) } == 1)
    #expect(try db.queue.read { try $0.fetchIssues(common, limit: 100) }.count == 100)
  }
}

@Suite struct ReferenceIndexTests {
  /// Every reference from the index equals the one found from the issue's neighbours, for ids
  /// that share one to all of their first eight digits and for ids that share none.
  @Test func referencesAgreeWithTheNeighbourLookUp() throws {
    let db = try TestDatabase()
    let crafted = [
      "abcdef01-0000-4000-8000-000000000001", "abcdef01-0000-4000-8000-000000000002",
      "abcdef01-1000-4000-8000-000000000001", "abcdef02-0000-4000-8000-000000000000",
      "abce0000-0000-4000-8000-000000000000", "ffffffff-ffff-4fff-bfff-ffffffffffff",
      "00000000-0000-4000-8000-000000000000", "12340000-0000-4000-8000-000000000000",
      "12350000-0000-4000-8000-000000000000",
    ].map { UUID(uuidString: $0)! }
    var random = SplitMix64(seed: 7)
    let ids = crafted + (0..<300).map { _ in random.uuid() } + (0..<80).map { _ in db.uuids.make() }
    try db.queue.write { conn in
      for id in ids { try conn.insertIssue(Issue(id: id, title: "x", created: db.now)) }
    }
    let index = try db.queue.read { try ReferenceIndex($0) }
    let oneByOne = try db.queue.read { conn in
      try ids.map { try conn.references(for: [$0])[$0]! }
    }
    #expect(ids.map { index.reference(for: $0) } == oneByOne)
    #expect(oneByOne[0] == "abcdef01000040008000000000000001")
    #expect(oneByOne[3] == "abcdef02")
    #expect(oneByOne[4] == "abce")
    #expect(oneByOne[7] == "1234")
    // Many at once go through the index.
    let many = try db.queue.read { try $0.references(for: ids) }
    #expect(ids.map { many[$0]! } == oneByOne)
  }
}

/// A streamed list is the whole list, in order, with the references a page shows.
@Suite struct IssueStreamTests {
  @Test func streamedBatchesAreTheWholeListInOrder() throws {
    let db = try TestDatabase()
    let tag = try db.tag("Bug")
    for index in 0..<700 {
      try db.issue(
        "issue \(index % 37)", priority: Priority(rawValue: index % 3)!,
        completed: index % 4 == 0, daysAgo: Double(index % 29), tags: index % 5 == 0 ? [tag] : [])
    }
    for sort in IssueSort.Field.allCases.flatMap({
      [IssueSort(field: $0), IssueSort(field: $0, ascending: true)]
    }) {
      for filter in [IssueFilter.open, .all, .tag(tag.id)] {
        let request = IssueRequest(filter: filter, sort: sort, now: db.now)
        let whole = try db.queue.read { try $0.fetchIssues(request) }
        var streamed: [ListedIssue] = []
        var batches = 0
        try db.queue.read { conn in
          let references = try ReferenceIndex(conn)
          try conn.streamIssues(request, detail: true, references: references, batchSize: 64) {
            #expect($0.count <= 64)
            batches += 1
            streamed += $0
          }
        }
        #expect(streamed.map(\.issue) == whole, "\(sort) \(filter)")
        #expect(batches == (whole.count + 63) / 64)
        let references = try db.queue.read { try $0.references(for: whole.map(\.id)) }
        #expect(streamed.map(\.reference) == whole.map { references[$0.id]! })
      }
    }
  }
}
