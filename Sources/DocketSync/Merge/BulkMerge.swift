import Database
import DocketCore
import Foundation

/// Many issues this database has never heard of, made at once from their changes: a new device
/// catching up from a snapshot, or another device's new issues pulled in number. Each is what the
/// change-by-change merge would make of the same changes (each field from its latest change, the
/// time from the latest change, links by their latest change through a live id of the tag), but
/// the rows go in with `insertIssuesInBulk` and the history in one pass.
extension Merger {
  /// Fewer new issues than this go through the merge a change at a time.
  public static let bulkThreshold = 200

  /// Splits `changes` into the rows that can be made at once (no change of theirs recorded here,
  /// a create among theirs, no delete) and the rest.
  mutating func partitionNew(_ changes: [Change]) throws -> (
    new: [String: [Change]], rest: [Change]
  ) {
    var byRow: [String: [Change]] = [:]
    var rest: [Change] = []
    for change in changes {
      if change.entity == .tag {
        rest.append(change)
      } else {
        byRow[change.row, default: []].append(change)
      }
    }
    // A short history is read whole (a device catching up has next to none), a long one asked
    // a row at a time.
    let history = try db.fetchOne("SELECT count(*) FROM changes", as: Int.self) ?? 0
    var known: Set<String>?
    if history < byRow.count {
      known = Set(
        try db.fetchAll("SELECT DISTINCT row_id FROM changes") { try $0.get(0, as: String.self) })
    }
    var new: [String: [Change]] = [:]
    for (row, changes) in byRow {
      let creates = changes.contains { $0.entity == .issue && $0.field == "create" }
      let deletes = changes.contains {
        $0.entity == .issue && ["delete", "restore", "purge"].contains($0.field)
      }
      // A change to hold back, to set aside or to question (one that says this device made it)
      // goes through the merge a change at a time.
      var plain = true
      for change in changes where plain {
        let after = try retiredAfter(try device(change.stamp.device))
        plain =
          change.stamp.hlc <= bound && change.stamp.device != local && change.stamp.hlc <= after
      }
      if creates, !deletes, plain, try !(known?.contains(row) ?? isKnown(row)) {
        new[row] = changes
      } else {
        rest += changes
      }
    }
    return (new, rest)
  }

  private func isKnown(_ row: String) throws -> Bool {
    try db.fetchOne("SELECT 1 FROM changes WHERE row_id = ? LIMIT 1", [row], as: Int.self) != nil
  }

  /// Makes the issues of `rows` and records their changes.
  mutating func insertNew(_ rows: [String: [Change]]) throws {
    // The tags the links name, looked up before the history's indexes go.
    var tags = TagRows()
    for changes in rows.values {
      for change in changes where change.entity == .link { _ = try tags.row(change.field, self) }
    }
    let count = rows.values.reduce(0) { $0 + $1.count }
    try db.settingChangeIndexesAside(for: count) { try insertRows(rows, tags: &tags) }
  }

  private mutating func insertRows(_ rows: [String: [Change]], tags: inout TagRows) throws {
    var issues: [BulkIssueRow] = []
    issues.reserveCapacity(rows.count)
    for (row, changes) in rows.sorted(by: { $0.key < $1.key }) {
      // The same change twice in one package counts once; two of one stamp and other values
      // (twins), as the merge a change at a time keeps them: the one whose line sorts later.
      var kept: [String: (index: Int, line: [UInt8])] = [:]
      var order: [String] = []
      for (index, change) in changes.enumerated() {
        let key = "\(change.field) \(change.stamp.hlc) \(change.stamp.device)"
        let line = Self.encoded(change)
        guard let held = kept[key] else {
          kept[key] = (index, line)
          order.append(key)
          continue
        }
        if held.line != line {
          summary.twins[change.stamp.device, default: 0] += 1
          if held.line.lexicographicallyPrecedes(line) { kept[key] = (index, line) }
        }
      }
      let changes = order.map { changes[kept[$0]!.index] }
      var fields: [String: (stamp: Stamp, value: DatabaseValue, change: Int)] = [:]
      var lost = [Bool](repeating: false, count: changes.count)
      for (index, change) in changes.enumerated() where change.entity == .issue {
        let values: [String: DatabaseValue] =
          change.field == "create" ? try createValues(change.new) : [change.field: change.new]
        for (field, value) in values where Schema.syncedIssueFields.contains(field) {
          if let current = fields[field], current.stamp > change.stamp {
            if change.field == field,
              Self.conflicts(earlierNew: change.new, laterOld: changes[current.change].old)
            {
              lost[index] = true
            }
            continue
          }
          if let current = fields[field], changes[current.change].field == field,
            change.field == field,
            Self.conflicts(earlierNew: changes[current.change].new, laterOld: change.old)
          {
            lost[current.change] = true
          }
          fields[field] = (change.stamp, value, index)
        }
      }
      // A dismissed conflict changes no field, and carries no time.
      let latest = changes.filter { $0.field != "dismiss" && $0.field != "purge" }
        .max { $0.stamp < $1.stamp }
      // Links: by tag, the latest change through an id of it that was not deleted.
      var links: [Int64: Change] = [:]
      for change in changes where change.entity == .link {
        guard let seq = try tags.row(change.field, self) else { continue }
        if let current = links[seq], current.stamp > change.stamp { continue }
        links[seq] = change
      }
      let tagRows = links.filter { $0.value.new == .integer(1) }.map(\.key)
      for (index, change) in changes.enumerated() {
        try record(change, device: try device(change.stamp.device), lost: lost[index])
        summary.received += 1
        summary.latest = max(summary.latest, change.stamp.hlc)
      }
      func real(_ value: DatabaseValue?) -> Double? {
        switch value {
        case .real(let number)?: number
        case .integer(let number)?: Double(number)
        default: nil
        }
      }
      func integer(_ value: DatabaseValue?) -> Int64 {
        if case .integer(let number)? = value { return number }
        return 0
      }
      func text(_ value: DatabaseValue?) -> String {
        if case .text(let text)? = value { return text }
        return ""
      }
      issues.append(
        BulkIssueRow(
          id: row, title: text(fields["title"]?.value), detail: text(fields["detail"]?.value),
          priority: Int(max(0, min(2, integer(fields["priority"]?.value)))),
          completed: integer(fields["completed"]?.value) == 1,
          created: real(fields["created"]?.value) ?? 0, modified: latest?.modified,
          tagRows: tagRows.sorted()))
    }
    try db.insertIssuesInBulk(&issues, recordingCreations: false)
  }
}

/// The rows of tags by id, as the new issues' links name them: nil for an id that was deleted or
/// whose tag is not here. Looked up once per id.
struct TagRows {
  private var rows: [String: Int64?] = [:]

  mutating func row(_ id: String, _ merger: Merger) throws -> Int64? {
    if let known = rows[id] { return known }
    let row = try merger.isDeleted(id) ? nil : merger.tagSeq(try merger.canonicalTag(id))
    rows[id] = row
    return row
  }
}
