import Database
import DocketTestSupport
import Foundation
import Testing

@testable import DocketCore

/// The tag counts are kept by triggers; these tests hold them against counts recomputed from the
/// links after every kind of write.
@Suite struct TagCountIntegrityTests {
  static func recomputed(_ db: Connection) throws -> Set<TagSummary> {
    Set(
      try db.fetchAll(
        """
        SELECT t.id, t.name, count(i.seq), coalesce(sum(i.completed = 0), 0)
        FROM tags t LEFT JOIN issue_tags l ON l.tag_seq = t.seq LEFT JOIN issues i ON i.seq = l.issue_seq
        GROUP BY t.seq
        """
      ) { row in
        TagSummary(
          tag: Tag(id: try row.get(0), name: try row.get(1)), open: try row.get(3),
          total: try row.get(2))
      })
  }

  /// Each issue's tag rows as kept on the issue, and as the links say: equal when the triggers
  /// of schema v3 hold.
  static func tagLists(_ db: Connection) throws -> (
    kept: [Int64: Set<Int64>], links: [Int64: Set<Int64>]
  ) {
    var kept: [Int64: Set<Int64>] = [:]
    try db.forEachRow("SELECT seq, tag_seqs FROM issues") { row in
      kept[try row.get(0)] = Set(
        try row.get(1, as: String.self).split(separator: ",").compactMap { Int64($0) })
    }
    var links: [Int64: Set<Int64>] = kept.mapValues { _ in [] }
    try db.forEachRow("SELECT issue_seq, tag_seq FROM issue_tags") { row in
      links[try row.get(0), default: []].insert(try row.get(1))
    }
    return (kept, links)
  }

  @Test func countsStayTrueThroughRandomEdits() throws {
    let db = try TestDatabase()
    var random = SplitMix64(seed: 99)
    var tags: [Tag] = []
    var issues: [Issue] = []
    for step in 0..<400 {
      let roll = Int(random.next() % 100)
      try db.queue.write { conn in
        switch roll {
        case 0..<10:
          tags.append(try conn.createTag(named: "tag \(step)", id: db.uuids.make()).tag)
        case 10..<40:
          let chosen = tags.filter { _ in random.next() % 3 == 0 }
          let issue = Issue(
            id: db.uuids.make(), title: "issue \(step)", completed: random.next() % 4 == 0,
            created: db.now,
            tags: chosen)
          try conn.insertIssue(issue)
          issues.append(issue)
        case 40..<60 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          try conn.setCompleted(random.next() % 2 == 0, issueIDs: [issues[index].id])
        case 60..<80 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          guard var issue = try conn.fetchIssue(id: issues[index].id) else { return }
          issue.tags = tags.filter { _ in random.next() % 3 == 0 }
          issue.completed = random.next() % 2 == 0
          try conn.saveIssue(issue)
        case 80..<90 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          try conn.deleteIssues([issues.remove(at: index).id])
        case 90..<95 where !tags.isEmpty:
          let index = Int(random.next() % UInt64(tags.count))
          try conn.deleteTag(id: tags.remove(at: index).id)
        default:
          break
        }
      }
      let kept = try db.queue.read { Set(try $0.tagSummaries()) }
      let truth = try db.queue.read { try Self.recomputed($0) }
      #expect(kept == truth, "tag counts drifted at step \(step)")
      // The Open and Completed badges, kept by triggers too.
      let badges = try db.queue.read { try $0.filterCounts(now: db.now) }
      let counted = try db.queue.read { conn in
        (
          try conn.fetchOne("SELECT count(*) FROM issues WHERE completed = 0", as: Int.self),
          try conn.fetchOne("SELECT count(*) FROM issues WHERE completed = 1", as: Int.self)
        )
      }
      #expect(badges.open == counted.0 && badges.completed == counted.1, "step \(step)")
      let lists = try db.queue.read { try Self.tagLists($0) }
      #expect(lists.kept == lists.links, "tag lists drifted at step \(step)")
      if kept != truth || badges.open != counted.0 || lists.kept != lists.links { return }
    }
    #expect(
      try db.queue.read { try $0.fetchOne("SELECT count(*) FROM issue_tags", as: Int.self) }! > 0)
  }

  /// Recent's badge adds up whole days kept by triggers and counts the rest of the day its week
  /// begins in: it must equal counting the week on the activity index, after every kind of write
  /// (adds, edits that stamp the time, completions, deletions, a bulk insert), for dates on and
  /// a hair either side of midnight, before 1970 and in the future, and a week beginning
  /// anywhere in a day.
  @Test func recentCountsStayTrueThroughRandomEdits() throws {
    let db = try TestDatabase()
    let day = TestDatabase.day
    let midnight = (db.now.timeIntervalSince1970 / day).rounded(.down) * day
    let nows = [
      db.now, Date(timeIntervalSince1970: midnight + 7 * day),
      Date(timeIntervalSince1970: midnight + 7 * day - 1e-6),
      Date(timeIntervalSince1970: midnight + 7 * day + 0.5),
      Date(timeIntervalSince1970: midnight + 2 * day + 43_200),
    ]
    // Moments around the midnights of the last ten days and the next two, and odd ones.
    let offsets: [Double] = [-1e-6, 0, 1e-6, 0.5, 43_200]
    var moments: [Double] = [-5_000, -86_400.5, 0, 1, db.now.timeIntervalSince1970]
    for back in -2...10 {
      moments += offsets.map { midnight - Double(back) * day + $0 }
    }
    func recomputedDays(_ conn: Connection) throws -> [String] {
      try conn.fetchAll(
        """
        SELECT completed, CAST(activity AS INTEGER) / 86400 AS day, count(*) FROM issues
        GROUP BY 1, 2 ORDER BY 1, 2
        """
      ) { row in "\(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))" }
    }
    func keptDays(_ conn: Connection) throws -> [String] {
      try conn.fetchAll(
        """
        SELECT completed, day, issue_count FROM activity_days WHERE issue_count != 0
        ORDER BY 1, 2
        """
      ) { row in "\(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))" }
    }
    var random = SplitMix64(seed: 17)
    var issues: [UUID] = []
    for step in 0..<300 {
      let roll = Int(random.next() % 100)
      let moment = Date(timeIntervalSince1970: moments[Int(random.next() % UInt64(moments.count))])
      try db.queue.write { conn in
        switch roll {
        case 0..<40:
          let issue = Issue(
            id: db.uuids.make(), title: "issue \(step)", completed: random.next() % 3 == 0,
            created: moment, modified: random.next() % 2 == 0 ? nil : moment)
          try conn.insertIssue(issue)
          issues.append(issue.id)
        case 40..<55 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          _ = try conn.setCompleted(random.next() % 2 == 0, issueIDs: [issues[index]])
        case 55..<70 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          try conn.execute(
            "UPDATE issues SET created = ?, modified = ? WHERE id = ?",
            [moment, random.next() % 2 == 0 ? nil : moment, issues[index]])
        case 70..<80 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          guard var issue = try conn.fetchIssue(id: issues[index]) else { return }
          issue.title += " edited"
          try conn.saveIssue(issue)
        case 80..<90 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          _ = try conn.deleteIssues([issues.remove(at: index)])
        case 90..<92:
          var rows = (0..<40).map { index in
            BulkIssueRow(
              id: db.uuids.make().uuidString.lowercased(), title: "bulk \(step) \(index)",
              detail: "", priority: 0, completed: index % 4 == 0,
              created: moments[(step + index) % moments.count],
              modified: index % 3 == 0 ? nil : moments[(step + 2 * index) % moments.count],
              tagRows: [])
          }
          try conn.insertIssuesInBulk(&rows, recordingCreations: false)
        default:
          break
        }
      }
      let kept = try db.queue.read { try keptDays($0) }
      let truth = try db.queue.read { try recomputedDays($0) }
      #expect(kept == truth, "days drifted at step \(step)")
      for now in nows {
        let counts = try db.queue.read { try $0.filterCounts(now: now) }
        let indexed = try db.queue.read {
          try $0.filterCountsOnTheIndex(since: now.addingTimeInterval(-IssueFilter.recentWindow))
        }
        #expect(counts == indexed, "step \(step), now \(now.timeIntervalSince1970)")
        if counts != indexed { return }
      }
      if kept != truth { return }
    }
    let recent = try db.queue.read { try $0.filterCounts(now: nows[1]) }
    #expect(recent.recentOpen > 0 && recent.recentCompleted > 0)
  }

  /// Completing an issue fires the day triggers twice (the completion, then the stamp of its
  /// time), in the order the triggers were made in, which a bulk insert makes again: the issue
  /// moves from its open day to today's completed issues once, whichever order, also from a day
  /// on which nothing was completed.
  @Test func aCompletionAfterABulkInsertMovesTheIssueOnce() throws {
    let db = try TestDatabase()
    let id = db.uuids.make()
    var rows = [
      BulkIssueRow(
        id: id.uuidString.lowercased(), title: "imported", detail: "", priority: 0,
        completed: false, created: db.now.timeIntervalSince1970 - 3 * TestDatabase.day,
        modified: nil, tagRows: [])
    ]
    try db.queue.write { try $0.insertIssuesInBulk(&rows, recordingCreations: true) }
    try db.queue.write { _ = try $0.setCompleted(true, issueIDs: [id]) }
    let days = try db.queue.read { conn in
      try conn.fetchAll(
        "SELECT completed, day, issue_count FROM activity_days WHERE issue_count != 0"
      ) { row in [try row.get(0, as: Int.self), try row.get(1), try row.get(2)] }
    }
    let today = Int(db.now.timeIntervalSince1970) / 86_400
    #expect(days == [[1, today, 1]])
    let counts = try db.queue.read { try $0.filterCounts(now: db.now) }
    #expect(counts.recentOpen == 0 && counts.recentCompleted == 1)
  }

  /// A database of the first schema gets its badges counted once, when it is migrated.
  @Test func migratingCountsTheIssuesAlreadyThere() throws {
    let folder = try TemporaryDirectory(prefix: "docket-migrate")
    let path = folder.path("v1.sqlite")
    let firstSchema = Migrator(
      applicationID: Schema.applicationID, migrations: [Schema.migrator.migrations[0]])
    let old = try DatabaseQueue(path: path, migrator: firstSchema) { connection in
      try DocketDatabase.registerFunctions(connection) { Date() }
    }
    try old.write { db in
      let tags = try ["Bug", "UI"].map { try db.createTag(named: $0, id: UUID()).tag }
      for index in 0..<7 {
        try db.insertIssue(
          Issue(
            id: UUID(), title: "old \(index)", completed: index % 3 == 0,
            created: Date().addingTimeInterval(-Double(index) * 2 * TestDatabase.day),
            tags: Array(tags.prefix(index % 3))))
      }
      // The first Docket stored show-completed on, its default, with every setting it saved.
      try db.saveSettings(DeviceSettings(showCompleted: true))
    }
    let migrated = try DocketDatabase.open(path: path)
    let counts = try migrated.read { try $0.filterCounts(now: Date()) }
    #expect(counts.open == 4 && counts.completed == 3)
    // Recent's days are counted once too: made 0, 2, 4 and 6 days ago, the first and the fourth
    // completed.
    #expect(counts.recentOpen == 2 && counts.recentCompleted == 2)
    // Show completed starts off after the upgrade, as in the seed.
    #expect(try migrated.read { try $0.fetchSettings() }.showCompleted == false)
    #expect(
      try migrated.read { try $0.fetchOne("PRAGMA user_version", as: Int.self) }
        == Schema.migrator.migrations.last?.version)
    // The six sort indexes end on the tag rows (schema 7), so a page of a tag reads them there.
    let sortIndexes = try migrated.read {
      try $0.fetchAll("SELECT sql FROM sqlite_master WHERE name LIKE 'issues_by_%'") {
        try $0.get(0, as: String.self)
      }
    }
    #expect(sortIndexes.count == 6)
    #expect(sortIndexes.allSatisfy { $0.hasSuffix(", tag_seqs)") }, "\(sortIndexes)")
    // Each issue's tags are gathered onto it once, when it is migrated, and read from there.
    let lists = try migrated.read { try Self.tagLists($0) }
    #expect(lists.kept == lists.links)
    #expect(lists.kept.values.map(\.count).sorted() == [0, 0, 0, 1, 1, 2, 2])
    let listed = try migrated.read {
      try $0.fetchIssues(IssueRequest(filter: .all, now: Date())).map { $0.tags.map(\.name) }
    }
    #expect(listed.filter { $0 == ["Bug", "UI"] }.count == 2)
  }

  @Test func deletingAnIssueNotifiesObserversOfTagCounts() async throws {
    let db = try TestDatabase()
    let bug = try db.tag("Bug")
    let issue = try db.issue("tagged", tags: [bug])
    var counts = db.queue.observe { try $0.tagSummaries() }.makeAsyncIterator()
    #expect(try await counts.next() == [TagSummary(tag: bug, open: 1, total: 1)])
    try db.queue.write { try $0.deleteIssues([issue.id]) }
    #expect(try await counts.next() == [TagSummary(tag: bug, open: 0, total: 0)])
  }

  /// An issue with thousands of tags keeps its list a link at a time: tagged, some taken off
  /// from the middle, the first and the last, the list is still the links.
  @Test func thousandsOfTagsOnOneIssue() throws {
    let db = try TestDatabase()
    let tags = try db.queue.write { conn in
      try (0..<3_000).map { try conn.createTag(named: "t\($0)", id: db.uuids.make()).tag }
    }
    var issue = Issue(id: db.uuids.make(), title: "Many", created: db.now, tags: tags)
    try db.queue.write { try $0.insertIssue(issue) }
    issue.tags = tags.enumerated().filter {
      $0.offset % 7 != 3 && $0.offset != 0 && $0.offset != 2_999
    }
    .map(\.element)
    try db.queue.write { _ = try $0.saveIssue(issue) }
    let lists = try db.queue.read { try Self.tagLists($0) }
    #expect(lists.kept == lists.links)
    #expect(lists.kept.values.first?.count == issue.tags.count)
    let stored = try db.queue.read { try $0.fetchIssue(id: issue.id) }
    #expect(Set(stored?.tags.map(\.id) ?? []) == Set(issue.tags.map(\.id)))
  }
}
