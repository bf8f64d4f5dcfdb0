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
  func partitionNew(_ changes: [Change]) throws -> (new: [String: [Change]], rest: [Change]) {
    var byRow: [String: [Change]] = [:]
    var rest: [Change] = []
    for change in changes {
      if change.entity == .tag {
        rest.append(change)
      } else {
        byRow[change.row, default: []].append(change)
      }
    }
    var new: [String: [Change]] = [:]
    for (row, changes) in byRow {
      let creates = changes.contains { $0.entity == .issue && $0.field == "create" }
      let deletes = changes.contains { $0.entity == .issue && $0.field == "delete" }
      if creates, !deletes, try !isKnown(row) {
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
    var issues: [BulkIssueRow] = []
    issues.reserveCapacity(rows.count)
    for (row, changes) in rows.sorted(by: { $0.key < $1.key }) {
      // The same change twice in one package counts once.
      var seen = Set<String>()
      let changes = changes.filter {
        seen.insert("\($0.field) \($0.stamp.hlc) \($0.stamp.device)").inserted
      }
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
      let latest = changes.max { $0.stamp < $1.stamp }
      // Links: by tag, the latest change through an id of it that was not deleted.
      var links: [String: Change] = [:]
      for change in changes where change.entity == .link {
        if try isDeleted(change.field) { continue }
        let tag = try canonicalTag(change.field)
        if let current = links[tag], current.stamp > change.stamp { continue }
        links[tag] = change
      }
      var tagRows: [Int64] = []
      for (tag, change) in links where change.new == .integer(1) {
        if let seq = try tagSeq(tag) { tagRows.append(seq) }
      }
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
    try db.insertIssuesInBulk(issues, recordingCreations: false)
  }
}
