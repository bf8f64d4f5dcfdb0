import Database
import DocketCore
import Foundation

/// What an import did (or, for a dry run, would do).
public struct ImportSummary: Equatable, Sendable {
  public var format: TransferFormat
  public var createdIssues = 0
  public var updatedIssues = 0
  /// Issues the file has exactly as the database has them.
  public var unchangedIssues = 0
  public var createdTags = 0
  public var skipped: [SkipReason: Int] = [:]
  public var dryRun = false

  public init(format: TransferFormat) { self.format = format }
}

/// Writing a file's issues into the database: all of it in one transaction, or nothing.
///
/// Issues are matched by id: a new id makes an issue, a known one is brought to what the file
/// says (its fields, its tags, its dates). Tags are matched by id where the file has ids, else by
/// name ignoring case, and made where there is none.
///
/// Many new issues at once are written in bulk: the triggers that keep the full-text index and the
/// counts row by row are set aside for the import, the rows are written with what the triggers
/// would have worked out, and the index and counts are brought up to date once, after the rows
/// (the full-text index in one statement over the new rows). On the 91 000-entry changelog
/// corpus (`make bench`), the full-text index is the largest part: 3.1 s of 9.6 s into an empty
/// database, its prefix indexes (for search as you type) three quarters of that.
extension Connection {
  /// Fewer new issues than this are written row by row, as any other write.
  static let bulkThreshold = 500

  public func importBatch(
    _ batch: IncomingBatch, dryRun: Bool = false, progress: ((Int) -> Void)? = nil
  ) throws -> ImportSummary {
    var summary = ImportSummary(format: batch.format)
    summary.skipped = batch.skipped
    summary.dryRun = dryRun
    do {
      try transaction {
        var tags = try TagTable(self)
        let known = try KnownIDs(self, incoming: batch.issues.count)
        for tag in batch.extraTags { _ = try tags.resolve(tag, in: self, summary: &summary) }
        // An id twice in one file: the last one counts.
        var last: [UUID: Int] = [:]
        for (index, issue) in batch.issues.enumerated() { last[issue.id] = index }
        var fresh: [(IncomingIssue, [Int64])] = []
        for (index, issue) in batch.issues.enumerated() where last[issue.id] == index {
          let tagRows = try issue.tags.compactMap {
            try tags.resolve($0, in: self, summary: &summary)
          }
          if try known.contains(issue.id, in: self), let stored = try stored(issue.id) {
            if try update(stored, to: issue, tagRows: tagRows) {
              summary.updatedIssues += 1
            } else {
              summary.unchangedIssues += 1
            }
          } else {
            fresh.append((issue, Array(Set(tagRows)).sorted()))
          }
        }
        // Many links count as much as many issues: each link written row by row makes the
        // database gather the issue's tag list again (10 000 tags on one issue took a minute).
        let links = fresh.reduce(0) { $0 + $1.1.count }
        if fresh.count >= Self.bulkThreshold || links >= 4 * Self.bulkThreshold {
          try insertInBulk(fresh, progress: progress, done: batch.issues.count - fresh.count)
        } else {
          for (issue, tagRows) in fresh { try insert(issue, tagRows: tagRows) }
        }
        summary.createdIssues = fresh.count
        progress?(batch.issues.count)
        if dryRun { throw DryRunFinished() }
      }
    } catch is DryRunFinished {
    }
    return summary
  }

  private struct DryRunFinished: Error {}

  /// An issue as stored, with the rows of its tags (read without the whole tag list that
  /// `fetchIssue` reads for every issue).
  private func stored(_ id: UUID) throws -> (seq: Int64, issue: IncomingIssue, tagRows: Set<Int64>)?
  {
    try fetchOne(
      """
      SELECT seq, title, detail, priority, completed, created, modified, tag_seqs
      FROM issues WHERE id = ?
      """, [id]
    ) { row in
      (
        try row.get(0, as: Int64.self),
        IncomingIssue(
          id: id, title: try row.get(1, as: String.self), detail: try row.get(2, as: String.self),
          priority: Priority(rawValue: try row.get(3, as: Int.self)) ?? .low,
          completed: try row.get(4, as: Bool.self), created: try row.get(5, as: Date.self),
          modified: try row.get(6, as: Date?.self)),
        Set(try row.get(7, as: String.self).split(separator: ",").compactMap { Int64($0) })
      )
    }
  }

  /// Brings a stored issue to what the file says; false when it is so already.
  private func update(
    _ stored: (seq: Int64, issue: IncomingIssue, tagRows: Set<Int64>), to issue: IncomingIssue,
    tagRows: [Int64]
  ) throws -> Bool {
    var issue = issue
    if issue.priorityUnsaid { issue.priority = stored.issue.priority }
    let storedRows = stored.tagRows
    let wantedRows = Set(tagRows)
    let title = issue.title
    let seq = stored.seq
    let stored = stored.issue
    let same =
      stored.title == title && stored.detail == issue.detail && stored.priority == issue.priority
      && stored.completed == issue.completed && stored.created == issue.created
      && stored.modified == issue.modified && storedRows == wantedRows
    if same { return false }
    // The file's dates are kept, as sync keeps the sender's: `modified` is written with the rest.
    try execute(
      """
      UPDATE issues SET title = ?, detail = ?, priority = ?, completed = ?, created = ?,
        modified = ? WHERE id = ?
      """,
      [
        title, issue.detail, issue.priority.rawValue, issue.completed, issue.created,
        issue.modified, issue.id,
      ])
    // The database stamps an edit as made now where the update left `modified` as it was (also
    // when the file says "never edited", nil over nil): the file's value is written once more, on
    // its own, which stamps nothing, and the changes just recorded are given it too.
    try execute("UPDATE issues SET modified = ? WHERE seq = ?", [issue.modified, seq])
    try restampLatestChanges(issueSeq: seq)
    for removed in storedRows.subtracting(wantedRows) {
      try execute("DELETE FROM issue_tags WHERE issue_seq = ? AND tag_seq = ?", [seq, removed])
    }
    for added in wantedRows.subtracting(storedRows).sorted() {
      try execute("INSERT INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [seq, added])
    }
    return true
  }

  /// One new issue, row by row, the triggers doing their work.
  private func insert(_ issue: IncomingIssue, tagRows: [Int64]) throws {
    try execute(
      """
      INSERT INTO issues (id, title, detail, priority, completed, created, modified)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [
        issue.id, issue.title, issue.detail, issue.priority.rawValue, issue.completed,
        issue.created, issue.modified,
      ])
    let seq = try fetchOne("SELECT seq FROM issues WHERE id = ?", [issue.id], as: Int64.self)!
    for row in tagRows {
      try execute("INSERT INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [seq, row])
    }
  }

  /// Many new issues: the rows with what the triggers would have worked out (sort keys, tag
  /// lists, open flags), then the full-text index and the counts once, then the triggers back.
  /// All inside the caller's transaction, so a failure anywhere leaves the database as it was.
  private func insertInBulk(
    _ issues: [(IncomingIssue, [Int64])], progress: ((Int) -> Void)?, done: Int
  ) throws {
    var triggers: [(name: String, sql: String)] = []
    try forEachRow(
      """
      SELECT name, sql FROM sqlite_master
      WHERE type = 'trigger' AND tbl_name IN ('issues', 'issue_tags') ORDER BY name
      """
    ) { row in triggers.append((try row.get(0, as: String.self), try row.get(1, as: String.self))) }
    for trigger in triggers { try execute("DROP TRIGGER \"\(trigger.name)\"") }
    // Into a database smaller than the import, the secondary indexes are built again after the
    // rows: one sort each, where a row at a time puts each row into each index in turn. Measured
    // with the changelog corpus (91 000 issues): into an empty database, rows and indexes 4.6 s
    // kept, 3.3 s built after; into one of 100 000, 4.1 s kept, 4.8 s built after.
    let existing = try fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? 0
    var indexes: [(name: String, sql: String)] = []
    if existing < issues.count {
      try forEachRow(
        """
        SELECT name, sql FROM sqlite_master
        WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('issues', 'issue_tags')
        ORDER BY name
        """
      ) { row in indexes.append((try row.get(0, as: String.self), try row.get(1, as: String.self)))
      }
      for index in indexes { try execute("DROP INDEX \"\(index.name)\"") }
    }
    // A larger page cache for the index pages the rows touch (random ids land all over the id
    // index); the usual size again afterwards. 16 MiB measured best: 64 MiB was slower (and the
    // import's peak 190 MiB), the default 2 MiB slower still.
    let cacheSize = try fetchOne("PRAGMA cache_size", as: Int.self) ?? -2000
    try execute("PRAGMA cache_size = -16384")
    defer { try? execute("PRAGMA cache_size = \(cacheSize)") }
    let first = (try fetchOne("SELECT coalesce(max(seq), 0) FROM issues", as: Int64.self) ?? 0) + 1
    var seq = first
    var open = 0
    var tagCounts: [Int64: (total: Int, open: Int)] = [:]
    for (index, (issue, tagRows)) in issues.enumerated() {
      try execute(
        """
        INSERT INTO issues (seq, id, title, detail, priority, completed, created, modified,
          title_key, tag_seqs)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          seq, issue.id, issue.title, issue.detail, issue.priority.rawValue, issue.completed,
          issue.created, issue.modified, SortKey.fold(issue.title),
          tagRows.map(String.init).joined(separator: ","),
        ])
      let isOpen = issue.completed ? 0 : 1
      open += isOpen
      for row in tagRows {
        try execute(
          "INSERT INTO issue_tags (issue_seq, tag_seq, issue_open) VALUES (?, ?, ?)",
          [seq, row, isOpen])
        tagCounts[row, default: (0, 0)].total += 1
        tagCounts[row, default: (0, 0)].open += isOpen
      }
      seq += 1
      if index % 1000 == 999 { progress?(done + index + 1) }
    }
    try execute(
      "INSERT INTO issue_fts (rowid, title, detail) SELECT seq, title, detail FROM issues WHERE seq >= ?",
      [first])
    try execute(
      "UPDATE issue_counts SET open_count = open_count + ?, completed_count = completed_count + ?",
      [open, issues.count - open])
    for (row, counts) in tagCounts {
      try execute(
        "UPDATE tags SET total_count = total_count + ?, open_count = open_count + ? WHERE seq = ?",
        [counts.total, counts.open, row])
    }
    for index in indexes { try execute(index.sql) }
    for trigger in triggers { try execute(trigger.sql) }
    try recordCreations(issuesFrom: first)
  }
}

/// The database's tags by id and by name, as an import finds and makes them.
struct TagTable {
  private var byID: [UUID: (row: Int64, name: String)] = [:]
  private var byKey: [String: Int64] = [:]
  /// Names as a file spells them, once resolved (a file names the same few tags again and again).
  private var byName: [String: Int64] = [:]

  init(_ db: Connection) throws {
    try db.forEachRow("SELECT seq, id, name FROM tags") { row in
      let seq = try row.get(0, as: Int64.self)
      let name = try row.get(2, as: String.self)
      byID[try row.get(1, as: UUID.self)] = (seq, name)
      byKey[TagName.key(name)] = seq
    }
  }

  /// The row of the tag `tag` names: the same id, else the same name, else a new tag. Nil for a
  /// name that is empty once trimmed (such a tag is left out).
  mutating func resolve(_ tag: IncomingTag, in db: Connection, summary: inout ImportSummary)
    throws -> Int64?
  {
    if tag.id == nil, let row = byName[tag.name] { return row }
    guard let name = TagName.normalized(tag.name) else { return nil }
    let key = TagName.key(name)
    if let id = tag.id, let known = byID[id] {
      if known.name != name, byKey[key] == nil || byKey[key] == known.row {
        // The file's name for its tag, where no other tag has it.
        try db.execute("UPDATE tags SET name = ? WHERE seq = ?", [name, known.row])
        byKey[TagName.key(known.name)] = nil
        byKey[key] = known.row
        byID[id] = (known.row, name)
      }
      return known.row
    }
    if let row = byKey[key] {
      if tag.id == nil { byName[tag.name] = row }
      return row
    }
    let id = tag.id ?? UUID()
    try db.execute("INSERT INTO tags (id, name) VALUES (?, ?)", [id, name])
    let row = try db.fetchOne("SELECT seq FROM tags WHERE id = ?", [id], as: Int64.self)!
    byID[id] = (row, name)
    byKey[key] = row
    if tag.id == nil { byName[tag.name] = row }
    summary.createdTags += 1
    return row
  }
}

/// Which ids the database has: read whole into memory where the database is not much larger than
/// the file (one pass over the ids instead of a lookup per issue), else asked for one at a time.
struct KnownIDs {
  private let ids: Set<UUID>?

  init(_ db: Connection, incoming: Int) throws {
    let count = try db.fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? 0
    guard count <= 4 * incoming else {
      ids = nil
      return
    }
    var ids = Set<UUID>(minimumCapacity: count)
    try db.forEachRow("SELECT id FROM issues") { ids.insert(try $0.get(0, as: UUID.self)) }
    self.ids = ids
  }

  func contains(_ id: UUID, in db: Connection) throws -> Bool {
    if let ids { return ids.contains(id) }
    return try db.fetchOne("SELECT 1 FROM issues WHERE id = ?", [id], as: Int.self) != nil
  }
}
