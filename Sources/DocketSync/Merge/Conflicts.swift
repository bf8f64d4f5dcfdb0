import Database
import DocketCore
import Foundation

/// A value that lost a merge, beside the one kept: listed until someone looks at it.
public struct Conflict: Equatable, Sendable, Identifiable {
  /// The lost change's row in this database's history: what `use` and `dismiss` name.
  public let id: Int64
  public let issueID: UUID
  /// The issue's title now.
  public let title: String
  /// `title`, `detail`, `priority`, `completed` or `created`.
  public let field: String
  public let kept: DatabaseValue
  public let keptBy: String
  public let keptHere: Bool
  public let keptAt: Date
  public let lost: DatabaseValue
  public let lostBy: String
  public let lostHere: Bool
  public let lostAt: Date
}

/// What happened to a conflict `useConflict` or `dismissConflict` was asked about.
public enum ConflictOutcome: Equatable, Sendable {
  case used(Conflict)
  case dismissed(Conflict)
  /// No open conflict has that id (dealt with already, here or on another device).
  case notFound
}

/// The conflicts view (SPEC §10): the values that lost a merge, each beside the value kept.
///
/// A conflict is open while its issue lives, its lost value differs from the value the issue
/// has, and nobody dismissed it. Dismissing is a change of its own (`dismiss`, whose value names
/// the lost change by stamp, device and field), so a conflict dealt with on one device is gone
/// on all. "Use this value" is an edit that sets the lost value, and a dismiss.
extension Connection {
  /// How many conflicts are open: what the Conflicts filter shows beside its name.
  public func conflictCount() throws -> Int {
    try fetchOne(Self.conflictCountSQL, as: Int.self) ?? 0
  }

  /// The open conflicts (of the issue `issue`, or of all), the latest lost value first.
  public func conflicts(issue: UUID? = nil, limit: Int? = nil) throws -> [Conflict] {
    var arguments: [any DatabaseValueConvertible] = []
    var condition = ""
    if let issue {
      condition = " AND c.row_id = ?"
      arguments.append(issue.lowercasedText)
    }
    if let limit { arguments.append(limit) }
    let local = try fetchOne("SELECT device FROM sync_clock", as: Int64.self) ?? 0
    let found = try fetchAll(
      """
      SELECT c.seq, c.row_id, c.field, c.new_value, c.hlc, d.id, d.name, c.device, i.title,
        CASE c.field WHEN 'title' THEN i.title WHEN 'detail' THEN i.detail
          WHEN 'priority' THEN i.priority WHEN 'completed' THEN i.completed ELSE i.created END
      FROM changes c INDEXED BY changes_lost
        JOIN issues i ON i.id = c.row_id JOIN sync_devices d ON d.seq = c.device
      WHERE \(Self.openConflictSQL)\(condition)
      ORDER BY c.hlc DESC, d.id DESC, c.seq DESC\(limit == nil ? "" : " LIMIT ?")
      """, arguments
    ) { row in
      (
        seq: try row.get(0, as: Int64.self), issue: try row.get(1, as: String.self),
        field: try row.get(2, as: String.self), lost: try row.get(3, as: DatabaseValue.self),
        hlc: try row.get(4, as: Int64.self),
        by: Self.deviceLabel(name: try row.get(6, as: String.self), id: try row.get(5)),
        here: try row.get(7, as: Int64.self) == local, title: try row.get(8, as: String.self),
        kept: try row.get(9, as: DatabaseValue.self)
      )
    }
    return try found.compactMap { found in
      guard let issueID = UUID(text: found.issue) else { return nil }
      // The value kept is the field's latest change that counts.
      let keeper = try fetchOne(
        """
        SELECT c.hlc, d.id, d.name, c.device FROM changes c JOIN sync_devices d ON d.seq = c.device
        WHERE c.row_id = ? AND c.field IN (?, 'create', 'restore') AND c.held = 0 AND c.lost = 0
        ORDER BY c.hlc DESC, d.id DESC LIMIT 1
        """, [found.issue, found.field]
      ) { row in
        (
          at: try row.get(0, as: Int64.self),
          by: Self.deviceLabel(name: try row.get(2, as: String.self), id: try row.get(1)),
          here: try row.get(3, as: Int64.self) == local
        )
      }
      return Conflict(
        id: found.seq, issueID: issueID, title: found.title, field: found.field,
        kept: found.kept, keptBy: keeper?.by ?? "", keptHere: keeper?.here ?? true,
        keptAt: HybridClock.date(keeper?.at ?? found.hlc), lost: found.lost, lostBy: found.by,
        lostHere: found.here, lostAt: HybridClock.date(found.hlc))
    }
  }

  /// The open conflict `id`, or nil.
  func openConflict(_ id: Int64) throws -> Conflict? {
    guard
      let issue = try fetchOne(
        "SELECT row_id FROM changes WHERE seq = ?", [id], as: String.self),
      let uuid = UUID(text: issue)
    else { return nil }
    return try conflicts(issue: uuid).first { $0.id == id }
  }

  /// Sets the lost value of conflict `id` on its issue (an edit, which syncs) and dismisses the
  /// conflict, on every device.
  public func useConflict(_ id: Int64) throws -> ConflictOutcome {
    try transaction {
      guard let conflict = try openConflict(id) else { return .notFound }
      // Only the fields a conflict can be of, spelled here, go into the statement.
      guard let field = Self.conflictFields.first(where: { $0 == conflict.field }) else {
        return .notFound
      }
      try execute(
        "UPDATE issues SET \(field) = ? WHERE id = ?",
        [conflict.lost, conflict.issueID.lowercasedText])
      try recordDismissal(of: id)
      return .used(conflict)
    }
  }

  /// Dismisses conflict `id`, keeping the value the issue has, on every device.
  public func dismissConflict(_ id: Int64) throws -> ConflictOutcome {
    try transaction {
      guard let conflict = try openConflict(id) else { return .notFound }
      try recordDismissal(of: id)
      return .dismissed(conflict)
    }
  }

  /// Dismisses every open conflict; returns how many.
  public func dismissAllConflicts() throws -> Int {
    try transaction {
      let ids = try fetchAll(
        """
        SELECT c.seq FROM changes c INDEXED BY changes_lost
          JOIN issues i ON i.id = c.row_id JOIN sync_devices d ON d.seq = c.device
        WHERE \(Self.openConflictSQL)
        """
      ) { try $0.get(0, as: Int64.self) }
      for id in ids { try recordDismissal(of: id) }
      return ids.count
    }
  }

  /// Records, stamped now, that the lost change in row `id` was looked at: a change of its
  /// issue's that syncs, and names the lost change as every device knows it.
  private func recordDismissal(of id: Int64) throws {
    try execute("UPDATE sync_clock SET hlc = docket_hlc_tick(hlc)")
    try execute(
      """
      INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
      SELECT k.hlc, k.device, 'issue', c.row_id, 'dismiss', c.hlc || ' ' || d.id || ' ' || c.field
      FROM sync_clock k, changes c JOIN sync_devices d ON d.seq = c.device WHERE c.seq = ?
      """, [id])
  }

  /// How many conflicts this device has dismissed or used: for the award.
  public func resolvedConflictCount() throws -> Int {
    try fetchOne(
      """
      SELECT count(*) FROM changes
      WHERE field = 'dismiss' AND entity = 'issue' AND device = (SELECT device FROM sync_clock)
      """, as: Int.self) ?? 0
  }
}
