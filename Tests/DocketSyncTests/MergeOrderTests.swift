import Database
import DocketCore
import Foundation
import Testing

@testable import DocketSync

/// Two changes of one row can carry the same stamp (one edit of several fields); which of them
/// counts must follow from what they are, never from the order they arrived in, or two devices
/// that received them in a different order would show different values.
@Suite struct MergeOrderTests {
  private func winner(seq: Int64, field: String, hlc: Int64 = 7, device: String = "b")
    -> Merger.Winner
  {
    Merger.Winner(
      seq: seq, stamp: Stamp(hlc: hlc, device: device), field: field, old: .null,
      new: .text(field), modified: nil)
  }

  @Test func aTieOnTheStampIsBrokenByTheFieldNotTheArrival() {
    // "title" sorts after "create" by its bytes, whichever arrived first.
    for (first, second) in [("create", "title"), ("title", "create")] {
      let early = winner(seq: 1, field: first)
      let late = winner(seq: 2, field: second)
      let latest = [early, late].max { Merger.sortsBefore($0, $1) }
      #expect(latest?.field == "title", "\(first) then \(second)")
    }
    // The stamp still comes first: an earlier stamp loses whatever its field.
    #expect(Merger.sortsBefore(winner(seq: 2, field: "title", hlc: 6), winner(seq: 1, field: "a")))
    #expect(
      Merger.sortsBefore(winner(seq: 2, field: "title", device: "a"), winner(seq: 1, field: "a")))
  }

  /// The query that finds the winning change of a row and the order in memory agree.
  @Test func theQueryPicksWhatTheOrderPicks() throws {
    for fields in [["create", "title"], ["title", "create"]] {
      let queue = try DocketDatabase.inMemory(now: { Date() })
      let picked = try queue.write { db -> String? in
        try db.execute("INSERT INTO sync_devices (id) VALUES ('b')")
        let device = try db.fetchOne("SELECT seq FROM sync_devices WHERE id = 'b'", as: Int64.self)
        for field in fields {
          try db.execute(
            """
            INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value)
            VALUES (7, ?, 'issue', 'row', ?, NULL, ?)
            """, [device, field, field])
        }
        return try Merger(db: db).winner(row: "row", fields: nil)?.field
      }
      #expect(picked == "title", "\(fields)")
    }
  }
}
