import Database
import DocketCore
import Foundation

extension Connection {
  /// Brings back the deleted issue `id` as it was when it was deleted (its fields, and its tags
  /// that still live), as a restore stamped now: it wins over the delete on every device, as any
  /// restore stamped later does. Nil when no delete of it counts (it lives, or never was) or
  /// when it was deleted longer ago than `RecentlyDeleted.window`: it is gone for good.
  public func restoreDeletedIssue(id: UUID) throws -> Issue? {
    let row = id.lowercasedText
    return try transaction {
      guard
        try fetchOne(
          """
          SELECT 1 FROM (SELECT ? AS row_id) c
          WHERE \(Connection.rowIsDeletedSQL) AND NOT \(Connection.rowIsPurgedSQL)
          """, [row], as: Int.self) != nil
      else { return nil }
      // The delete that counts is the latest: it holds the fields as they were then.
      guard
        let (deleted, at) = try fetchOne(
          """
          SELECT c.old_value, c.hlc FROM changes c JOIN sync_devices d ON d.seq = c.device
          WHERE c.row_id = ? AND c.entity = 'issue' AND c.field = 'delete' AND c.held = 0
          ORDER BY c.hlc DESC, d.id DESC LIMIT 1
          """, [row],
          { row in (try row.get(0, as: DatabaseValue.self), try row.get(1, as: Int64.self)) })
      else { return nil }
      guard at >= RecentlyDeleted.earliestStamp(now: try deletionClock()) else { return nil }
      let values = try Merger(db: self).createValues(deleted)
      // Its title as the list shows it: within the limits (`recentlyDeletedIssues`).
      guard
        let title = try fetchOne(
          """
          SELECT \(Connection.deletedTitleSQL("c")) AS title FROM (SELECT ? AS old_value) c
          WHERE title IS NOT NULL
          """, [deleted], as: String.self), !title.isEmpty
      else { return nil }
      func text(_ field: String) -> String {
        if case .text(let value)? = values[field] { value } else { "" }
      }
      func number(_ field: String) -> Int64 {
        if case .integer(let value)? = values[field] { value } else { 0 }
      }
      // A detail an older Docket kept beyond the limits, brought within them rather than lost.
      let detail =
        try fetchOne(
          """
          SELECT docket_within_limits('detail', json_extract(?, '$.detail'))
          WHERE json_type(?, '$.detail') = 'text'
          """, [deleted, deleted], as: String.self) ?? ""
      // Without a creation time it kept, the delete's own: the same on every device.
      let created: Date
      if case .real(let seconds)? = values["created"] {
        created = Date(timeIntervalSince1970: seconds)
      } else {
        created = HybridClock.date(at)
      }
      // Its tags then: each link's latest change up to the delete, where it was on; a tag since
      // merged into another is found by its name.
      var linked: [String: Bool] = [:]
      try forEachRow(
        """
        SELECT field, CAST(new_value AS INTEGER) FROM changes
        WHERE entity = 'link' AND row_id = ?1 AND hlc <= ?2 AND held = 0 AND lost = 0
          AND hlc > coalesce((
            SELECT max(hlc) FROM changes
            WHERE row_id = ?1 AND entity = 'issue' AND field = 'restore' AND held = 0
              AND hlc <= ?2), 0)
        ORDER BY hlc, seq
        """, [row, at]
      ) { link in linked[try link.get(0, as: String.self)] = try link.get(1, as: Int64.self) == 1 }
      var tags: [Tag] = []
      for (tagID, on) in linked where on {
        guard let uuid = UUID(text: tagID) else { continue }
        let live: Tag?
        if let tag = try fetchTag(id: uuid) {
          live = tag
        } else if let name = try fetchOne(
          "SELECT name FROM sync_tag_names WHERE id = ?", [tagID], as: String.self)
        {
          live = try fetchTag(named: name)
        } else {
          live = nil
        }
        if let live, !tags.contains(where: { $0.id == live.id }) { tags.append(live) }
      }
      try insertIssue(
        Issue(
          id: id, title: title, detail: detail,
          priority: Priority(rawValue: Int(number("priority"))) ?? .low,
          completed: number("completed") == 1, created: created, tags: tags))
      try recordAsRestore(issue: id)
      return try fetchIssue(id: id)
    }
  }
}
