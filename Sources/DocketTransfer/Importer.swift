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
  /// Issues of the file that sync has deleted since (here or on another device): left deleted,
  /// unless the import was asked to restore them, and then brought back everywhere.
  public var keptDeleted = 0
  public var restoredIssues = 0
  /// Titles the file wrote on more than one line, written with a space for each break.
  public var oneLinedTitles = 0
  public var dryRun = false

  public init(format: TransferFormat) { self.format = format }
}

/// Writing a file's issues into the database: all of it in one transaction, or nothing.
///
/// Issues are matched by id: a new id makes an issue, a known one is brought to what the file
/// says (its fields, its tags, its dates). Tags are matched by id where the file has ids, else by
/// name ignoring case, and made where there is none.
///
/// Many new issues at once are written in bulk (`insertIssuesInBulk`, in DocketCore).
extension DatabaseQueue {
  /// Imports `batch` in a transaction of its own, the outermost: the writer's connection is taken
  /// outside any transaction (`withConnection`), never inside another write. Inside another
  /// transaction the import's would be a savepoint, and SQLite then copies every page the import
  /// changes into memory and walks that copy at the end of each statement, which makes an import
  /// into a large database markedly slower and heavier.
  ///
  /// The batch is taken: its issues are let go as soon as they are written, so that a large
  /// import does not hold them while the indexes are built.
  /// `progress` hears how many of the file's issues are written; `step`, the steps after the
  /// rows of a bulk write, and the commit.
  /// An issue of the file that sync has deleted since (its history says so) stays deleted: an
  /// old backup brought back unasked would hold it on this device alone, and its edits would
  /// reach no other. With `restoreDeleted` it is brought back as a restore, which wins over the
  /// delete on every device.
  public func importBatch(
    _ batch: consuming IncomingBatch, dryRun: Bool = false, restoreDeleted: Bool = false,
    progress: ((Int) -> Void)? = nil, step: ((BulkStep) -> Void)? = nil
  ) throws -> ImportSummary {
    var batch = consume batch
    return try withConnection { db in
      try db.importBatch(
        batch.take(), dryRun: dryRun, restoreDeleted: restoreDeleted, progress: progress,
        step: step)
    }
  }
}

extension Connection {
  /// Fewer new issues than this are written row by row, as any other write.
  static let bulkThreshold = 500

  /// The import itself, for `DatabaseQueue.importBatch`, which gives it the writer's connection
  /// outside any transaction.
  func importBatch(
    _ batch: consuming IncomingBatch, dryRun: Bool, restoreDeleted: Bool = false,
    progress: ((Int) -> Void)?, step: ((BulkStep) -> Void)?
  ) throws -> ImportSummary {
    precondition(!isInTransaction, "an import is its own outermost transaction")
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
        // What every device keeps: a title on one line, texts within `Limits` (a format's
        // reader names the record; a batch made otherwise is held to the same).
        for index in batch.issues.indices {
          let title = Limits.oneLine(batch.issues[index].title)
          if title != batch.issues[index].title {
            batch.issues[index].title = title
            summary.oneLinedTitles += 1
          }
          if let problem = Limits.problem(
            title: batch.issues[index].title, detail: batch.issues[index].detail)
          {
            throw problem
          }
        }
        var fresh: [(IncomingIssue, [Int64])] = []
        // Known issues are brought up to date row by row, the full-text index after them (kept
        // row by row, it would take most of a large re-import's time), so they are counted as
        // they go; new ones are counted as they are written, after.
        var nextReport = 1000
        try deferringTextIndex(for: min(batch.issues.count, known.stored), step: step) {
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
              let done = index + 1 - fresh.count
              if done >= nextReport {
                progress?(done)
                nextReport = done + 1000
              }
            } else {
              fresh.append((issue, Array(Set(tagRows)).sorted()))
            }
          }
        }
        let total = batch.issues.count
        batch.issues = []
        let deleted = try deletedIssueIDs(among: fresh.map(\.0.id))
        if !deleted.isEmpty {
          let gone = fresh.filter { deleted.contains($0.0.id) }
          fresh.removeAll { deleted.contains($0.0.id) }
          if restoreDeleted {
            // Deleted for good, an issue stays so: every device holds it gone.
            let purged = try purgedIssueIDs(among: gone.map(\.0.id))
            for (issue, tagRows) in gone where !purged.contains(issue.id) {
              try insert(issue, tagRows: tagRows)
              try recordAsRestore(issue: issue.id)
            }
            summary.restoredIssues = gone.count - purged.count
            summary.keptDeleted = purged.count
          } else {
            summary.keptDeleted = gone.count
          }
        }
        summary.createdIssues = fresh.count
        // Many links count as much as many issues: each link written row by row makes the
        // database gather the issue's tag list again.
        let links = fresh.reduce(0) { $0 + $1.1.count }
        if fresh.count >= Self.bulkThreshold || links >= 4 * Self.bulkThreshold {
          // Says the last of its rows before its steps.
          try insertInBulk(&fresh, progress: progress, step: step, done: total - fresh.count)
        } else {
          for (issue, tagRows) in fresh { try insert(issue, tagRows: tagRows) }
          progress?(total)
        }
        if dryRun { throw DryRunFinished() }
        step?(.saving)
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
    // Only the file's `modified` differing is no edit: the time follows the changes, which
    // sync carries, and one written alone would be this device's only (its last change's
    // elsewhere).
    let same =
      stored.title == title && stored.detail == issue.detail && stored.priority == issue.priority
      && stored.completed == issue.completed && stored.created == issue.created
      && storedRows == wantedRows
    if same { return false }
    // The file's dates are kept, as sync keeps the sender's: `modified` is written with the rest.
    // The sort key too: with the index's trigger set aside (`deferringTextIndex`), the
    // temporary trigger would otherwise set it with a write of its own.
    try execute(
      """
      UPDATE issues SET title = ?, detail = ?, priority = ?, completed = ?, created = ?,
        modified = ?, title_key = ? WHERE seq = ?
      """,
      [
        title, issue.detail, issue.priority.rawValue, issue.completed, issue.created,
        issue.modified, SortKey.fold(title), seq,
      ])
    // The database stamps an edit as made now where the update left `modified` as it was (also
    // when the file says "never edited", nil over nil): the file's value is written once more, on
    // its own, which stamps nothing, and the changes just recorded are given it too. Where the
    // file's `modified` differs from the stored one, nothing was stamped and the changes have the
    // file's value already (writing it again for every edit would slow a large re-import).
    if issue.modified == stored.modified {
      try execute("UPDATE issues SET modified = ? WHERE seq = ?", [issue.modified, seq])
      try restampLatestChanges(issueSeq: seq)
    }
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

  /// Many new issues at once, written in bulk (`insertIssuesInBulk`) and recorded as made.
  private func insertInBulk(
    _ issues: inout [(IncomingIssue, [Int64])], progress: ((Int) -> Void)?,
    step: ((BulkStep) -> Void)?, done: Int
  ) throws {
    var rows = issues.map { issue, tagRows in
      BulkIssueRow(
        id: issue.id.lowercasedText, title: issue.title, detail: issue.detail,
        priority: issue.priority.rawValue, completed: issue.completed,
        created: issue.created.timeIntervalSince1970,
        modified: issue.modified?.timeIntervalSince1970, tagRows: tagRows)
    }
    issues = []
    try insertIssuesInBulk(
      &rows, recordingCreations: true, progress: { progress?(done + $0) }, step: step)
  }
}

/// The database's tags by id and by name, as an import finds and makes them.
struct TagTable {
  private var byID: [UUID: (row: Int64, name: String)] = [:]
  private var byKey: [String: Int64] = [:]
  /// Names as a file spells them, once resolved (a file names the same few tags again and again).
  private var byName: [String: Int64] = [:]

  /// The ids whose names are as `TagName.normalized` makes them.
  private var normalized: Set<UUID> = []
  /// Ids of tags sync has deleted, and ids sync knows that have no row here (`hasHistory`): a
  /// file's tag of such an id is the tag of its name (made anew where there is none), never that
  /// id again, which every other device keeps deleted or as it is.
  private var deleted: Set<UUID> = []
  /// Ids without a row here that the history does not know either (asked once each).
  private var unknown: Set<UUID> = []

  init(_ db: Connection) throws {
    try db.forEachRow(
      """
      SELECT DISTINCT row_id FROM changes
      WHERE entity = 'tag' AND entity != 'issue' AND field = 'delete'
      """
    ) { row in
      if let id = UUID(text: try row.get(0, as: String.self)) { deleted.insert(id) }
    }
    try db.forEachRow("SELECT seq, id, name FROM tags") { row in
      let seq = try row.get(0, as: Int64.self)
      let id = try row.get(1, as: UUID.self)
      let name = try row.get(2, as: String.self)
      byID[id] = (seq, name)
      byKey[TagName.key(name)] = seq
      if TagName.normalized(name) == name { normalized.insert(id) }
    }
  }

  /// Whether the history holds a change of the tag `id` or of a link to it. (`entity != 'issue'`,
  /// always so for a link, lets SQLite use the tags' and links' index, here and above.)
  static func hasHistory(_ id: UUID, in db: Connection) throws -> Bool {
    let text = id.lowercasedText
    return try db.fetchOne(
      """
      SELECT EXISTS (SELECT 1 FROM changes WHERE row_id = ? AND entity = 'tag')
        OR EXISTS (
          SELECT 1 FROM changes WHERE entity = 'link' AND entity != 'issue' AND field = ?)
      """, [text, text], as: Bool.self) ?? false
  }

  /// The row of the tag `tag` names: the same id, else the same name, else a new tag. Nil for a
  /// name that is empty once trimmed (such a tag is left out).
  mutating func resolve(_ tag: IncomingTag, in db: Connection, summary: inout ImportSummary)
    throws -> Int64?
  {
    if let id = tag.id, deleted.contains(id) {
      return try resolve(IncomingTag(name: tag.name), in: db, summary: &summary)
    }
    if tag.id == nil, let row = byName[tag.name] { return row }
    if let id = tag.id, byID[id] == nil, !unknown.contains(id) {
      guard try Self.hasHistory(id, in: db) else {
        unknown.insert(id)
        return try resolve(tag, in: db, summary: &summary)
      }
      // Sync knows this id, and it has no row here: it is one of the ids of another tag (made
      // with the same name on two devices, or renamed into it), or its making was voided or has
      // not arrived. A row made for it here alone would take it out of that tag, or make it,
      // on this device only, and the links others made through it would stay where they were
      // here: this device would hold other links than every other. The file's tag is the tag of
      // its name, as for a tag deleted.
      deleted.insert(id)
      return try resolve(IncomingTag(name: tag.name), in: db, summary: &summary)
    }
    // A known id under the normalized name it has here, which the steps below would keep as it
    // is: Docket's own file names the same few tags by id again and again.
    if let id = tag.id, normalized.contains(id), let known = byID[id], known.name == tag.name {
      return known.row
    }
    guard let name = TagName.normalized(tag.name) else { return nil }
    let key = TagName.key(name)
    if let id = tag.id, let known = byID[id] {
      if known.name != name, byKey[key] == nil || byKey[key] == known.row {
        // The file's name for its tag, where no other tag has it.
        try db.execute("UPDATE tags SET name = ? WHERE seq = ?", [name, known.row])
        byKey[TagName.key(known.name)] = nil
        byKey[key] = known.row
        byID[id] = (known.row, name)
        normalized.insert(id)
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
    normalized.insert(id)
    if tag.id == nil { byName[tag.name] = row }
    summary.createdTags += 1
    return row
  }
}

/// Which ids the database has: read whole into memory where the database is not much larger than
/// the file (one pass over the ids instead of a lookup per issue), else asked for one at a time.
struct KnownIDs {
  private let ids: Set<UUID>?
  /// How many issues the database holds: at most so many of a file's can be edits.
  let stored: Int

  init(_ db: Connection, incoming: Int) throws {
    let count = try db.fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? 0
    stored = count
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
