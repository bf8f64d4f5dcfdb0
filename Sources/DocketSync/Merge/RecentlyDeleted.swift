import Database
import DocketCore
import Foundation

/// An issue deleted within `RecentlyDeleted.window`, as it was when it was deleted: what the
/// "Recently deleted" lists show and what a restore brings back.
public struct DeletedIssue: Equatable, Sendable, Identifiable {
  public let id: UUID
  public let title: String
  public let priority: Priority
  public let completed: Bool
  public let created: Date
  /// When it was deleted: the wall time of the delete's stamp, which every device shares.
  public let deleted: Date
  /// The name of the device that deleted it; empty for this device or one without a name.
  public let deletedBy: String
  /// Whether this device made the delete.
  public let deletedHere: Bool
}

/// How long a deleted issue can be brought back. The window runs from the delete's stamp, which
/// every device holds the same, so every device agrees when an issue has gone for good.
public enum RecentlyDeleted {
  public static let window: TimeInterval = 30 * 24 * 60 * 60

  /// The earliest delete stamp still in the window at `now`.
  static func earliestStamp(now: Date) -> Int64 {
    HybridClock.stamp(now.addingTimeInterval(-window))
  }
}

extension Connection {
  /// The latest delete of each issue that is deleted now and was deleted within the window,
  /// newest first; at most `limit`.
  public func recentlyDeletedIssues(limit: Int? = nil) throws -> [DeletedIssue] {
    let now = try deletionClock()
    let merger = Merger(db: self)
    var issues: [DeletedIssue] = []
    var seen = Set<UUID>()
    try forEachRow(Self.recentlyDeletedSQL, [RecentlyDeleted.earliestStamp(now: now)]) { row in
      // Two deletes of one issue with the same stamp: the first, as a restore takes it.
      guard limit.map({ issues.count < $0 }) ?? true,
        let id = UUID(text: try row.get(0, as: String.self)), seen.insert(id).inserted
      else { return }
      let values = try merger.createValues(try row.get(1, as: DatabaseValue.self))
      var priority = Priority.low
      if case .integer(let number)? = values["priority"] {
        priority = Priority(rawValue: Int(number)) ?? .low
      }
      var completed = false
      if case .integer(let number)? = values["completed"] { completed = number == 1 }
      // Without a creation time it kept, the delete's own, as a restore gives it.
      let deleted = HybridClock.date(try row.get(2, as: Int64.self))
      var created = deleted
      if case .real(let seconds)? = values["created"] {
        created = Date(timeIntervalSince1970: seconds)
      }
      issues.append(
        DeletedIssue(
          id: id, title: try row.get(5, as: String.self), priority: priority,
          completed: completed, created: created,
          deleted: deleted,
          deletedBy: try row.get(3, as: String.self),
          deletedHere: try row.get(4, as: Int64.self) == 1))
    }
    return issues
  }

  /// The title a delete kept, as the limits every device holds to have it (an older Docket may
  /// have kept a title of two lines), the first of repeated keys as SQLite reads it; NULL where
  /// it kept no text there.
  static func deletedTitleSQL(_ change: String) -> String {
    """
    CASE WHEN json_valid(\(change).old_value)
        AND json_type(\(change).old_value, '$.title') = 'text'
      THEN docket_within_limits('title', json_extract(\(change).old_value, '$.title')) END
    """
  }

  /// The deletes the list, its count and a restore agree on: each row's latest (of issues, not
  /// held), from the window's earliest stamp (`?1`), of a row deleted now, that kept a title.
  /// A delete that kept none (no Docket writes one) has nothing to show or bring back.
  private static let listedDeletesSQL = """
    FROM changes c JOIN sync_devices d ON d.seq = c.device
    WHERE c.entity = 'issue' AND c.field = 'delete' AND c.held = 0 AND c.hlc >= ?
      AND c.hlc = (
        SELECT max(hlc) FROM changes
        WHERE row_id = c.row_id AND entity = 'issue' AND field = 'delete' AND held = 0)
      AND \(deletedTitleSQL("c")) != ''
      AND \(Connection.rowIsDeletedSQL) AND NOT \(Connection.rowIsPurgedSQL)
    """

  static let recentlyDeletedSQL = """
    SELECT c.row_id, c.old_value, c.hlc, d.name, c.device = (SELECT device FROM sync_clock),
      \(deletedTitleSQL("c"))
    \(listedDeletesSQL)
    ORDER BY c.hlc DESC, d.id DESC, c.row_id
    """

  /// How many issues `recentlyDeletedIssues` lists, counted without decoding them (the filter
  /// panes show it on every page).
  public func recentlyDeletedCount() throws -> Int {
    try fetchOne(
      "SELECT count(DISTINCT c.row_id) \(Self.listedDeletesSQL)",
      [RecentlyDeleted.earliestStamp(now: try deletionClock())], as: Int.self) ?? 0
  }

  /// The ids among the recently deleted whose hex digits start with `prefix` (hyphens and case
  /// ignored), at most `limit`: a reference typed for a deleted issue.
  public func recentlyDeletedIDs(withPrefix prefix: String, limit: Int) throws -> [DeletedIssue] {
    let digits = prefix.lowercased().filter { $0 != "-" }
    return Array(
      try recentlyDeletedIssues().filter { IssueReference.hex($0.id).hasPrefix(digits) }
        .prefix(limit))
  }

  /// The shortest reference of each recently deleted issue that tells it from the others and
  /// from every living issue, `IssueReference.minimumLength` digits at least.
  public func references(forDeleted deleted: [DeletedIssue]) throws -> [UUID: String] {
    // In sorted order only the neighbours on either side can share a longer prefix.
    let all = Set(try recentlyDeletedIssues().map { IssueReference.hex($0.id) }).sorted()
    var result: [UUID: String] = [:]
    for issue in deleted {
      let hex = IssueReference.hex(issue.id)
      let own = Array(hex.utf8)
      var length = IssueReference.minimumLength
      if let index = all.firstIndex(of: hex) {
        for neighbour in [index - 1, index + 1] where all.indices.contains(neighbour) {
          length = max(
            length, IssueReference.sharedHexDigits(own, Array(all[neighbour].utf8)) + 1)
        }
      }
      // A living issue with the same first digits would take the reference for itself.
      length = max(length, try neighbourReferenceLength(for: issue.id))
      result[issue.id] = String(hex.prefix(length))
    }
    return result
  }

  /// The injected clock's time (`docket_now`), which tests move.
  func deletionClock() throws -> Date {
    Date(timeIntervalSince1970: try fetchOne("SELECT docket_now()", as: Double.self) ?? 0)
  }
}

extension Connection {
  /// Deletes the issue `id` for good ("delete now"): a living one is deleted first (unless
  /// `onlyIfDeleted`: Recently deleted asks about a deleted issue, and one restored meanwhile
  /// stays), then a `purge` is recorded, which every device follows and no restore undoes. False
  /// when there is no such issue, it lives and `onlyIfDeleted`, or it is gone for good already.
  public func purgeIssue(id: UUID, onlyIfDeleted: Bool = false) throws -> Bool {
    try transaction {
      let row = id.lowercasedText
      if try fetchOne("SELECT 1 FROM issues WHERE id = ?", [row], as: Int.self) != nil {
        if onlyIfDeleted { return false }
        _ = try deleteIssues([id])
      }
      guard
        try fetchOne(
          """
          SELECT 1 FROM (SELECT ? AS row_id) c
          WHERE \(Connection.rowIsDeletedSQL) AND NOT \(Connection.rowIsPurgedSQL)
          """, [row], as: Int.self) != nil
      else { return false }
      try recordPurge(of: row)
      return true
    }
  }

  /// Records the purge of every issue whose latest delete is older than
  /// `RecentlyDeleted.window` and that no one has purged: the 30-day end as a change, which
  /// sync takes to every device (a restore any of them makes later loses to it). Returns how
  /// many.
  @discardableResult
  public func purgeExpiredDeletes() throws -> Int {
    try transaction {
      let ended = try fetchAll(
        """
        SELECT c.row_id, c.hlc FROM changes c INDEXED BY changes_issue_deletes
        WHERE c.entity = 'issue' AND c.field = 'delete' AND c.held = 0 AND c.hlc < ?
          AND c.hlc = (
            SELECT max(hlc) FROM changes
            WHERE row_id = c.row_id AND entity = 'issue' AND field = 'delete' AND held = 0)
          AND \(Connection.rowIsDeletedSQL) AND NOT \(Connection.rowIsPurgedSQL)
        GROUP BY c.row_id
        """, [RecentlyDeleted.earliestStamp(now: try deletionClock())]
      ) { (try $0.get(0, as: String.self), try $0.get(1, as: Int64.self)) }
      for (row, delete) in ended { try recordPurge(of: row, ending: delete) }
      return ended.count
    }
  }

  /// Records a purge of `row`: for good, or (`ending`) the end of the delete of that stamp.
  private func recordPurge(of row: String, ending delete: Int64? = nil) throws {
    try execute("UPDATE sync_clock SET hlc = docket_hlc_tick(hlc)")
    try execute(
      """
      INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
      SELECT hlc, device, 'issue', ?, 'purge', ? FROM sync_clock
      """, [row, delete.map(String.init)])
  }
}
