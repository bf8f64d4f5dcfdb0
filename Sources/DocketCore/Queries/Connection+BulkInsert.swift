import Database
import Foundation

/// One issue for `insertIssuesInBulk`: its values as the database keeps them.
public struct BulkIssueRow: Sendable {
  /// The id as stored (lowercase UUID text).
  public var id: String
  public var title: String
  public var detail: String
  public var priority: Int
  public var completed: Bool
  /// Seconds since 1970.
  public var created: Double
  public var modified: Double?
  /// The rows of its tags.
  public var tagRows: [Int64]

  public init(
    id: String, title: String, detail: String, priority: Int, completed: Bool, created: Double,
    modified: Double?, tagRows: [Int64]
  ) {
    self.id = id
    self.title = title
    self.detail = detail
    self.priority = priority
    self.completed = completed
    self.created = created
    self.modified = modified
    self.tagRows = tagRows
  }
}

/// The steps of a large write after its rows, for a display of how far it is: each can take
/// seconds for a large import. `insertIssuesInBulk` says the first three; `saving`, the commit
/// that writes everything to the disk, is said by the writer that owns the transaction (an
/// import).
public enum BulkStep: Equatable, Sendable {
  case searchIndex, sortIndexes, history, saving
}

/// Many new issues at once, for an import or for a device catching up through sync.
///
/// The triggers that keep the full-text index and the counts row by row are set aside, the rows
/// are written with what the triggers would have worked out, and the index and counts are brought
/// up to date once, after the rows (the full-text index in one statement over the new rows).
/// Into an empty database the rows and the full-text index are the two largest parts of an
/// import, and the index's prefix indexes, for search as you type, the larger part of the index.
extension Connection {
  /// Many new issues: the rows with what the triggers would have worked out (sort keys, tag
  /// lists, open flags), then the full-text index and the counts once, then the triggers back.
  /// All inside the caller's transaction, so a failure anywhere leaves the database as it was.
  /// `issues` is emptied once the rows are written, so that their text is let go before the
  /// indexes are built, which lowers the import's peak memory.
  public func insertIssuesInBulk(
    _ issues: inout [BulkIssueRow], recordingCreations: Bool, progress: ((Int) -> Void)? = nil,
    step: ((BulkStep) -> Void)? = nil
  ) throws {
    let deferring = try isDeferringTextIndex
    precondition(!deferring, "the bulk write fills the full-text index itself")
    // The triggers are made again in the order they were first made in, so that they fire in
    // the same order as before.
    var triggers: [(name: String, sql: String)] = []
    try forEachRow(
      """
      SELECT name, sql FROM sqlite_master
      WHERE type = 'trigger' AND tbl_name IN ('issues', 'issue_tags') ORDER BY rowid
      """
    ) { row in triggers.append((try row.get(0, as: String.self), try row.get(1, as: String.self))) }
    for trigger in triggers { try execute("DROP TRIGGER \"\(trigger.name)\"") }
    // Into a database much smaller than the import, the secondary indexes are built again after
    // the rows: one sort each over the whole table, where a row at a time puts each new row into
    // each index in turn. A build sorts the old rows with the new, and a new row kept in the
    // indexes costs more than a row sorted, so building pays while the table holds fewer than
    // about a third as many rows as the bulk brings. That line is an estimate between the two
    // cases compared, an empty database and one about the import's size. The same holds for
    // sync's bulk merge, which writes through here too.
    let existing = try fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? 0
    var indexes: [(name: String, sql: String)] = []
    if existing * 3 < issues.count {
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
    // index); the usual size again afterwards. 16 MiB is the best size tried: a larger cache is
    // slower and raises the import's peak memory, the default slower still.
    let cacheSize = try fetchOne("PRAGMA cache_size", as: Int.self) ?? -2000
    try execute("PRAGMA cache_size = -16384")
    defer { try? execute("PRAGMA cache_size = \(cacheSize)") }
    let first = (try fetchOne("SELECT coalesce(max(seq), 0) FROM issues", as: Int64.self) ?? 0) + 1
    var seq = first
    var open = 0
    var tagCounts: [Int64: (total: Int, open: Int)] = [:]
    for (index, issue) in issues.enumerated() {
      let tagRows = issue.tagRows
      try execute(
        """
        INSERT INTO issues (seq, id, title, detail, priority, completed, created, modified,
          title_key, tag_seqs)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          seq, issue.id, issue.title, issue.detail, issue.priority, issue.completed,
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
      if index % 1000 == 999 { progress?(index + 1) }
    }
    let count = issues.count
    if count % 1000 != 0 { progress?(count) }
    issues = []
    // The full-text index gathers the new rows' words in memory and writes a segment each time
    // it holds this much (1 MiB unless told), to merge the segments later: at 16 MiB it makes
    // and merges a sixteenth as many, which fills the index markedly faster for a little more
    // memory. The setting is kept in the index's own table, so it is set back to the usual size,
    // in the same transaction; also when the filling fails, since a rollback takes back the
    // stored setting but not the one this connection holds.
    step?(.searchIndex)
    let hashSize = "INSERT INTO issue_fts (issue_fts, rank) VALUES ('hashsize', ?)"
    try execute(hashSize, [16 << 20])
    do {
      try execute(
        "INSERT INTO issue_fts (rowid, title, detail) SELECT seq, title, detail FROM issues WHERE seq >= ?",
        [first])
    } catch {
      try? execute(hashSize, [1 << 20])
      throw error
    }
    try execute(hashSize, [1 << 20])
    try execute(
      "UPDATE issue_counts SET open_count = open_count + ?, completed_count = completed_count + ?",
      [open, count - open])
    try execute(
      """
      INSERT INTO activity_days (completed, day, issue_count)
        SELECT completed, \(Schema.activityDay("i")), count(*)
        FROM issues i WHERE seq >= ? GROUP BY 1, 2
        ON CONFLICT (completed, day) DO UPDATE SET issue_count = issue_count + excluded.issue_count
      """, [first])
    for (row, counts) in tagCounts {
      try execute(
        "UPDATE tags SET total_count = total_count + ?, open_count = open_count + ? WHERE seq = ?",
        [counts.total, counts.open, row])
    }
    if !indexes.isEmpty { step?(.sortIndexes) }
    for index in indexes { try execute(index.sql) }
    for trigger in triggers { try execute(trigger.sql) }
    if recordingCreations {
      step?(.history)
      try recordCreations(issuesFrom: first)
    }
  }
}
