import Database
import Foundation

/// Writing the record of changes outside the triggers: for rows written in bulk, and for writers
/// that set `modified` after the fields.
extension Connection {
  /// Records as changes the issues from row `first` on, with their links (and, with `tags`, every
  /// tag), all with one stamp: for rows written without the triggers (a bulk import), and for the
  /// rows a database had before it kept changes.
  public func recordCreations(issuesFrom first: Int64, tags: Bool = false) throws {
    let count =
      try fetchOne("SELECT count(*) FROM issues WHERE seq >= ?", [first], as: Int.self) ?? 0
    try settingChangeIndexesAside(for: count) { try insertCreationChanges(from: first, tags: tags) }
  }

  /// Runs `body`, which records about `count` changes; into a shorter history, the history's
  /// indexes are set aside meanwhile and built again after (one sort each, where a row at a time
  /// goes into each index in turn: ids are random).
  public func settingChangeIndexesAside<Value>(for count: Int, _ body: () throws -> Value) throws
    -> Value
  {
    let history = try fetchOne("SELECT count(*) FROM changes", as: Int.self) ?? 0
    var indexes: [(name: String, sql: String)] = []
    // Set aside only into a shorter history: into an empty one, building the indexes after is
    // quicker than keeping them row by row; into a history larger than what is recorded,
    // building them again is slower and takes more memory.
    if count > 1000, history < count {
      try forEachRow(
        """
        SELECT name, sql FROM sqlite_master
        WHERE type = 'index' AND tbl_name = 'changes' AND sql IS NOT NULL
        """
      ) { row in indexes.append((try row.get(0, as: String.self), try row.get(1, as: String.self)))
      }
      for index in indexes { try execute("DROP INDEX \"\(index.name)\"") }
    }
    let value = try body()
    for index in indexes { try execute(index.sql) }
    return value
  }

  private func insertCreationChanges(from first: Int64, tags: Bool) throws {
    try execute(Schema.tick)
    if tags {
      try execute(
        """
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
          SELECT c.hlc, c.device, 'tag', t.id, 'create', json_object('name', t.name, 'key', docket_tag_key(t.name))
          FROM sync_clock c, tags t
        """)
    }
    // Each issue's links soon after it (in runs of 500 issues, without a sort of everything):
    // a device that reads them a package at a time finds an issue and its links together. The
    // links are read along their primary key, in that order, so the order costs no sort; the
    // joins are fixed (CROSS JOIN), since statistics that say there are few tags (`ANALYZE`)
    // lead the planner to read the links a tag at a time, each tag across all the issues.
    let last = try fetchOne("SELECT coalesce(max(seq), 0) FROM issues", as: Int64.self) ?? 0
    var from = first
    while from <= last {
      let to = from + 499
      try execute(
        """
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value, modified)
          SELECT c.hlc, c.device, 'issue', i.id, 'create', \(Schema.issueJSON("i")), i.modified
          FROM sync_clock c, issues i WHERE i.seq BETWEEN ? AND ?
        """, [from, to])
      try execute(
        """
        INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, modified)
          SELECT c.hlc, c.device, 'link', i.id, t.id, 0, 1, i.modified
          FROM issue_tags l CROSS JOIN issues i ON i.seq = l.issue_seq
            CROSS JOIN tags t ON t.seq = l.tag_seq CROSS JOIN sync_clock c
          WHERE l.issue_seq BETWEEN ? AND ?
          ORDER BY l.issue_seq, l.tag_seq
        """, [from, to])
      from = to + 1
    }
  }
}

extension Connection {
  /// Gives the changes just recorded for an issue (those of the latest stamp) the issue's
  /// `modified` as it is now: for a writer that sets `modified` after the fields.
  public func restampLatestChanges(issueSeq: Int64) throws {
    try execute(
      """
      UPDATE changes SET modified = (SELECT modified FROM issues WHERE seq = ?)
      WHERE row_id = (SELECT id FROM issues WHERE seq = ?)
        AND hlc = (SELECT hlc FROM sync_clock) AND device = (SELECT device FROM sync_clock)
      """, [issueSeq, issueSeq])
  }
}

extension Connection {
  /// The SQL that says whether the row of the change `c` is deleted: a delete of it counts (is
  /// neither held nor void) that no restore stamped later undoes, or it was deleted for good (a
  /// `purge`, which no restore undoes). One rule for every reader.
  public static let rowIsDeletedSQL = """
    (EXISTS (
      SELECT 1 FROM changes gone JOIN sync_devices gd ON gd.seq = gone.device
      WHERE gone.row_id = c.row_id AND gone.field = 'delete' AND gone.held = 0
        AND NOT EXISTS (
          SELECT 1 FROM changes back JOIN sync_devices bd ON bd.seq = back.device
          WHERE back.row_id = gone.row_id AND back.field = 'restore' AND back.held = 0
            AND (back.hlc > gone.hlc OR (back.hlc = gone.hlc AND bd.id > gd.id))))
      OR \(rowIsPurgedSQL))
    """

  /// The SQL that says whether the row of the change `c` was deleted for good: by "delete now"
  /// (a purge without a value), which nothing undoes, or 30 days after a delete (a purge that
  /// names that delete's stamp), which only a restore stamped after that delete undoes, so
  /// that a device that ends an issue it has not heard was restored elsewhere ends nothing.
  public static let rowIsPurgedSQL = """
    EXISTS (
      SELECT 1 FROM changes gone WHERE gone.row_id = c.row_id AND gone.field = 'purge'
        AND gone.held = 0
        AND (gone.new_value IS NULL OR NOT EXISTS (
          SELECT 1 FROM changes back WHERE back.row_id = gone.row_id AND back.field = 'restore'
            AND back.held = 0 AND back.hlc > CAST(gone.new_value AS INTEGER))))
    """

  /// The ids among `ids` deleted for good: an import does not bring them back, even asked to.
  public func purgedIssueIDs(among ids: [UUID]) throws -> Set<UUID> {
    var purged = Set<UUID>()
    for id in ids
    where try fetchOne(
      "SELECT 1 FROM (SELECT ? AS row_id) c WHERE \(Self.rowIsPurgedSQL)", [id.lowercasedText],
      as: Int.self) != nil
    {
      purged.insert(id)
    }
    return purged
  }

  /// The ids among `ids` of issues the history says are deleted (here or, through sync, on
  /// another device): an import of an older copy of them does not bring them back unasked.
  public func deletedIssueIDs(among ids: [UUID]) throws -> Set<UUID> {
    var deleted = Set<UUID>()
    // Deletes are few: read once, then those among `ids` checked for a later restore.
    let candidates = Set(
      try fetchAll(
        "SELECT DISTINCT row_id FROM changes WHERE field = 'delete' AND entity = 'issue'"
      ) { try $0.get(0, as: String.self) })
    guard !candidates.isEmpty else { return [] }
    for id in ids where candidates.contains(id.lowercasedText) {
      if try fetchOne(
        "SELECT 1 FROM (SELECT ? AS row_id) c WHERE \(Self.rowIsDeletedSQL)",
        [id.lowercasedText], as: Int.self) != nil
      {
        deleted.insert(id)
      }
    }
    return deleted
  }

  /// Marks the creation just recorded for the issue `id` as a restore: it brings back, on every
  /// device, an issue sync deleted (a restore stamped after a delete wins over it).
  public func recordAsRestore(issue id: UUID) throws {
    try execute(
      """
      UPDATE changes SET field = 'restore'
      WHERE seq = (
        SELECT max(seq) FROM changes WHERE row_id = ? AND field = 'create'
          AND device = (SELECT device FROM sync_clock))
      """, [id.lowercasedText])
  }
}
