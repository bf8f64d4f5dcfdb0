import Database
import DocketCore
import Foundation

/// A clock that ran ahead, repaired. This device's hybrid logical clock never counts further
/// than `HybridClock.maxDrift` past its own wall clock for what arrives (a change stamped further
/// ahead is held, `Merger`), but its own edits follow its wall clock: a wall clock set a year
/// ahead stamps them a year ahead, and a database an older Docket let follow a stamp from the
/// year 4000 stamps every later edit after it. Other devices hold such changes back; so that the
/// edits reach them, and theirs can win again, the first sync once the clock is more than the
/// drift ahead of the wall clock:
///
/// - retires this device's id from the stamp the drift allows on (a change of its own, pushed
///   as its last): every device, wherever the retirement arrives, keeps its changes stamped
///   after that as void, in the history as lost;
/// - holds back what other devices stamped that far ahead (changes an older Docket applied),
///   like any held change;
/// - goes on as a new device, its clock back at its wall clock, and makes again, stamped now,
///   whatever its retired changes had made: the data stays as its user left it, with stamps
///   every device takes.
extension SyncEngine {
  /// Repairs the clock when it is more than the drift ahead of the wall clock; returns this
  /// database's new device id when it did.
  func repairClock(remote key: String) throws -> String? {
    // Looked at first without the writer's lock: nearly always, the clock is where it should be.
    let ahead = try database.read { db in
      let now = try db.fetchOne("SELECT docket_now()", as: Double.self) ?? 0
      let clock = try db.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0
      return clock > HybridClock.repairBound(wall: Date(timeIntervalSince1970: now))
    }
    guard ahead else { return nil }
    return try database.write { db -> String? in
      let now = try db.fetchOne("SELECT docket_now()", as: Double.self) ?? 0
      let clock = try db.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0
      let far = HybridClock.repairBound(wall: Date(timeIntervalSince1970: now))
      guard clock > far else { return nil }
      // Its clock is far ahead of its wall clock: the wall clock was ahead and is set right,
      // or it is the one that is wrong now, behind the others. The others say which: when most
      // of their wall clocks are as far ahead, this device's wall clock is behind, and its
      // stamps are theirs (it says its clock looks wrong, `clockLooksBehind`). A device's wall
      // clock is read from the time its latest edit carries (`modified`), not its stamps: an
      // older Docket let a device's stamps follow a far one it applied, its wall clock right;
      // and a device whose clock was ahead once and is set right (a copy of this database, say)
      // says so with its next edit. Only an edit's time is its device's clock (a link or a
      // delete carries the issue's time, an import the file's), and never later than its
      // stamp's: a date from the future in an imported file says nothing of the clock that
      // imported it. A retired device says nothing any more.
      // A device whose latest edit kept an older date (an import's, a restore's) reads as that
      // date, not ahead: where most others did so, a device whose own clock was set behind
      // repairs instead of waiting, and its edits of that while lose to theirs (kept in the
      // history as lost). Reading the furthest edit instead split copies of a database set
      // right together for good; this splits nothing.
      // (`entity != 'issue'`, always so here, lets SQLite use the tags' and links' index.)
      let retired =
        "SELECT device FROM changes WHERE entity = 'device' AND entity != 'issue' AND field = 'retire' AND held = 0"
      var latest: [Int64: (stamp: Int64, wall: Double?)] = [:]
      try db.forEachRow(
        """
        SELECT device, max(hlc) FROM changes
        WHERE held IN (0, 1) AND device != (SELECT device FROM sync_clock)
          AND entity != 'device' AND device NOT IN (\(retired))
        GROUP BY device
        """
      ) { latest[try $0.get(0, as: Int64.self)] = (try $0.get(1, as: Int64.self), nil) }
      // Each device's latest edit, in one pass: SQLite takes the other columns of a row chosen
      // by a lone max() from that row.
      try db.forEachRow(
        """
        SELECT device, max(hlc), min(modified, (hlc >> \(HybridClock.counterBits)) / 1000.0)
        FROM changes
        WHERE held IN (0, 1) AND entity = 'issue'
          AND field IN ('title', 'detail', 'priority', 'completed') AND modified IS NOT NULL
        GROUP BY device
        """
      ) { row in
        let device = try row.get(0, as: Int64.self)
        latest[device]?.wall = try row.get(2, as: Double.self)
      }
      let farWall = now + 2 * HybridClock.maxDrift
      let ahead = latest.values.filter { $0.wall.map { $0 > farWall } ?? ($0.stamp > far) }.count
      guard ahead * 2 <= latest.count || latest.isEmpty else { return nil }
      return try db.repairClock(bound: try Merger.bound(db), remote: key)
    }
  }
}

extension Connection {
  /// Returns the new device id, or nil when no change of this device's was stamped ahead (the
  /// clock was moved ahead by what arrived, which is held back now).
  fileprivate func repairClock(bound: Int64, remote key: String) throws -> String? {
    let oldRow = try fetchOne("SELECT device FROM sync_clock", as: Int64.self)!
    let old = try localDeviceID()
    let now = Date(timeIntervalSince1970: try fetchOne("SELECT docket_now()", as: Double.self) ?? 0)
    func rows(_ mine: Bool, _ entities: String) throws -> Set<String> {
      Set(
        try fetchAll(
          """
          SELECT DISTINCT row_id FROM changes
          WHERE device \(mine ? "=" : "!=") ? AND hlc > ? AND held = 0 AND entity IN (\(entities))
          """, [oldRow, bound]
        ) { try $0.get(0, as: String.self) })
    }
    let ownIssues = try rows(true, "'issue', 'link'")
    let ownTags = try rows(true, "'tag'")
    let otherIssues = try rows(false, "'issue', 'link'")
    let otherTags = try rows(false, "'tag'")
    // What this device's changes had made, to make again.
    var issuesBefore: [String: Issue] = [:]
    for id in ownIssues {
      if let uuid = UUID(text: id), let issue = try fetchIssue(id: uuid) {
        issuesBefore[id] = issue
      }
    }
    let tagsBefore = try fetchTags()
    let ownAhead =
      try fetchOne(
        "SELECT 1 FROM changes WHERE device = ? AND hlc > ? AND held = 0 LIMIT 1",
        [oldRow, bound], as: Int.self) != nil
    guard ownAhead else {
      try execute(
        "UPDATE changes SET held = 1 WHERE device != ? AND hlc > ? AND held = 0", [oldRow, bound])
      try execute(
        """
        UPDATE sync_clock SET hlc = max(?, (SELECT coalesce(max(hlc), 0) FROM changes WHERE held = 0))
        """, [HybridClock.stamp(now)])
      try execute("UPDATE sync_clock SET applying = 1")
      var merger = Merger(db: self)
      for id in otherTags.sorted() { try merger.settleTagID(id) }
      for id in otherIssues.sorted() { try merger.recomputeIssue(id) }
      try execute("UPDATE sync_clock SET applying = 0")
      return nil
    }

    try execute(
      """
      INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
      VALUES (?, ?, 'device', ?, 'retire', ?)
      """, [HybridClock.stamp(now), oldRow, old, String(bound)])
    try execute(
      """
      UPDATE changes SET held = 2, lost = 1
      WHERE device = ? AND hlc > ? AND held = 0 AND entity != 'device'
      """, [oldRow, bound])
    try execute(
      "UPDATE changes SET held = 1 WHERE device != ? AND hlc > ? AND held = 0", [oldRow, bound])
    let pushed = try setting(Self.pushedKey) ?? "0"
    let number = try setting(Self.fileNumberKey) ?? "0"
    try setSetting(Self.previousDeviceKey, "\(old) \(pushed) \(number)")
    let new = try becomeNewDevice(relabel: [], remote: key, ownThrough: 0)
    try execute(
      """
      UPDATE sync_clock SET hlc = max(?, (SELECT coalesce(max(hlc), 0) FROM changes WHERE held = 0))
      """, [HybridClock.stamp(now)])

    // The data as the changes that still count make it.
    try execute("UPDATE sync_clock SET applying = 1")
    var merger = Merger(db: self)
    for id in ownTags.union(otherTags).sorted() { try merger.settleTagID(id) }
    for id in ownIssues.union(otherIssues).sorted() { try merger.recomputeIssue(id) }
    try execute("UPDATE sync_clock SET applying = 0")

    // And again what this device's own had made, as edits of the new device.
    // Tags through the rules every tag write keeps (names unique ignoring case).
    let tagsAfter = Dictionary(uniqueKeysWithValues: try fetchTags().map { ($0.id, $0) })
    for tag in tagsBefore where ownTags.contains(tag.id.lowercasedText) {
      if let after = tagsAfter[tag.id] {
        if after.name != tag.name { _ = try? renameTag(id: tag.id, to: tag.name) }
      } else {
        _ = try createTag(named: tag.name, id: tag.id)
      }
    }
    let kept = Set(tagsBefore.map(\.id))
    for (id, tag) in tagsAfter where !kept.contains(id) && ownTags.contains(id.lowercasedText) {
      _ = try deleteTag(id: tag.id)
    }
    let deleted = try deletedIssueIDs(among: ownIssues.compactMap { UUID(text: $0) })
    for id in ownIssues.sorted() {
      guard let uuid = UUID(text: id) else { continue }
      let after = try fetchIssue(id: uuid)
      guard var before = issuesBefore[id] else {
        if after != nil { try deleteIssues([uuid]) }
        continue
      }
      // Times stamped by the clock that ran ahead are brought back to now.
      before.created = min(before.created, now)
      before.modified = before.modified.map { min($0, now) }
      // Its tags as they are now (a tag it had may go by another id since).
      before.tags = try before.tags.compactMap { try fetchTag(named: $0.name) }
      guard let after else {
        // Made again; over a delete that counts, as a restore (a create would lose to it).
        try insertIssue(before)
        if deleted.contains(uuid) { try recordAsRestore(issue: uuid) }
        continue
      }
      if after.title != before.title || after.detail != before.detail
        || after.priority != before.priority || after.completed != before.completed
        || after.created != before.created
      {
        try execute(
          """
          UPDATE issues SET title = ?, detail = ?, priority = ?, completed = ?, created = ?,
            modified = ? WHERE id = ?
          """,
          [
            before.title, before.detail, before.priority.rawValue, before.completed,
            before.created, before.modified ?? now, uuid,
          ])
      }
      try retag(issueID: uuid, from: Set(after.tags.map(\.id)), to: Set(before.tags.map(\.id)))
    }
    return new
  }
}
