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

@Suite struct ReferenceIndexTests {
  /// The comparison in place agrees with the digit-by-digit one for ids sharing each number of
  /// digits, in either case, and leaves other text to it.
  @Test func digitsSharedInPlaceAreTheDigitsShared() {
    var random = SplitMix64(seed: 11)
    for shared in 0...32 {
      let a = random.uuid().uuidString.lowercased()
      var digits = Array(a.filter { $0 != "-" })
      if shared < 32 { digits[shared] = digits[shared] == "0" ? "1" : "0" }
      var b = String(digits)
      for hyphen in [8, 13, 18, 23] {
        b.insert("-", at: b.index(b.startIndex, offsetBy: hyphen))
      }
      for (left, right) in [(a, b), (a.uppercased(), b), (b, a)] {
        let fast = Array(left.utf8).withUnsafeBufferPointer { l in
          Array(right.utf8).withUnsafeBufferPointer { IssueReference.sharedHexDigitsInPlace(l, $0) }
        }
        #expect(fast == shared, "\(left) \(right)")
        #expect(fast == IssueReference.sharedHexDigits(Array(left.utf8), Array(right.utf8)))
      }
    }
    let short = Array("abcd".utf8)
    let plain = Array("abcdef0100004000800000000000000100000".utf8.prefix(36))
    short.withUnsafeBufferPointer { s in
      plain.withUnsafeBufferPointer { p in
        #expect(IssueReference.sharedHexDigitsInPlace(s, p) == nil)
        #expect(IssueReference.sharedHexDigitsInPlace(p, p) == nil)
        // Left to the digit-by-digit reading, which they are given.
        #expect(IssueReference.sharedHexDigits(s, p) == 4)
        #expect(IssueReference.sharedHexDigits(p, p) == 36)
      }
    }
  }

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
    let rows = try db.queue.read { conn in
      try ids.map {
        try conn.fetchOne("SELECT seq FROM issues WHERE id = ?", [$0], as: Int64.self)!
      }
    }
    let oneByOne = try db.queue.read { conn in
      try ids.map { try conn.references(for: [$0])[$0]! }
    }
    #expect(zip(ids, rows).map { $0.hexPrefix(index.length(row: $1)) } == oneByOne)
    #expect(oneByOne[0] == "abcdef01000040008000000000000001")
    #expect(oneByOne[3] == "abcdef02")
    #expect(oneByOne[4] == "abce")
    #expect(oneByOne[7] == "1234")
    // Many at once go through the index.
    let many = try db.queue.read { try $0.references(for: ids) }
    #expect(ids.map { many[$0]! } == oneByOne)
    // A list's references: looked up one by one for the first twentieth of the issues, then
    // from one pass over every id; the same either way.
    let listed = try db.queue.read { conn in
      let references = try ListReferences(conn)
      var made: [String] = []
      var wholeAfter: Int?
      for (id, row) in zip(ids, rows) {
        made.append(try references.reference(for: id, row: row))
        if wholeAfter == nil, references.madeWhole { wholeAfter = made.count }
      }
      return (made, wholeAfter)
    }
    #expect(listed.0 == oneByOne)
    #expect(listed.1 == ids.count / ListReferences.passShare + 1)
  }
}

/// A streamed list is the whole list, in order, with the references a page shows.
@Suite struct IssueStreamTests {
  /// The tag lists a long list makes once are the lists made afresh, in name order, for lists
  /// that share their first digits, repeat, name a tag no longer there, and pass the number of
  /// lists kept.
  @Test func tagListsMadeOnceAreTheListsMadeAfresh() {
    var catalogue: [Int64: (tag: Tag, rank: Int)] = [:]
    for seq in 1...200 {
      catalogue[Int64(seq)] = (Tag(id: UUID(), name: "tag \(seq)"), (seq * 37) % 200)
    }
    var lists = Connection.TagLists(catalogue)
    var texts = ["", "1", "12", "121", "1,2", "2,1", "12,1", "1,12", "999", "5,999,7"]
    for first in 1...100 {
      for second in 1...100 { texts.append("\(first),\(second)") }
    }
    #expect(texts.count > Connection.TagLists.limit)
    for round in 0..<2 {
      for text in texts {
        var bytes = Array(text.utf8)
        let cached = bytes.withUnsafeMutableBufferPointer {
          lists.tags(inList: UnsafeBufferPointer($0))
        }
        let fresh = bytes.withUnsafeMutableBufferPointer {
          Connection.tags(inList: UnsafeBufferPointer($0), catalogue: catalogue)
        }
        #expect(cached == fresh, "\(round) \(text)")
      }
    }
  }

  /// Whether a list's references come from one pass over every id is decided before it is
  /// read: a whole list of the table without counting, a list that may pass a twentieth of the
  /// issues by counting it (up to its limit), a list limited under a twentieth never.
  @Test func aListIsCountedToDecideItsReferences() throws {
    let db = try TestDatabase()
    let rare = try db.tag("Rare")
    for index in 0..<700 {
      try db.issue("issue \(index)", daysAgo: Double(index), tags: index % 70 == 1 ? [rare] : [])
    }
    func passMade(_ request: IssueRequest, limit: Int?) throws -> Bool {
      try db.queue.read { conn in
        let references = try ListReferences(conn)
        let clause = try IssueRequestSQL(request, db: conn, forPage: false, unordered: true)
        try references.decide(for: request, clause, limit: limit)
        return references.madeWhole
      }
    }
    let all = IssueRequest(filter: .all, now: db.now)
    let rareTag = IssueRequest(filter: .tag(rare.id), now: db.now)
    let rareText = IssueRequest(filter: .all, search: try SearchParser.parse("71"), now: db.now)
    // 700 issues: a twentieth is 35.
    #expect(try passMade(all, limit: nil))
    #expect(try passMade(all, limit: 1_000))
    #expect(try passMade(all, limit: 36))
    #expect(try !passMade(all, limit: 35))
    #expect(try !passMade(rareTag, limit: nil))
    #expect(try !passMade(rareTag, limit: 1_000))
    #expect(try !passMade(rareText, limit: nil))
    // A limit as large as can be typed is not multiplied past what an Int holds.
    #expect(try !passMade(rareTag, limit: Int.max))
    #expect(try passMade(all, limit: Int.max))
  }

  @Test func streamedBatchesAreTheWholeListInOrder() throws {
    let db = try TestDatabase()
    let tag = try db.tag("Bug")
    // A tag on 10 of 700 issues: under a twentieth, its references are looked up one by one.
    let rare = try db.tag("Rare")
    for index in 0..<700 {
      // Titles that differ only after a zero byte, and dates from before 2001 (whose doubles a
      // round trip through `Date` would not keep), sort as SQLite sorts them.
      let title = index % 11 == 0 ? "issue\u{0}\(index % 3)" : "issue \(index % 37)"
      let daysAgo = index % 13 == 0 ? 12_000 + Double(index) / 1e9 : Double(index % 29)
      try db.issue(
        title, priority: Priority(rawValue: index % 3)!, completed: index % 4 == 0,
        daysAgo: daysAgo, tags: index % 5 == 0 ? [tag] : index % 70 == 1 ? [rare] : [])
    }
    for sort in IssueSort.Field.allCases.flatMap({
      [IssueSort(field: $0), IssueSort(field: $0, ascending: true)]
    }) {
      // A tag, a search, a priority and an excluded tag each drive the query from their own
      // rows; the list is the same as a page of all of them.
      let requests =
        try [IssueFilter.open, .completed, .all, .tag(tag.id), .tag(rare.id), .recent].flatMap {
          filter in
          [true, false].map { showCompleted in
            IssueRequest(filter: filter, sort: sort, showCompleted: showCompleted, now: db.now)
          }
        }
        + [
          "issue 1", "priority:high", "-tag:Bug", "issue tag:Bug", "issue -\"issue 1\"",
          "tag:Rare", "issue 36",
        ].map {
          IssueRequest(
            filter: .all, search: try SearchParser.parse($0), sort: sort, now: db.now)
        }
      for request in requests {
        let whole = try db.queue.read { try $0.fetchIssues(request, limit: 10_000) }
        #expect(!whole.isEmpty)
        // Sorted in memory, and in runs of a few kilobytes merged from temporary files.
        for chunk in [8 << 20, 4_096] {
          var encoded: [UUID: Issue] = [:]
          var encodings = 0
          var listed: [(id: UUID, reference: String)] = []
          try db.queue.read { conn in
            try conn.streamEncodedIssues(
              request, detail: true, sortChunkBytes: chunk,
              encode: { issue, bytes in
                encoded[issue.issue.id] = issue.issue
                encodings += 1
                bytes.append(issue.issue.id.uuidString + " " + issue.reference)
              }
            ) { bytes in
              let words = String(decoding: bytes, as: UTF8.self).split(separator: " ")
              listed.append((UUID(uuidString: String(words[0]))!, String(words[1])))
            }
          }
          // Each issue is encoded once, whole (details, tags, titles with zero bytes, dates
          // before 2001), and delivered in the list's order.
          #expect(
            listed.map { encoded[$0.id] } == whole,
            "\(sort) \(request.filter) \(request.search) \(chunk)")
          #expect(encodings == whole.count)
          let references = try db.queue.read { try $0.references(for: whole.map(\.id)) }
          #expect(listed.map(\.reference) == whole.map { references[$0.id]! })
        }
      }
    }
  }

  /// A list read in index order that must be measured (a table) is held until every issue is
  /// encoded, so the search runs once; past `heldBytes` it is measured in a pass of its own and
  /// the rest delivered as read. Either way the list is whole and in order.
  @Test func aMeasuredListIsHeldOrMeasuredInAPassOfItsOwn() throws {
    let db = try TestDatabase()
    for index in 0..<400 {
      try db.issue(index % 3 == 0 ? "fix build \(index)" : "other \(index)", daysAgo: Double(index))
    }
    let request = IssueRequest(filter: .open, search: try SearchParser.parse("fix"), now: db.now)
    let issues = try db.queue.read { try $0.fetchIssues(request) }
    let whole = issues.map(\.title)
    #expect(whole.count == 134)
    let references = try db.queue.read { try $0.references(for: issues.map(\.id)) }
    let wholeReferences = issues.map { references[$0.id]! }
    for heldBytes in [4 << 20, 200] {
      var encoded = 0
      var encodedAtFirstDelivery: Int?
      var titles: [String] = []
      var listedReferences: [String] = []
      let widths = try db.queue.read { conn in
        let measurer = ListMeasurer(title: { $0.utf8.count }, tags: { $0.count })
        // With a limit, read in index order.
        try conn.streamEncodedIssues(
          request, limit: 1_000, detail: false, measuring: measurer, heldBytes: heldBytes,
          encode: { issue, bytes in
            encoded += 1
            bytes.append(issue.issue.title + "\t" + issue.reference)
          }
        ) { bytes in
          if encodedAtFirstDelivery == nil { encodedAtFirstDelivery = encoded }
          let fields = String(decoding: bytes, as: UTF8.self).split(separator: "\t")
          titles.append(String(fields[0]))
          listedReferences.append(String(fields[1]))
        }
        return measurer.widths
      }
      #expect(titles == whole, "\(heldBytes)")
      #expect(listedReferences == wholeReferences)
      #expect(encoded == whole.count)
      if heldBytes > 1_000_000 {
        #expect(encodedAtFirstDelivery == whole.count)
        #expect(widths.rows == 0, "held: no pass of its own")
      } else {
        #expect(encodedAtFirstDelivery! < whole.count)
        #expect(widths.rows == whole.count)
        #expect(widths.titles == whole.map(\.utf8.count).max())
      }
    }
  }

  /// A whole list copies out each row's text as it reads and makes the issue on the encoder's
  /// thread: every field and reference is what the list read row by row (with a limit) gives,
  /// for a list with the references of the pass and for a short one that finds its own; an id
  /// that is no UUID, or no text, ends the list with an error that names the column.
  @Test func aWholeListMakesTheIssuesALimitedListMakes() throws {
    let db = try TestDatabase()
    let bug = try db.tag("Bug")
    let ui = try db.tag("UI")
    let rare = try db.tag("Rare")
    // Ids at random (seeded), so that references are of different lengths.
    var random = SplitMix64(seed: 33)
    var ids: [UUID] = []
    for index in 0..<1_200 {
      let issue = Issue(
        id: random.uuid(), title: index % 3 == 0 ? "Ünïcode \u{1F41B} \(index)" : "issue \(index)",
        detail: index % 4 == 0 ? "detail \(index)\nsecond line" : "",
        priority: Priority(rawValue: index % 3) ?? .low, completed: index % 5 == 0,
        created: db.now.addingTimeInterval(-Double(index % 90) * TestDatabase.day),
        tags: index % 70 == 3 ? [rare] : index % 7 == 0 ? [bug, ui] : index % 7 == 1 ? [ui] : [])
      try db.queue.write { try $0.insertIssue(issue) }
      ids.append(issue.id)
    }
    // An edit gives some a modified date.
    try db.queue.write {
      try $0.execute("UPDATE issues SET title = title || '!' WHERE seq % 11 = 0")
    }
    // Each id's reference worked out here: one digit past what it shares with its neighbours
    // in order, and never under the minimum.
    let digits = ids.map { $0.uuidString.lowercased().filter { $0 != "-" } }.sorted()
    func shared(_ a: String, _ b: String) -> Int {
      zip(a, b).prefix { $0 == $1 }.count
    }
    var expected: [String: String] = [:]
    for (index, id) in digits.enumerated() {
      var length = IssueReference.minimumLength
      if index > 0 { length = max(length, shared(id, digits[index - 1]) + 1) }
      if index + 1 < digits.count { length = max(length, shared(id, digits[index + 1]) + 1) }
      expected[id] = String(id.prefix(length))
    }
    #expect(Set(expected.values.map(\.count)).count > 1)

    func listed(_ request: IssueRequest, limit: Int?) throws -> [String] {
      var lines: [String] = []
      try db.queue.read { conn in
        try conn.streamEncodedIssues(
          request, limit: limit, detail: true, sortChunkBytes: 8_192,
          encode: { listed, bytes in
            let issue = listed.issue
            bytes.append(
              [
                listed.reference, issue.id.uuidString, issue.title, issue.detail,
                "\(issue.priority)", "\(issue.completed)",
                "\(issue.created.timeIntervalSince1970)",
                "\(issue.modified?.timeIntervalSince1970 ?? -1)",
                issue.tags.map(\.name).joined(separator: ","),
              ].joined(separator: "|"))
          }
        ) { lines.append(String(decoding: $0, as: UTF8.self)) }
      }
      return lines
    }
    for sort in [IssueSort.default, IssueSort(field: .title, ascending: true)] {
      let all = IssueRequest(filter: .all, sort: sort, now: db.now)
      // Rare's 18 issues are under a twentieth of the 1 200: they find their own references.
      let onlyRare = IssueRequest(filter: .tag(rare.id), sort: sort, now: db.now)
      for (request, count) in [(all, 1_200), (onlyRare, 18)] {
        let whole = try listed(request, limit: nil)
        #expect(whole.count == count)
        #expect(whole == (try listed(request, limit: 10_000)))
        // Each line starts with the reference and the id.
        let wrong = whole.filter { line in
          let fields = line.split(separator: "|", maxSplits: 2)
          let id = fields[1].lowercased().filter { $0 != "-" }
          return expected[id] != String(fields[0])
        }
        #expect(wrong.isEmpty)
      }
    }
    let all = IssueRequest(filter: .all, now: db.now)
    #expect(try listed(all, limit: nil).contains { $0.contains("detail 4\nsecond line") })
    #expect(try listed(all, limit: nil).contains { $0.hasSuffix("|Bug,UI") })

    // The 36 bytes of an id held as a blob are no id either, however long the list.
    try db.queue.write {
      try $0.execute("UPDATE issues SET id = CAST(id AS BLOB) WHERE seq = 600")
    }
    for limit in [nil, 10_000] {
      #expect {
        try listed(all, limit: limit)
      } throws: { error in
        guard let error = error as? RowDecodingError, case .blob = error.found else { return false }
        return error.columnName == "id"
      }
    }
    try db.queue.write { try $0.execute("UPDATE issues SET id = 'not-an-id' WHERE seq = 600") }
    #expect {
      try listed(all, limit: nil)
    } throws: { error in
      (error as? RowDecodingError)?.columnName == "id"
        && (error as? RowDecodingError)?.found == .text("not-an-id")
    }
  }

  /// Every issue a whole list sorts is encoded before the first is delivered (so a table can
  /// measure its columns as it encodes), and an error while encoding ends the list with it.
  @Test func aWholeListIsEncodedBeforeItIsDeliveredAndStopsAtAnError() throws {
    let db = try TestDatabase()
    for index in 0..<3_000 { try db.issue("issue \(index)", daysAgo: Double(index % 50)) }
    let request = IssueRequest(filter: .all, now: db.now)
    var encoded = 0
    var encodedAtFirstDelivery: Int?
    var delivered = 0
    try db.queue.read { conn in
      try conn.streamEncodedIssues(
        request, detail: false, sortChunkBytes: 16_384,
        encode: { issue, bytes in
          encoded += 1
          bytes.append(issue.issue.title)
        }
      ) { _ in
        if encodedAtFirstDelivery == nil { encodedAtFirstDelivery = encoded }
        delivered += 1
      }
    }
    #expect(encodedAtFirstDelivery == 3_000)
    #expect(delivered == 3_000)

    // Small chunks make more runs than are merged at once: merged in two passes.
    var titles: [String] = []
    try db.queue.read { conn in
      try conn.streamEncodedIssues(
        request, detail: false, sortChunkBytes: 2_048,
        encode: { issue, bytes in bytes.append(issue.issue.title) }
      ) { titles.append(String(decoding: $0, as: UTF8.self)) }
    }
    #expect(titles == (try db.queue.read { try $0.fetchIssues(request) }).map(\.title))

    struct Refused: Error {}
    // An error while delivering ends the list there.
    var deliveries = 0
    #expect(throws: Refused.self) {
      try db.queue.read { conn in
        try conn.streamEncodedIssues(
          request, detail: false, sortChunkBytes: 16_384,
          encode: { _, _ in }
        ) { _ in
          deliveries += 1
          if deliveries == 1_000 { throw Refused() }
        }
      }
    }
    #expect(deliveries == 1_000)
    for failing in [1, 700, 3_000] {
      var seen = 0
      var deliveredBeforeError = 0
      #expect(throws: Refused.self) {
        try db.queue.read { conn in
          try conn.streamEncodedIssues(
            request, detail: false,
            sortChunkBytes: 16_384,
            encode: { _, _ in
              seen += 1
              if seen == failing { throw Refused() }
            }
          ) { _ in deliveredBeforeError += 1 }
        }
      }
      #expect(deliveredBeforeError == 0)
      #expect(seen == failing, "nothing is encoded after the error")
    }
  }
}

@Suite struct ExternalSorterTests {
  /// Keys of every length, zero bytes included, in any number of runs, come out in byte order
  /// with their payloads; an empty sorter gives nothing.
  @Test(arguments: [4 << 20, 16_384, 2_048])
  func recordsComeOutInKeyOrder(chunkBytes: Int) throws {
    var random = SplitMix64(seed: UInt64(chunkBytes))
    var records: [(key: [UInt8], payload: [UInt8])] = []
    for index in 0..<2_000 {
      let length = Int(random.next() % 12)
      let key = (0..<length).map { _ in UInt8(random.next() % 4) }
      let payload = Array("\(index)".utf8) + [UInt8](repeating: 7, count: Int(random.next() % 300))
      records.append((key, payload))
    }
    // One record larger than a run reader's buffer.
    records.append(([1, 2], [UInt8](repeating: 9, count: 300_000)))
    var out: [(key: [UInt8], payload: [UInt8])] = []
    do {
      let sorter = ExternalSorter(chunkBytes: chunkBytes)
      for record in records { try sorter.add(key: record.key, payload: record.payload) }
      try sorter.finish { key, payload in out.append((Array(key), Array(payload))) }
      // Small chunks make more runs than are merged at once: they are merged in passes.
      #expect(
        chunkBytes > 1_000_000 ? sorter.runCount == 0 : sorter.runCount > ExternalSorter.fanIn)
    }

    #expect(out.count == records.count)
    for (earlier, later) in zip(out, out.dropFirst()) {
      #expect(!later.key.lexicographicallyPrecedes(earlier.key))
    }
    let sortedIn = records.map { $0.key + [255] + $0.payload }.sorted {
      $0.lexicographicallyPrecedes($1)
    }
    let sortedOut = out.map { $0.key + [255] + $0.payload }.sorted {
      $0.lexicographicallyPrecedes($1)
    }
    #expect(sortedIn == sortedOut)
    let empty = ExternalSorter(chunkBytes: chunkBytes)
    var called = false
    try empty.finish { _, _ in called = true }
    #expect(!called)
  }

  /// Keys made by `SortKeyBytes` order as the values do: numbers as numbers, either way, and
  /// text as SQLite orders it (bytes, then length), zero bytes and all.
  @Test func keyBytesOrderAsTheValues() {
    let numbers: [Double] = [-1e300, -2.5, -1, -0.5, 0, 0.25, 1, 3, 1.7e9, 1e300]
    func key(_ value: Double, descending: Bool) -> [UInt8] {
      var bytes: [UInt8] = []
      SortKeyBytes.append(value, descending: descending, to: &bytes)
      return bytes
    }
    for (a, b) in zip(numbers, numbers.dropFirst()) {
      #expect(key(a, descending: false).lexicographicallyPrecedes(key(b, descending: false)))
      #expect(key(b, descending: true).lexicographicallyPrecedes(key(a, descending: true)))
    }
    let texts: [[UInt8]] = [
      [], [0], [0, 0], [0, 1], [1], [1, 0], [1, 0, 0], [1, 1], [0xFF], [0xFF, 0],
    ]
    func key(_ text: [UInt8], descending: Bool) -> [UInt8] {
      var bytes: [UInt8] = []
      text.withUnsafeBufferPointer {
        SortKeyBytes.append(text: $0, descending: descending, to: &bytes)
      }
      return bytes + [0x42]
    }
    for (a, b) in zip(texts, texts.dropFirst()) {
      #expect(
        key(a, descending: false).lexicographicallyPrecedes(key(b, descending: false)), "\(a) \(b)")
      #expect(
        key(b, descending: true).lexicographicallyPrecedes(key(a, descending: true)), "\(a) \(b)")
    }
  }

  /// A run that cannot be written (a full disk: /dev/full) fails with the system's reason, in
  /// words that name the temporary folder and what to do, never as an unexpected error.
  @Test func aRunThatCannotBeWrittenSaysWhy() throws {
    let full = open("/dev/full", O_WRONLY)
    try #require(full >= 0)
    defer { close(full) }
    #expect(throws: SortFileError(code: ENOSPC)) {
      try ExternalSorter.write(Array(repeating: 1, count: 4096), to: full)
    }
    let message = DocketStrings.localizer(language: "en").message(for: SortFileError(code: ENOSPC))
    #expect(message.hasPrefix("cannot sort the list in the temporary folder "), "\(message)")
    #expect(message.contains(": No space left on device. Free some space there"), "\(message)")
    // A run read back short is no matter of room.
    let short = DocketStrings.localizer(language: "en").message(for: SortFileError(code: EIO))
    #expect(short.hasSuffix(": Input/output error."), "\(short)")
  }

}
