import Database
import DocketCore
import DocketTransfer
import Foundation

/// The merge's record of every change, and the rule of which change wins.
extension Merger {
  /// Records a change; `lost` marks a value that lost a conflict, `held` one held back (1) or
  /// void (2).
  mutating func record(_ change: Change, device: Int64, lost: Bool = false, held: Int = 0) throws {
    if lost, held == 0 { summary.lost += 1 }
    try db.execute(
      """
      INSERT INTO changes (
        hlc, device, entity, row_id, field, old_value, new_value, modified, lost, held)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        change.stamp.hlc, device, change.entity.rawValue, change.row, change.field, change.old,
        change.new, change.modified, lost, held,
      ])
  }

  /// A recorded change that won, for a row and any of `fields`.
  struct Winner {
    var seq: Int64
    var stamp: Stamp
    var field: String
    var old: DatabaseValue
    var new: DatabaseValue
    var modified: Double?
  }

  /// The latest recorded change of `row` among `fields` (all of the row's but deletes when
  /// nil) that counts (neither held nor void).
  func winner(row: String, fields: [String]?) throws -> Winner? {
    var sql = """
      SELECT c.seq, c.hlc, d.id, c.field, c.old_value, c.new_value, c.modified
      FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.row_id = ? AND c.held = 0
      """
    var arguments: [any DatabaseValueConvertible] = [row]
    if let fields {
      sql += " AND c.field IN (\(fields.map { _ in "?" }.joined(separator: ", ")))"
      arguments += fields
    } else {
      sql += " AND c.field NOT IN ('delete', 'dismiss', 'purge')"
    }
    sql += " ORDER BY c.hlc DESC, d.id DESC, c.field DESC, c.seq DESC LIMIT 1"
    return try db.fetchOne(sql, arguments) { row in
      Winner(
        seq: try row.get(0, as: Int64.self),
        stamp: Stamp(hlc: try row.get(1, as: Int64.self), device: try row.get(2, as: String.self)),
        field: try row.get(3, as: String.self), old: try row.get(4, as: DatabaseValue.self),
        new: try row.get(5, as: DatabaseValue.self), modified: try row.get(6, as: Double?.self))
    }
  }

  /// The order of `winner`'s `ORDER BY c.hlc, d.id, c.field` (text compared as SQLite compares
  /// it, by its bytes), so that every device picks the same change however they arrived; the
  /// row recorded later after only where all three are equal.
  static func sortsBefore(_ a: Winner, _ b: Winner) -> Bool {
    if a.stamp.hlc != b.stamp.hlc { return a.stamp.hlc < b.stamp.hlc }
    if a.stamp.device != b.stamp.device {
      return a.stamp.device.utf8.lexicographicallyPrecedes(b.stamp.device.utf8)
    }
    if a.field != b.field { return a.field.utf8.lexicographicallyPrecedes(b.field.utf8) }
    return a.seq < b.seq
  }

  /// Whether `row` is deleted: a delete of it counts that no restore stamped later undoes.
  func isDeleted(_ row: String) throws -> Bool {
    try db.fetchOne(
      "SELECT 1 FROM (SELECT ? AS row_id) c WHERE \(Connection.rowIsDeletedSQL)", [row],
      as: Int.self) != nil
  }

  /// Marks a recorded change as having lost a conflict.
  mutating func markLost(_ seq: Int64) throws {
    try db.execute("UPDATE changes SET lost = 1 WHERE seq = ?", [seq])
  }

  /// Whether the later of two changes of one field was made without seeing the earlier one's
  /// value: then the earlier value lost a conflict; else it was simply edited after.
  static func conflicts(earlierNew: DatabaseValue, laterOld: DatabaseValue) -> Bool {
    earlierNew != laterOld
  }
}
