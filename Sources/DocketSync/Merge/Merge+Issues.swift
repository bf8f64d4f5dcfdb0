import Database
import DocketCore
import DocketTransfer
import Foundation
import JSONText

/// The merge's rules for an issue's fields.
extension Merger {
  mutating func applyToIssue(_ change: Change, device: Int64) throws {
    // A conflict looked at: recorded, and the conflicts view reads it; no field changes.
    if change.field == "dismiss" {
      try record(change, device: device)
      return
    }
    let exists = try issueSeq(change.row) != nil
    if change.field == "purge" {
      // Deleted for good (`Connection.rowIsPurgedSQL` says which restores still count).
      try record(change, device: device)
      if exists { try recomputeIssue(change.row) }
      return
    }
    if change.field == "delete" {
      // Edits the deleting device had not seen (their values are not the ones it deleted) lost.
      let deleted = try createValues(change.old)
      if exists, !deleted.isEmpty {
        for field in Schema.syncedIssueFields {
          if let current = try winner(row: change.row, fields: [field]),
            current.new != deleted[field]
          {
            try markLost(current.seq)
          }
        }
      }
      try record(change, device: device)
      // A restore stamped later keeps it.
      if exists, try isDeleted(change.row) {
        try db.execute("DELETE FROM issues WHERE id = ?", [change.row])
      }
      return
    }
    if change.field == "restore" {
      // Brought back with the values it carries, where a restore is the latest of the row's
      // deletes and restores; a field edited after it keeps its edit.
      try record(change, device: device)
      try recomputeIssue(change.row)
      return
    }
    if try isDeleted(change.row) {
      try record(change, device: device, lost: true)
      return
    }
    if change.field == "create" {
      if exists {
        // The same issue made on two devices (an import of the same file): each field merges.
        let values = try createValues(change.new)
        let rowLatest = try winner(row: change.row, fields: nil)?.stamp
        try record(change, device: device)
        for field in Schema.syncedIssueFields {
          guard let value = values[field] else { continue }
          try writeField(field, value: value, of: change.row, ifLaterThan: change.stamp)
        }
        try touch(change, rowLatest: rowLatest)
      } else {
        try record(change, device: device)
        try materializeIssue(change.row)
      }
      return
    }
    guard exists else {
      // An edit of an issue whose create has not arrived: kept until it does.
      try record(change, device: device)
      return
    }
    let current = try winner(row: change.row, fields: [change.field, "create", "restore"])
    let rowLatest = try winner(row: change.row, fields: nil)?.stamp
    if let current, current.stamp > change.stamp {
      let lost =
        current.field == change.field
        && Self.conflicts(earlierNew: change.new, laterOld: current.old)
      try record(change, device: device, lost: lost)
      return
    }
    if let current, current.field == change.field,
      Self.conflicts(earlierNew: current.new, laterOld: change.old)
    {
      try markLost(current.seq)
    }
    try record(change, device: device)
    try db.execute("UPDATE issues SET \(change.field) = ? WHERE id = ?", [change.new, change.row])
    try touch(change, rowLatest: rowLatest)
  }

  /// The issue's `modified` follows its latest change.
  func touch(_ change: Change, rowLatest: Stamp?) throws {
    if rowLatest == nil || change.stamp > rowLatest! {
      try db.execute(
        "UPDATE issues SET modified = ? WHERE id = ?", [change.modified, change.row])
    }
  }

  /// Writes a field if no recorded change of it (other than at `stamp`) is later.
  func writeField(
    _ field: String, value: DatabaseValue, of row: String, ifLaterThan stamp: Stamp
  ) throws {
    let current = try winner(row: row, fields: [field, "create", "restore"])
    guard current == nil || current!.stamp <= stamp else { return }
    try db.execute("UPDATE issues SET \(field) = ? WHERE id = ?", [value, row])
  }

  func issueSeq(_ id: String) throws -> Int64? {
    try db.fetchOne("SELECT seq FROM issues WHERE id = ?", [id], as: Int64.self)
  }

  /// A create's fields, from its JSON: text as text, numbers as whole numbers, and the time
  /// (written as text there: SQLite writes a real in JSON with 15 digits, which loses the last
  /// bits of a time) read back exactly.
  func createValues(_ value: DatabaseValue) throws -> [String: DatabaseValue] {
    guard case .text(let json) = value,
      let members = (try? JSONReader.document(Array(json.utf8)))?.members
    else { return [:] }
    var values: [String: DatabaseValue] = [:]
    for (key, member) in members {
      switch member {
      case .string(let text):
        values[key] = key == "created" ? Double(text).map { .real($0) } ?? .null : .text(text)
      case .number(let number) where key == "created":
        values[key] = number.isFinite ? .real(number) : .null
      case .number(let number):
        values[key] = abs(number) < 1e15 ? .integer(Int64(number)) : .null
      default:
        values[key] = .null
      }
    }
    // A field whose value it cannot take (a priority of 7) is left out: the issue keeps its
    // default there, as the device that made it could never have had otherwise.
    return values.filter { key, value in
      !Schema.syncedIssueFields.contains(key) || Change.isValid(value, field: key, entity: .issue)
    }
  }

  /// Makes an issue from every change recorded for it: each field from its latest change, its
  /// links from theirs.
  mutating func materializeIssue(_ id: String) throws {
    // The row's changes that count, read once (an issue made anew has a few: its create, its
    // links), and each field's winner picked from them as `winner` picks it.
    var counted: [(change: Winner, link: Bool)] = []
    try db.forEachRow(
      """
      SELECT c.seq, c.hlc, d.id, c.field, c.old_value, c.new_value, c.modified, c.entity
      FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.row_id = ? AND c.held = 0
      """, [id]
    ) { row in
      counted.append(
        (
          Winner(
            seq: try row.get(0, as: Int64.self),
            stamp: Stamp(
              hlc: try row.get(1, as: Int64.self), device: try row.get(2, as: String.self)),
            field: try row.get(3, as: String.self), old: try row.get(4, as: DatabaseValue.self),
            new: try row.get(5, as: DatabaseValue.self),
            modified: try row.get(6, as: Double?.self)),
          try row.get(7, as: String.self) == "link"
        ))
    }
    func latest(_ counts: (String) -> Bool) -> Winner? {
      counted.map(\.change).filter { counts($0.field) }.max { Self.sortsBefore($0, $1) }
    }
    var values: [String: DatabaseValue] = [:]
    for field in Schema.syncedIssueFields {
      guard let current = latest({ $0 == field || $0 == "create" || $0 == "restore" }) else {
        continue
      }
      values[field] =
        current.field == "create" || current.field == "restore"
        ? try createValues(current.new)[field] : current.new
    }
    let modified = latest { !["delete", "dismiss", "purge"].contains($0) }?.modified
    try db.execute(
      """
      INSERT INTO issues (id, title, detail, priority, completed, created, modified)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [
        id, values["title"] ?? .text(""), values["detail"] ?? .text(""),
        values["priority"] ?? .integer(0), values["completed"] ?? .integer(0),
        values["created"] ?? .real(0), modified,
      ])
    let tagFields = Set(counted.filter(\.link).map(\.change.field))
    var groups: Set<String> = []
    for field in tagFields { groups.insert(try canonicalTag(field)) }
    for group in groups { try settleLink(issue: id, tag: group) }
  }
}
