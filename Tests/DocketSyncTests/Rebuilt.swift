import Database
import DocketCore
import Foundation

@testable import DocketSync

/// The replica's data as its recorded changes alone make it: issues, tags and links thrown away
/// and made again by the merge, in a savepoint given up after. A device whose data differs from
/// this holds something no change says, which the other devices will not hold.
func rebuiltDump(_ replica: Replica) throws -> String {
  try replica.queue.write { db in
    try db.execute("SAVEPOINT rebuild")
    let dump: String
    do {
      dump = try rebuild(db)
    } catch {
      try db.execute("ROLLBACK TO rebuild")
      try db.execute("RELEASE rebuild")
      throw error
    }
    try db.execute("ROLLBACK TO rebuild")
    try db.execute("RELEASE rebuild")
    return dump
  }
}

private func rebuild(_ db: Connection) throws -> String {
  try db.execute("UPDATE sync_clock SET applying = 1")
  for table in ["issue_tags", "tags", "sync_tag_names", "issues"] {
    try db.execute("DELETE FROM \(table)")
  }
  var merger = Merger(db: db)
  let tags = try db.fetchAll(
    "SELECT DISTINCT row_id FROM changes WHERE entity = 'tag' ORDER BY 1"
  ) { try $0.get(0, as: String.self) }
  for id in tags { try merger.settleTagID(id) }
  let issues = try db.fetchAll(
    "SELECT DISTINCT row_id FROM changes WHERE entity IN ('issue', 'link') ORDER BY 1"
  ) { try $0.get(0, as: String.self) }
  for id in issues { try merger.recomputeIssue(id) }
  return try db.canonicalDump()
}
