import Database
import Foundation
import Testing

@testable import DocketCore

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
