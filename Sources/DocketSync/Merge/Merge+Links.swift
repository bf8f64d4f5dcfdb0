import Database
import DocketCore
import DocketTransfer
import Foundation

/// The merge's rules for the links between issues and tags.
extension Merger {
  mutating func applyToLink(_ change: Change, device: Int64) throws {
    let rowLatest = try winner(row: change.row, fields: nil)?.stamp
    if try isDeleted(change.row) || isDeleted(change.field) {
      try record(change, device: device, lost: true)
      // The issue's time follows its latest change, applied or not, as on the device that made it.
      if try issueSeq(change.row) != nil { try touch(change, rowLatest: rowLatest) }
      return
    }
    try record(change, device: device)
    guard try issueSeq(change.row) != nil else { return }
    try touch(change, rowLatest: rowLatest)
    // A link to a tag that has not arrived waits for it (`settlePendingLinks`).
    let group = try canonicalTag(change.field)
    guard try tagSeq(group) != nil else { return }
    try settleLink(issue: change.row, tag: group)
  }

  /// Puts the link between an issue and a tag as its latest change says, the changes made through
  /// any of the tag's live ids counting.
  mutating func settleLink(issue: String, tag canonical: String) throws {
    guard let issueRow = try issueSeq(issue), let tagRow = try tagSeq(canonical) else { return }
    let members = try liveMembers(of: canonical)
    var current = try winner(row: issue, fields: members)
    // A restore brings the issue back with the tags it had when deleted, each linked anew after
    // it: a link changed before it (before the delete, or while deleted on a device that had
    // not heard) no longer counts, however the changes arrived.
    if let link = current, let restore = try winner(row: issue, fields: ["restore"]),
      link.stamp < restore.stamp
    {
      current = nil
    }
    if current?.new == .integer(1) {
      try db.execute(
        "INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [issueRow, tagRow])
    } else {
      try db.execute(
        "DELETE FROM issue_tags WHERE issue_seq = ? AND tag_seq = ?", [issueRow, tagRow])
    }
  }
}
