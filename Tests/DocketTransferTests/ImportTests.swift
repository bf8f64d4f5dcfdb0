import Database
import DocketCore
import Foundation
import Testing

@testable import DocketTransfer

/// Imports write all of a file or nothing, match by id, and leave the database as its own writes
/// would have: counts, tag lists, the full-text index and the triggers all as before.
@Suite struct ImportTests {
  static let start = Date(timeIntervalSince1970: 1_764_489_600.123_456_7)

  /// A database of `count` issues with every kind of field: unicode, empty strings, many tags on
  /// one issue, completed and open, edited and not.
  static func populated(_ count: Int, manyTags: Int = 40) throws -> DatabaseQueue {
    let queue = try DocketDatabase.inMemory(now: { start.addingTimeInterval(99) })
    try queue.write { db in
      var tags: [DocketCore.Tag] = []
      for index in 0..<manyTags {
        tags.append(
          try db.createTag(named: index == 0 ? "UI Design" : "Tag ✓ \(index)", id: UUID()).tag)
      }
      for index in 0..<count {
        let issue = Issue(
          id: UUID(), title: index % 7 == 0 ? "" : "Issue \(index) — Ärger 日本 🐛",
          detail: index % 5 == 0 ? "" : "Line one\nline \"two\"\t\\ \u{1}",
          priority: Priority(rawValue: index % 3)!, completed: index % 4 == 0,
          created: start.addingTimeInterval(Double(index) * 0.37),
          modified: index % 3 == 0 ? nil : start.addingTimeInterval(Double(index) + 0.001),
          tags: index == 1 ? tags : Array(tags.prefix(index % 4)))
        try db.insertIssue(issue)
      }
    }
    return queue
  }

  static func export(_ queue: DatabaseQueue, _ format: TransferFormat = .docket) throws -> [UInt8] {
    let written = Written()
    var output = OutputBytes(pieceSize: 4096, write: { written.text += $0 })
    try queue.read { db in
      try Exporter.write(format, from: db, exported: start, to: &output)
    }
    output.flush()
    return Array(written.text.utf8)
  }

  /// What an export handed on, piece by piece.
  final class Written: @unchecked Sendable { var text = "" }

  /// Everything a person could see of a database, by id: issues with their fields and tags, the
  /// tags with their counts, the badges, and the search index's answers.
  static func contents(_ queue: DatabaseQueue) throws -> [String] {
    try queue.read { db in
      var lines: [String] = []
      try db.forEachIssueForExport { issue in
        lines.append(
          "\(issue.id) \(issue.title)|\(issue.detail)|\(issue.priority)|\(issue.completed)|"
            + "\(issue.created.timeIntervalSince1970)|\(String(describing: issue.modified?.timeIntervalSince1970))|"
            + issue.tags.map { "\($0.id):\($0.name)" }.joined(separator: ","))
      }
      try db.forEachRow(
        "SELECT id, name, name_key, open_count, total_count FROM tags ORDER BY id"
      ) { row in
        lines.append((0..<5).map { "\(row.value(at: $0))" }.joined(separator: "|"))
      }
      try db.forEachRow("SELECT open_count, completed_count FROM issue_counts") { row in
        lines.append("counts \(row.value(at: 0)) \(row.value(at: 1))")
      }
      try db.forEachRow(
        "SELECT completed, day, issue_count FROM activity_days WHERE issue_count != 0 ORDER BY 1, 2"
      ) { row in
        lines.append("day \(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))")
      }
      try db.forEachRow(
        "SELECT i.id, i.title_key, i.completed FROM issues i ORDER BY i.id"
      ) { row in lines.append("keys \(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))") }
      try db.forEachRow(
        """
        SELECT i.id, t.id, l.issue_open FROM issue_tags l JOIN issues i ON i.seq = l.issue_seq
        JOIN tags t ON t.seq = l.tag_seq ORDER BY i.id, t.id
        """
      ) { row in lines.append("link \(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))") }
      for word in ["ärger", "日本", "line", "two", "issue"] {
        let found = try db.fetchAll(
          "SELECT i.id FROM issue_fts JOIN issues i ON i.seq = issue_fts.rowid WHERE issue_fts MATCH ? ORDER BY i.id",
          [word]
        ) { try $0.get(0, as: String.self) }
        lines.append("search \(word): \(found.count) \(found.first ?? "")")
      }
      return lines
    }
  }

  static func assertSound(_ queue: DatabaseQueue, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    try queue.read { db in
      #expect(
        try db.fetchOne("PRAGMA integrity_check", as: String.self) == "ok",
        sourceLocation: sourceLocation)
      // The tag lists kept on the issues are the links (in no particular order).
      var kept: [Int64: Set<Int64>] = [:]
      try db.forEachRow("SELECT seq, tag_seqs FROM issues") { row in
        kept[try row.get(0, as: Int64.self)] = Set(
          try row.get(1, as: String.self).split(separator: ",").compactMap { Int64($0) })
      }
      var links: [Int64: Set<Int64>] = kept.mapValues { _ in [] }
      try db.forEachRow("SELECT issue_seq, tag_seq FROM issue_tags") { row in
        links[try row.get(0, as: Int64.self), default: []].insert(try row.get(1, as: Int64.self))
      }
      #expect(kept == links, "tag lists", sourceLocation: sourceLocation)
      let wrongCounts = try db.fetchOne(
        """
        SELECT count(*) FROM tags WHERE total_count != (SELECT count(*) FROM issue_tags WHERE tag_seq = tags.seq)
          OR open_count != (SELECT count(*) FROM issue_tags l JOIN issues i ON i.seq = l.issue_seq
            WHERE l.tag_seq = tags.seq AND i.completed = 0)
        """, as: Int.self)
      #expect(wrongCounts == 0, "tag counts", sourceLocation: sourceLocation)
      let badges = try db.fetchOne(
        """
        SELECT count(*) FROM issue_counts WHERE open_count != (SELECT count(*) FROM issues WHERE completed = 0)
          OR completed_count != (SELECT count(*) FROM issues WHERE completed = 1)
        """, as: Int.self)
      #expect(badges == 0, "badges", sourceLocation: sourceLocation)
      // Every trigger and index is back, as the migrations made them.
      let schema =
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'index') ORDER BY name"
      func objects(_ connection: Connection) throws -> [String] {
        try connection.fetchAll(schema) { row in
          "\(row.value(at: 0)) \(row.value(at: 1)) \(row.value(at: 2))"
        }
      }
      // Each table's triggers in the order they were made: the order they fire in.
      let order =
        "SELECT tbl_name || ' ' || name FROM sqlite_master WHERE type = 'trigger' ORDER BY tbl_name, rowid"
      func triggerOrder(_ connection: Connection) throws -> [String] {
        try connection.fetchAll(order) { try $0.get(0, as: String.self) }
      }
      let empty = try DocketDatabase.inMemory(now: { Date() })
      let fresh = try empty.read { try objects($0) }
      #expect(try objects(db) == fresh, "triggers and indexes", sourceLocation: sourceLocation)
      #expect(fresh.count > 20)
      #expect(
        try triggerOrder(db) == empty.read { try triggerOrder($0) }, "trigger order",
        sourceLocation: sourceLocation)
      // The full-text index gathers words in memory as it usually does (a bulk import sets its
      // buffer larger while it builds, and back).
      let hashSize = try db.fetchOne(
        "SELECT v FROM issue_fts_config WHERE k = 'hashsize'", as: Int.self)
      #expect(hashSize == nil || hashSize == 1 << 20, sourceLocation: sourceLocation)
    }
    try queue.write { db in
      try db.execute("INSERT INTO issue_fts (issue_fts, rank) VALUES ('integrity-check', 1)")
    }
  }

  @Test(arguments: [12, 1_200])
  func docketsOwnFormatRoundTrips(count: Int) throws {
    let original = try Self.populated(count)
    let file = try Self.export(original)
    let copy = try DocketDatabase.inMemory(now: { Date() })
    let batch = try TransferReader.read(file)
    let summary = try copy.importBatch(batch)
    #expect(summary.createdIssues == count)
    #expect(summary.createdTags == 40)
    #expect(try Self.contents(copy) == Self.contents(original))
    try Self.assertSound(copy)
    // Exported again: the same bytes.
    #expect(try Self.export(copy) == file)
    // Into a database that has it all already: nothing changes, nothing is duplicated.
    let again = try copy.importBatch(batch)
    #expect(again.createdIssues == 0 && again.updatedIssues == 0 && again.unchangedIssues == count)
    #expect(again.createdTags == 0)
    #expect(try Self.contents(copy) == Self.contents(original))
  }

  /// A batch handed to an import is taken whole: the giver keeps no issues (so the import can
  /// let them go as it writes them), and the taker has them all.
  @Test func aBatchIsTakenWhole() throws {
    let batch = try TransferReader.read(try Self.export(try Self.populated(30)))
    var giver = batch
    let taken = giver.take()
    #expect(giver.issues.isEmpty)
    #expect(giver.format == batch.format)
    #expect(taken == batch)
    #expect(taken.issues.count == 30)
  }

  @Test func aSecondImportUpdatesByID() throws {
    let queue = try Self.populated(3)
    var batch = try TransferReader.read(try Self.export(queue))
    batch.issues[0].title = "Changed in the file"
    batch.issues[0].tags = [IncomingTag(name: "brand new")]
    batch.issues[1].completed.toggle()
    let summary = try queue.importBatch(batch)
    #expect(summary.updatedIssues == 2 && summary.unchangedIssues == 1 && summary.createdTags == 1)
    let stored = try queue.read { try $0.fetchIssue(id: batch.issues[0].id) }
    #expect(stored?.title == "Changed in the file")
    #expect(stored?.tags.map(\.name) == ["brand new"])
    // The file's dates stand: an import is not an edit made now.
    #expect(stored?.modified == batch.issues[0].modified)
    try Self.assertSound(queue)
  }

  /// Whether an import of `count` issues keeps the full-text index once after its edits
  /// (`deferringTextIndex`) rather than row by row: both are tested to end the same.
  static func deferred(_ count: Int) -> Bool { count >= Connection.deferredTextIndexThreshold }

  /// A re-import that edits issues' text, given in no particular order: the search index finds
  /// the new words and none of the old (its own check compares it with every issue's text), and
  /// its trigger is back for the edits after.
  @Test(arguments: [40, Connection.deferredTextIndexThreshold + 20])
  func editedTextIsSearchedAsEdited(count: Int) throws {
    let queue = try Self.populated(count)
    var batch = try TransferReader.read(try Self.export(queue))
    batch.issues.reverse()
    var renamed: Set<UUID> = []
    for index in stride(from: 0, to: batch.issues.count, by: 3) {
      batch.issues[index].title = "Zebra \(index) crossing"
      batch.issues[index].detail = index % 2 == 0 ? "" : "Okapi notes"
      renamed.insert(batch.issues[index].id)
    }
    // Priority alone, text as it was.
    batch.issues[1].priority = batch.issues[1].priority == .high ? .low : .high
    final class Heard { var steps: [BulkStep] = [] }
    let heard = Heard()
    let summary = try queue.importBatch(batch, step: { heard.steps.append($0) })
    #expect(summary.updatedIssues >= renamed.count + 1)
    // The index's catching up is said, as a bulk write says its own.
    #expect(heard.steps == (Self.deferred(count) ? [.searchIndex, .saving] : [.saving]))
    func found(_ word: String) throws -> Set<UUID> {
      try queue.read { db in
        Set(
          try db.fetchAll(
            "SELECT i.id FROM issue_fts JOIN issues i ON i.seq = issue_fts.rowid WHERE issue_fts MATCH ?",
            [word]
          ) { try $0.get(0, as: UUID.self) })
      }
    }
    #expect(try found("zebra") == renamed)
    #expect(try found("zeb*") == renamed)
    #expect(try found("okapi").count == renamed.count / 2)
    // "Issue 3 — Ärger …" and its kind are gone from the renamed ones, kept by the others.
    #expect(try found("ärger").isDisjoint(with: renamed))
    #expect(try !found("ärger").isEmpty)
    let keys = try queue.read { db in
      try db.fetchAll("SELECT title, title_key FROM issues") {
        (try $0.get(0, as: String.self), try $0.get(1, as: String.self))
      }
    }
    #expect(keys.allSatisfy { SortKey.fold($0.0) == $0.1 })
    try Self.assertSound(queue)
    // An edit after the import is indexed as edits are.
    let issue = try #require(try queue.read { try $0.fetchIssue(id: batch.issues[0].id) })
    var edited = issue
    edited.title = "Quokka"
    _ = try queue.write { try $0.saveIssue(edited) }
    #expect(try found("quokka") == [issue.id])
    #expect(try found("zebra") == renamed.subtracting([issue.id]))
    try Self.assertSound(queue)
  }

  /// The file's `modified` is kept with an edit, whether it is the stored one (which the
  /// database would stamp over) or a new one; the changes recorded for sync carry it too.
  @Test(arguments: [false, true])
  func anEditKeepsTheFilesModified(newDate: Bool) throws {
    let queue = try Self.populated(3)
    var batch = try TransferReader.read(try Self.export(queue))
    batch.issues[2].title = "Edited in the file"
    if newDate { batch.issues[2].modified = Self.start.addingTimeInterval(86_400.25) }
    let expected = batch.issues[2].modified
    _ = try queue.importBatch(batch)
    let stored = try queue.read { try $0.fetchIssue(id: batch.issues[2].id) }
    #expect(stored?.title == "Edited in the file")
    #expect(stored?.modified == expected)
    let recorded = try queue.read { db in
      try db.fetchAll(
        "SELECT modified FROM changes WHERE row_id = ? AND field = 'title'",
        [batch.issues[2].id]
      ) { try $0.get(0, as: Double?.self) }
    }
    #expect(recorded == [expected?.timeIntervalSince1970])
  }

  /// An import that fails among its edits leaves nothing: no edit, the index's triggers back, no
  /// temporary trigger or table on the connection; the next import edits as usual.
  @Test(arguments: [8, Connection.deferredTextIndexThreshold])
  func aFailureAmongTheEditsLeavesNothing(count: Int) throws {
    let queue = try Self.populated(count)
    try queue.write { db in
      try db.execute(
        """
        CREATE TRIGGER refuse BEFORE UPDATE OF title ON issues WHEN new.title = 'Refused'
        BEGIN SELECT RAISE(ABORT, 'refused'); END
        """)
    }
    let before = try Self.contents(queue)
    var batch = try TransferReader.read(try Self.export(queue))
    for index in batch.issues.indices { batch.issues[index].title = "Edited \(index)" }
    batch.issues[5].title = "Refused"
    #expect(throws: (any Error).self) { try queue.importBatch(batch) }
    #expect(try Self.contents(queue) == before)
    let temporary = try queue.withConnection {
      try $0.fetchOne("SELECT count(*) FROM sqlite_temp_master", as: Int.self)
    }
    #expect(temporary == 0)
    try queue.write { try $0.execute("DROP TRIGGER refuse") }
    try Self.assertSound(queue)
    batch.issues[5].title = "Edited 5"
    #expect(try queue.importBatch(batch).updatedIssues == count)
    try Self.assertSound(queue)
  }

  /// A database whose search index has lost a trigger (dropped by hand) refuses a large import
  /// with an error that says so, instead of ending the program, and keeps what it had.
  @Test func aDatabaseWithoutTheIndexsTriggersRefusesALargeImport() throws {
    let queue = try Self.populated(Connection.deferredTextIndexThreshold)
    try queue.write { try $0.execute("DROP TRIGGER issues_after_delete") }
    let before = try Self.contents(queue)
    var batch = try TransferReader.read(try Self.export(queue))
    for index in batch.issues.indices { batch.issues[index].title = "Edited \(index)" }
    #expect {
      try queue.importBatch(batch)
    } throws: { error in
      (error as? SQLiteError)?.message.contains("triggers are missing") == true
    }
    #expect(try Self.contents(queue) == before)
  }

  /// A dry run that would edit issues' text leaves the index, the trigger and the issues as they
  /// were.
  @Test(arguments: [12, Connection.deferredTextIndexThreshold])
  func aDryRunOfEditedTextLeavesAll(count: Int) throws {
    let queue = try Self.populated(count)
    let before = try Self.contents(queue)
    var batch = try TransferReader.read(try Self.export(queue))
    for index in batch.issues.indices { batch.issues[index].title = "Renamed \(index)" }
    let summary = try queue.importBatch(batch, dryRun: true)
    #expect(summary.updatedIssues == count)
    // Only the priority: nothing for the index to do, and nothing said of it.
    var priorities = try TransferReader.read(try Self.export(queue))
    priorities.issues[0].priority = priorities.issues[0].priority == .high ? .low : .high
    final class Heard { var steps: [BulkStep] = [] }
    let heard = Heard()
    #expect(
      try queue.importBatch(priorities, dryRun: true, step: { heard.steps.append($0) })
        .updatedIssues == 1)
    #expect(heard.steps.isEmpty)
    #expect(try Self.contents(queue) == before)
    try Self.assertSound(queue)
  }

  @Test func tagsMatchByNameIgnoringCase() throws {
    let queue = try DocketDatabase.inMemory(now: { Date() })
    let bug = try queue.write { try $0.createTag(named: "Bug", id: UUID()).tag }
    var batch = IncomingBatch(format: .taskwarrior)
    batch.issues = [
      IncomingIssue(
        id: UUID(), title: "a", created: Self.start,
        tags: [IncomingTag(name: "bug"), IncomingTag(name: "  ")]),
      IncomingIssue(
        id: UUID(), title: "b", created: Self.start,
        tags: [IncomingTag(name: "BUG"), IncomingTag(name: "new")]),
    ]
    let summary = try queue.importBatch(batch)
    #expect(summary.createdTags == 1)
    let tags = try queue.read { try $0.fetchTags() }
    #expect(tags.map(\.name).sorted() == ["Bug", "new"])
    #expect(try queue.read { try $0.fetchIssue(id: batch.issues[0].id) }?.tags == [bug])
  }

  /// Imports `batch` in parts too small to be written in bulk.
  static func importRowByRow(_ batch: IncomingBatch, into queue: DatabaseQueue) throws {
    for chunk in stride(from: 0, to: batch.issues.count, by: Connection.bulkThreshold - 1) {
      var part = batch
      part.issues = Array(
        batch.issues[chunk..<min(chunk + Connection.bulkThreshold - 1, batch.issues.count)])
      _ = try queue.importBatch(part)
    }
  }

  /// Bulk and row by row end in the same database: the same file into two databases, one large
  /// enough for bulk and one not, compared issue by issue.
  @Test func bulkWritesWhatRowByRowWrites() throws {
    let source = try Self.populated(Connection.bulkThreshold + 50)
    let batch = try TransferReader.read(try Self.export(source))
    let bulk = try DocketDatabase.inMemory(now: { Date() })
    _ = try bulk.importBatch(batch)
    let rowByRow = try DocketDatabase.inMemory(now: { Date() })
    try Self.importRowByRow(batch, into: rowByRow)
    #expect(try Self.contents(bulk) == Self.contents(rowByRow))
    try Self.assertSound(bulk)
    try Self.assertSound(rowByRow)
  }

  /// Into a database that already holds issues, bulk writes what row by row writes, whether
  /// the sort indexes are built again after the rows (a database under a third of the import's
  /// size) or kept while the rows go in (a larger one).
  @Test(arguments: [100, 300])
  func bulkIntoAHeldDatabaseWritesWhatRowByRowWrites(held: Int) throws {
    let base = try Self.export(Self.populated(held, manyTags: 5))
    let batch = try TransferReader.read(
      try Self.export(Self.populated(Connection.bulkThreshold + 100)))
    let bulk = try DocketDatabase.inMemory(now: { Date() })
    let rowByRow = try DocketDatabase.inMemory(now: { Date() })
    for queue in [bulk, rowByRow] {
      _ = try queue.importBatch(try TransferReader.read(base))
    }
    // Which way the rows went in, as the write says it: the sort orders built again or kept.
    final class Heard { var steps: [BulkStep] = [] }
    let heard = Heard()
    _ = try bulk.importBatch(batch, step: { heard.steps.append($0) })
    let rebuilt = held * 3 < batch.issues.count
    #expect(heard.steps.contains(.sortIndexes) == rebuilt, "\(heard.steps), held \(held)")
    try Self.importRowByRow(batch, into: rowByRow)
    #expect(try Self.contents(bulk) == Self.contents(rowByRow))
    try Self.assertSound(bulk)
    try Self.assertSound(rowByRow)
  }

  /// A bulk write says each step after its rows, in order; the sort indexes only where it
  /// builds them again; a write row by row has only the commit; a dry run has no commit.
  @Test func aBulkWriteSaysItsSteps() throws {
    let batch = try TransferReader.read(
      try Self.export(Self.populated(Connection.bulkThreshold + 100)))
    final class Heard { var steps: [BulkStep] = [] }
    func steps(into queue: DatabaseQueue, _ batch: IncomingBatch) throws -> [BulkStep] {
      let heard = Heard()
      _ = try queue.importBatch(batch, step: { heard.steps.append($0) })
      return heard.steps
    }
    let empty = try DocketDatabase.inMemory(now: { Date() })
    #expect(try steps(into: empty, batch) == [.searchIndex, .sortIndexes, .history, .saving])
    let again = try TransferReader.read(
      try Self.export(Self.populated(Connection.bulkThreshold + 100)))
    #expect(try steps(into: empty, again) == [.searchIndex, .history, .saving])
    var few = batch
    few.issues = Array(
      try TransferReader.read(try Self.export(Self.populated(5))).issues)
    #expect(try steps(into: empty, few) == [.saving])
    // A dry run saves nothing.
    let heard = Heard()
    let more = try TransferReader.read(
      try Self.export(Self.populated(Connection.bulkThreshold + 100)))
    _ = try empty.importBatch(more, dryRun: true, step: { heard.steps.append($0) })
    #expect(heard.steps == [.searchIndex, .history])
  }

  /// A bulk import records each issue's links after the issue, in the issues' order, even where
  /// the database's statistics (`ANALYZE`) say it has few tags: a device that reads the history
  /// a package at a time finds an issue and its links together. Planned from those statistics,
  /// the links were read a tag at a time instead, each tag's issues across the whole import.
  @Test func linksAreRecordedInTheIssuesOrderWhateverTheStatistics() throws {
    // `ANALYZE` on the empty database makes the table of statistics, and no statistics are ever
    // read for the issues (the benchmark's database has none), so the planner takes them to be
    // many. The statistics written are those of the benchmark's database: 30 tags, each on
    // 4 813 of 144 388 links. Enough issues are held for the indexes to be kept, their
    // statistics with them.
    let queue = try DocketDatabase.inMemory(now: { Date() })
    try queue.write { try $0.execute("ANALYZE") }
    _ = try queue.importBatch(
      try TransferReader.read(try Self.export(Self.populated(Connection.bulkThreshold))))
    try queue.write { db in
      try db.execute("DELETE FROM sqlite_stat1")
      try db.execute(
        """
        INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
          ('tags', 'sqlite_autoindex_tags_1', '30 1'),
          ('issue_tags', 'issue_tags_by_tag', '144388 4813 1'),
          ('issue_tags', 'issue_tags', '144388 2 1')
        """)
      // Read again by the planner.
      try db.execute("ANALYZE sqlite_schema")
    }
    var batch = IncomingBatch(format: .docket)
    batch.issues = (0..<(Connection.bulkThreshold + 100)).map { index in
      IncomingIssue(
        id: UUID(), title: "Issue \(index)", created: Self.start,
        tags: (0..<4).map { IncomingTag(name: "tag \((index + $0 * 7) % 60)") })
    }
    let held = try queue.read { try $0.fetchOne("SELECT max(seq) FROM issues", as: Int64.self) }
    _ = try queue.importBatch(batch)
    let order = try queue.read { db in
      try db.fetchAll(
        """
        SELECT i.seq FROM changes c JOIN issues i ON i.id = c.row_id
        WHERE c.entity = 'link' AND i.seq > ? ORDER BY c.seq
        """, [held ?? 0]
      ) { try $0.get(0, as: Int64.self) }
    }
    #expect(order.count == batch.issues.count * 4)
    let outOfOrder = zip(order, order.dropFirst()).filter { $0 > $1 }.count
    #expect(outOfOrder == 0, "links recorded out of the issues' order")
  }

  /// An import says how many of the file's issues it has done as it goes: the known ones as
  /// they are brought up to date, then the new ones as they are written; never going back.
  @Test func knownIssuesAreCountedAsTheyAreBroughtUpToDate() throws {
    let queue = try Self.populated(2_500, manyTags: 3)
    var batch = try TransferReader.read(try Self.export(queue))
    for index in batch.issues.indices { batch.issues[index].title += " (edited)" }
    // More new issues than a thousand, before most of the known ones: the count of those done
    // leaves the new ones out.
    let new = try TransferReader.read(try Self.export(Self.populated(2_000, manyTags: 3)))
    batch.issues.insert(contentsOf: new.issues, at: 500)
    final class Heard { var counts: [Int] = [] }
    let heard = Heard()
    let summary = try queue.importBatch(batch, progress: { heard.counts.append($0) })
    #expect(summary.updatedIssues == 2_500 && summary.createdIssues == 2_000)
    let known = heard.counts.prefix { $0 <= 2_500 }
    #expect(known == [1_000, 2_000], "\(heard.counts)")
    #expect(zip(heard.counts, heard.counts.dropFirst()).allSatisfy { $0 < $1 })
    #expect(heard.counts.last == batch.issues.count)
  }

  @Test func aDryRunWritesNothingAndSaysWhatWouldHappen() throws {
    let queue = try Self.populated(5)
    let before = try Self.contents(queue)
    var batch = try TransferReader.read(try Self.export(Self.populated(600)))
    batch.issues.append(contentsOf: try TransferReader.read(try Self.export(queue)).issues)
    let summary = try queue.importBatch(batch, dryRun: true)
    #expect(summary.dryRun && summary.createdIssues == 600 && summary.unchangedIssues == 5)
    #expect(try Self.contents(queue) == before)
    try Self.assertSound(queue)
  }

  /// A failure after the rows were written in bulk (the triggers and indexes set aside, the
  /// rows in): nothing of the import is left, and every trigger and index is back.
  @Test func aFailureInTheBulkWriteLeavesNothing() throws {
    let queue = try Self.populated(5)
    try queue.write { db in
      // The badges are brought up to date after the rows and the full-text index.
      try db.execute(
        """
        CREATE TRIGGER refuse BEFORE UPDATE ON issue_counts WHEN new.open_count > 100
        BEGIN SELECT RAISE(ABORT, 'refused'); END
        """)
    }
    let before = try Self.contents(queue)
    let batch = try TransferReader.read(try Self.export(Self.populated(700)))
    #expect(throws: (any Error).self) { try queue.importBatch(batch) }
    #expect(try Self.contents(queue) == before)
    try queue.write { try $0.execute("DROP TRIGGER refuse") }
    try Self.assertSound(queue)
  }

  /// An id twice in one file counts once, the last; a tag twice on one issue is one link.
  @Test func repeatsInAFileCountOnce() throws {
    let queue = try DocketDatabase.inMemory(now: { Date() })
    let id = UUID()
    var batch = IncomingBatch(format: .taskwarrior)
    batch.issues = [
      IncomingIssue(id: id, title: "first", created: Self.start),
      IncomingIssue(
        id: id, title: "second", created: Self.start,
        tags: [IncomingTag(name: "ui"), IncomingTag(name: "UI"), IncomingTag(name: "ui ")]),
    ]
    let summary = try queue.importBatch(batch)
    #expect(summary.createdIssues == 1 && summary.createdTags == 1)
    let stored = try #require(try queue.read { try $0.fetchIssue(id: id) })
    #expect(stored.title == "second" && stored.tags.map(\.name) == ["ui"])
    try Self.assertSound(queue)
  }

  /// GitHub says nothing of priority: a re-import keeps the one given in Docket.
  @Test func aPriorityTheFileDoesNotSayIsKept() throws {
    let queue = try DocketDatabase.inMemory(now: { Date() })
    let file = Array(
      #"[{"number":3,"title":"t","state":"OPEN","createdAt":"2025-11-30T08:00:00Z","url":"https://github.com/a/b/issues/3"}]"#
        .utf8)
    let batch = try TransferReader.read(file)
    _ = try queue.importBatch(batch)
    let id = batch.issues[0].id
    try queue.write { db in
      var issue = try #require(try db.fetchIssue(id: id))
      issue.priority = .high
      try db.saveIssue(issue)
    }
    let edited = try queue.read { try $0.fetchIssue(id: id) }?.modified
    let again = try queue.importBatch(batch)
    #expect(try queue.read { try $0.fetchIssue(id: id) }?.priority == .high)
    // Only the time differs from the file: no edit, and the time stays the edit's (the time
    // follows the changes sync carries; put back alone, it would be this device's only).
    #expect(again.updatedIssues == 0 && again.unchangedIssues == 1)
    #expect(try queue.read { try $0.fetchIssue(id: id) }?.modified == edited)
  }

  /// A failure in the middle (here a tag the database refuses, after issues were written in
  /// bulk) leaves nothing of the import behind.
  @Test func aFailureHalfwayLeavesNothing() throws {
    let queue = try Self.populated(5)
    try queue.write { db in
      try db.execute(
        """
        CREATE TRIGGER refuse BEFORE INSERT ON tags WHEN new.name = 'refused'
        BEGIN SELECT RAISE(ABORT, 'refused'); END
        """)
    }
    let before = try Self.contents(queue)
    var batch = try TransferReader.read(try Self.export(Self.populated(700)))
    batch.issues[650].tags.append(IncomingTag(name: "refused"))
    #expect(throws: (any Error).self) { try queue.importBatch(batch) }
    #expect(try Self.contents(queue) == before)
    try queue.write { try $0.execute("DROP TRIGGER refuse") }
    try Self.assertSound(queue)
  }
}

/// Files a person or another program could hand over: huge details, thousands of tags on one
/// issue, control characters and escape sequences in every text. They import whole, exactly.
@Suite struct HostileImportTests {
  @Test func largeAndStrangeRecordsImportExactly() throws {
    let strange = "\u{1B}[31mred\u{7}\u{0}\u{202E}evil\u{85}\r\n\t\"quoted\" \\ back"
    // The longest detail Docket keeps.
    let huge = String(repeating: "0123456789abcdef", count: Limits.detailCharacters / 16)
    let tags = (0..<10_000).map { IncomingTag(name: "tag \($0) \(strange.prefix(6))") }
    var batch = IncomingBatch(format: .taskwarrior)
    batch.issues = [
      IncomingIssue(
        id: UUID(), title: strange, detail: huge, created: ImportTests.start, tags: tags),
      IncomingIssue(id: UUID(), title: "", detail: strange, created: ImportTests.start),
    ]
    let queue = try DocketDatabase.inMemory(now: { Date() })
    let summary = try queue.importBatch(batch)
    #expect(summary.createdIssues == 2 && summary.createdTags == 10_000)
    #expect(summary.oneLinedTitles == 1)
    let first = try #require(try queue.read { try $0.fetchIssue(id: batch.issues[0].id) })
    // A title is one line: its line breaks (CR LF, NEL) became spaces; the rest is kept.
    let title = Limits.oneLine(strange)
    #expect(title == "\u{1B}[31mred\u{7}\u{0}\u{202E}evil  \t\"quoted\" \\ back")
    #expect(first.title == title && first.detail == huge && first.tags.count == 10_000)
    // Exported and read back: the same text, byte for byte.
    let file = try ImportTests.export(queue)
    let back = try TransferReader.read(file)
    #expect(back.issues.map(\.title).sorted() == ["", title].sorted())
    #expect(back.issues.contains { $0.detail == huge })
    try ImportTests.assertSound(queue)
  }
}
