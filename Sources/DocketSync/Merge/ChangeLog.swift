import Database
import DocketCore
import Foundation

/// Reading the changes a database has recorded: this device's, to push; the winning ones, for a
/// snapshot; an issue's, for its history.
extension Connection {
  /// This database's device id (made by the schema).
  public func localDeviceID() throws -> String {
    try fetchOne(
      "SELECT d.id FROM sync_clock c JOIN sync_devices d ON d.seq = c.device", as: String.self)!
  }

  /// The highest row of the history (local and received): where a push can start from.
  public func latestChangeSeq() throws -> Int64 {
    try fetchOne("SELECT coalesce(max(seq), 0) FROM changes", as: Int64.self) ?? 0
  }

  /// Up to `limit` of this device's changes (or those of the device `device`) that count,
  /// recorded after row `after`, oldest first, each with its history row.
  public func changesToPush(after: Int64, limit: Int, device: String? = nil) throws
    -> [(seq: Int64, change: Change)]
  {
    let which =
      device == nil
      ? "(SELECT device FROM sync_clock)" : "(SELECT seq FROM sync_devices WHERE id = ?)"
    let arguments: [any DatabaseValueConvertible] =
      device.map { [after, $0, limit] } ?? [after, limit]
    return try fetchAll(
      """
      SELECT c.seq, c.hlc, d.id, c.entity, c.row_id, c.field, c.old_value, c.new_value, c.modified
      FROM changes c JOIN sync_devices d ON d.seq = c.device
      WHERE c.seq > ? AND c.device = \(which) AND c.held = 0 ORDER BY c.seq LIMIT ?
      """, arguments
    ) { row in (try row.get(0, as: Int64.self), try Merger.change(row, from: 1)) }
  }

  /// The row of this device's latest change (0 before any): it grows with every local edit and
  /// never with what sync receives.
  public func latestLocalChangeSeq() throws -> Int64 {
    try fetchOne(
      "SELECT coalesce(max(seq), 0) FROM changes WHERE device = (SELECT device FROM sync_clock)",
      as: Int64.self) ?? 0
  }

  /// How many of this device's changes come after row `after`.
  public func localChangeCount(after: Int64) throws -> Int {
    try fetchOne(
      """
      SELECT count(*) FROM changes
      WHERE seq > ? AND device = (SELECT device FROM sync_clock) AND held = 0
      """,
      [after], as: Int.self) ?? 0
  }

  /// Everything this database holds, as the fewest changes that make it: for each row and field
  /// the latest change, a deleted row only as its delete. (A link to a deleted tag stays: it may
  /// be its issue's latest change, whose time the issue shows.)
  /// Applied to an empty database (or merged into one), they give the same data as the full
  /// history. Old values are left out: a snapshot carries no history.
  public func forEachWinningChange(_ body: (Change) throws -> Void) throws {
    // Of a deleted row, its latest delete goes, and what was changed after it (a restore this
    // device has not heard of yet, stamped before those changes, would bring them back); of a
    // restored one, no field's or link's change older than the restore, which carries every
    // field and links its tags anew. Every dismissed conflict goes (each
    // names its own lost change), so that none comes back on a device that reads the snapshot. Changes held back go as they are: the
    // snapshot covers the files they came in, and a device that reads it holds them too.
    try forEachRow(
      """
      SELECT c.hlc, d.id, c.entity, c.row_id, c.field, c.new_value, c.modified
      FROM changes c JOIN sync_devices d ON d.seq = c.device
      WHERE c.held = 1 OR (c.held = 0 AND c.field = 'dismiss') OR (c.held = 0 AND NOT EXISTS (
          SELECT 1 FROM changes later JOIN sync_devices ld ON ld.seq = later.device
          WHERE later.row_id = c.row_id AND later.field = c.field AND later.held = 0
            AND (later.hlc > c.hlc OR (later.hlc = c.hlc AND ld.id > d.id)))
        AND (c.field IN ('delete', 'purge') OR NOT \(Connection.rowIsDeletedSQL)
          OR (NOT \(Connection.rowIsPurgedSQL) AND c.hlc >= (
            SELECT max(gone.hlc) FROM changes gone
            WHERE gone.row_id = c.row_id AND gone.field = 'delete' AND gone.held = 0)))
        AND NOT (((c.entity = 'issue'
            AND c.field NOT IN ('create', 'restore', 'delete', 'purge')) OR c.entity = 'link')
          AND EXISTS (
            SELECT 1 FROM changes back WHERE back.row_id = c.row_id AND back.field = 'restore'
              AND back.held = 0 AND back.hlc > c.hlc)))
      ORDER BY c.hlc, d.id
      """
    ) { row in
      try body(
        Change(
          stamp: Stamp(
            hlc: try row.get(0, as: Int64.self), device: try row.get(1, as: String.self)),
          entity: Change.Entity(rawValue: try row.get(2, as: String.self)) ?? .issue,
          row: try row.get(3, as: String.self), field: try row.get(4, as: String.self),
          new: try row.get(5, as: DatabaseValue.self), modified: try row.get(6, as: Double?.self)))
    }
  }

  /// The names of the devices this database has heard of, by id.
  public func deviceNames() throws -> [String: String] {
    var names: [String: String] = [:]
    try forEachRow("SELECT id, name FROM sync_devices") { row in
      names[try row.get(0, as: String.self)] = try row.get(1, as: String.self)
    }
    return names
  }

  /// Keeps this device's name with its id, as other devices will hear it.
  public func recordLocalDeviceName(_ name: String) throws {
    try execute(
      "UPDATE sync_devices SET name = ? WHERE seq = (SELECT device FROM sync_clock)", [name])
  }

  /// Every issue, tag and link, in one canonical text (sorted, dates exact): two databases that
  /// hold the same data give the same text. For tests and for checking devices agree.
  public func canonicalDump() throws -> String {
    var lines: [String] = []
    try forEachRow(
      """
      SELECT id, title, detail, priority, completed, created, modified FROM issues
      ORDER BY id
      """
    ) { row in
      let fields = try (0..<7).map { index -> String in
        switch try row.get(index, as: DatabaseValue.self) {
        case .null: "nil"
        case .integer(let number): String(number)
        case .real(let number): String(number.bitPattern)
        case .text(let text): text.debugDescription
        case .blob: "blob"
        }
      }
      lines.append("issue " + fields.joined(separator: " "))
    }
    try forEachRow("SELECT id, name FROM tags ORDER BY id") { row in
      lines.append(
        "tag \(try row.get(0, as: String.self)) \(try row.get(1, as: String.self).debugDescription)"
      )
    }
    try forEachRow(
      """
      SELECT i.id, t.id FROM issue_tags l JOIN issues i ON i.seq = l.issue_seq
        JOIN tags t ON t.seq = l.tag_seq ORDER BY i.id, t.id
      """
    ) { row in
      lines.append("link \(try row.get(0, as: String.self)) \(try row.get(1, as: String.self))")
    }
    return lines.joined(separator: "\n")
  }
}
