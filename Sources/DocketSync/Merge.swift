import Database
import DocketCore
import DocketTransfer
import Foundation

/// What applying a set of changes did.
public struct ApplySummary: Equatable, Sendable {
  /// Changes new to this database (recorded in its history).
  public var received = 0
  /// Changes it had already: applying a change twice changes nothing.
  public var duplicates = 0
  /// Received changes that lost a conflict (kept in the history, marked, not applied).
  public var lost = 0
  /// The latest stamp among them, which the clock moves up to.
  public var latest: Int64 = 0
  /// Changes held back, by device: stamped further ahead of this device's clock than
  /// `HybridClock.maxDrift`, each device with how many and the furthest stamp.
  public var held: [String: HeldChanges] = [:]
  /// Changes of a device retired for a clock that ran ahead (`retire`): kept in the history as
  /// lost, never applied.
  public var void = 0
  /// Changes that came with the stamp, row and field of one recorded here, and other values, by
  /// device: every device keeps the same one of the two (`Merger.resolveTwin`).
  public var twins: [String: Int] = [:]

  public init() {}

  /// Adds what applying another part of the same package did.
  public mutating func add(_ other: ApplySummary) {
    received += other.received
    duplicates += other.duplicates
    lost += other.lost
    latest = max(latest, other.latest)
    for (device, held) in other.held { self.held[device, default: HeldChanges()].add(held) }
    void += other.void
    for (device, count) in other.twins { twins[device, default: 0] += count }
  }
}

/// Changes of one device held back, and the furthest stamp among them.
public struct HeldChanges: Equatable, Sendable {
  public var count = 0
  public var furthest: Int64 = 0

  public init(count: Int = 0, furthest: Int64 = 0) {
    self.count = count
    self.furthest = furthest
  }

  mutating func add(_ other: HeldChanges) {
    count += other.count
    furthest = max(furthest, other.furthest)
  }
}

/// A change that says this device made it, which this database does not have: its database was
/// copied (a cloned disk, a restored backup), and the copy syncs under the same id.
public struct CopiedDatabase: Error, Equatable, Sendable {}

/// Applying other devices' changes (SPEC §10). Each change is recorded in the history and merged:
/// field by field the later stamp wins, a delete wins over everything stamped on that row but a
/// later restore, a link is on or off by its latest change, tags that bear the same name are one
/// tag. Every decision depends only on which changes a database has, never on the order they came
/// in, so every device that has the same changes holds the same data.
///
/// A change stamped beyond `bound` (this device's clock plus `HybridClock.maxDrift`) is held:
/// recorded, not applied, and the clock does not follow it; `releaseHeldChanges` applies it once
/// the time comes. A change of a device that retired itself, stamped after its retirement, is
/// void.
///
/// The triggers record nothing while this runs (`sync_clock.applying`), and the issue's `modified`
/// is the one carried by its latest change: an edit that arrives keeps the sender's time.
extension Connection {
  /// `bulkFrom`: from how many new issues they are made at once (`insertNew`). `local`: this
  /// device's id, which a change that arrives may not claim (`CopiedDatabase`); nil to allow it.
  public func applyChanges(
    _ changes: [Change], deviceNames: [String: String] = [:], bulkFrom: Int = Merger.bulkThreshold,
    local: String? = nil
  ) throws -> ApplySummary {
    // Inside a pull's write, a part of it: a failure fails the whole write.
    try withinTransaction {
      try execute("UPDATE sync_clock SET applying = 1")
      var merger = Merger(db: self, bound: try Merger.bound(self), local: local)
      for (device, name) in deviceNames { try merger.device(device, name: name) }
      let (new, rest) = try merger.partitionNew(changes)
      // Many changes: the full-text index is kept once after them, not for each edit.
      if new.count >= bulkFrom {
        // Tags first, so that the new issues' links find them; the merge does not depend on the
        // order changes come in.
        for change in rest where change.entity == .tag { try merger.apply(change) }
        try merger.insertNew(new)
        try deferringTextIndex(for: rest.count) {
          for change in rest where change.entity != .tag { try merger.apply(change) }
        }
      } else {
        try deferringTextIndex(for: changes.count) {
          for change in changes { try merger.apply(change) }
        }
      }
      try execute(
        "UPDATE sync_clock SET applying = 0, hlc = max(hlc, ?)", [merger.summary.latest])
      return merger.summary
    }
  }

  /// Applies the held changes whose time has come (stamped within `HybridClock.maxDrift` of this
  /// device's clock now), oldest first, as if they had just arrived.
  public func releaseHeldChanges() throws -> ApplySummary {
    try withinTransaction {
      let bound = try Merger.bound(self)
      var due: [Change] = []
      var rows: [Int64] = []
      try forEachRow(
        """
        SELECT c.seq, c.hlc, d.id, c.entity, c.row_id, c.field, c.old_value, c.new_value,
          c.modified
        FROM changes c JOIN sync_devices d ON d.seq = c.device
        WHERE c.held = 1 AND c.hlc <= ? ORDER BY c.hlc, d.id
        """, [bound]
      ) { row in
        rows.append(try row.get(0, as: Int64.self))
        due.append(try Merger.change(row, from: 1))
      }
      guard !due.isEmpty else { return ApplySummary() }
      for seq in rows { try execute("DELETE FROM changes WHERE seq = ?", [seq]) }
      return try applyChanges(due)
    }
  }
}

/// The rules, one change at a time, inside `applyChanges`'s transaction.
public struct Merger {
  let db: Connection
  var summary = ApplySummary()
  /// The furthest stamp applied now: this device's clock plus the drift allowed.
  let bound: Int64
  let local: String?
  private var devices: [String: Int64] = [:]
  /// By device row: the stamp after which its changes are void (`Int64.max`: not retired).
  private var retiredAfter: [Int64: Int64] = [:]

  init(db: Connection, bound: Int64 = .max, local: String? = nil) {
    self.db = db
    self.bound = bound
    self.local = local
  }

  /// The furthest stamp a change may have to be applied now: this connection's wall clock
  /// (`docket_now`, the tests' own) plus `HybridClock.maxDrift`.
  static func bound(_ db: Connection) throws -> Int64 {
    let now = try db.fetchOne("SELECT docket_now()", as: Double.self) ?? 0
    return HybridClock.bound(wall: Date(timeIntervalSince1970: now))
  }

  /// A change as a row of `changes` joined with its device holds it, from column `first` on:
  /// stamp, device id, entity, row, field, old, new, modified.
  static func change(_ row: Row, from first: Int) throws -> Change {
    Change(
      stamp: Stamp(
        hlc: try row.get(first, as: Int64.self), device: try row.get(first + 1, as: String.self)),
      entity: Change.Entity(rawValue: try row.get(first + 2, as: String.self)) ?? .issue,
      row: try row.get(first + 3, as: String.self), field: try row.get(first + 4, as: String.self),
      old: try row.get(first + 5, as: DatabaseValue.self),
      new: try row.get(first + 6, as: DatabaseValue.self),
      modified: try row.get(first + 7, as: Double?.self))
  }

  /// The local row number of a device, recorded (and named) the first time it is met.
  @discardableResult
  mutating func device(_ id: String, name: String? = nil) throws -> Int64 {
    if let name {
      try db.execute(
        """
        INSERT INTO sync_devices (id, name) VALUES (?, ?)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name
        """, [id, Limits.deviceName(name)])
      devices[id] = nil
    }
    if let known = devices[id] { return known }
    try db.execute("INSERT OR IGNORE INTO sync_devices (id) VALUES (?)", [id])
    let seq = try db.fetchOne("SELECT seq FROM sync_devices WHERE id = ?", [id], as: Int64.self)!
    devices[id] = seq
    return seq
  }

  mutating func apply(_ change: Change) throws {
    let device = try device(change.stamp.device)
    if let stored = try db.fetchOne(
      """
      SELECT seq, old_value, new_value, modified, held FROM changes
      WHERE row_id = ? AND field = ? AND hlc = ? AND device = ?
      """, [change.row, change.field, change.stamp.hlc, device],
      { row in
        (
          seq: try row.get(0, as: Int64.self), old: try row.get(1, as: DatabaseValue.self),
          new: try row.get(2, as: DatabaseValue.self), modified: try row.get(3, as: Double?.self),
          held: try row.get(4, as: Int.self)
        )
      })
    {
      var twin = change
      (twin.old, twin.new, twin.modified) = (stored.old, stored.new, stored.modified)
      if Self.encoded(twin) == Self.encoded(change) {
        summary.duplicates += 1
      } else {
        try resolveTwin(change, stored: twin, seq: stored.seq, held: stored.held)
      }
      return
    }
    if let local, change.stamp.device == local { throw CopiedDatabase() }
    if change.entity != .device, change.stamp.hlc > (try retiredAfter(device)) {
      try record(change, device: device, lost: true, held: 2)
      summary.void += 1
      return
    }
    if change.stamp.hlc > bound {
      try record(change, device: device, held: 1)
      summary.held[change.stamp.device, default: HeldChanges()].add(
        HeldChanges(count: 1, furthest: change.stamp.hlc))
      return
    }
    summary.received += 1
    summary.latest = max(summary.latest, change.stamp.hlc)
    switch change.entity {
    case .issue: try applyToIssue(change, device: device)
    case .link: try applyToLink(change, device: device)
    case .tag: try applyToTag(change, device: device)
    case .device: try applyRetirement(change, device: device)
    }
  }

  /// A change as one line, to tell two changes of one stamp apart and order them.
  static func encoded(_ change: Change) -> [UInt8] {
    var output = OutputBytes(write: { _ in })
    change.appendJSON(to: &output)
    return output.bytes
  }

  /// Two changes with one stamp, device, row and field and other values (a device that wrote a
  /// stamp twice, or a forged one): every device keeps the one whose line sorts later, whichever
  /// came first, and the data follows it.
  private mutating func resolveTwin(_ change: Change, stored: Change, seq: Int64, held: Int)
    throws
  {
    summary.twins[change.stamp.device, default: 0] += 1
    guard Self.encoded(stored).lexicographicallyPrecedes(Self.encoded(change)) else { return }
    try db.execute(
      "UPDATE changes SET old_value = ?, new_value = ?, modified = ? WHERE seq = ?",
      [change.old, change.new, change.modified, seq])
    if held == 0 { try recompute(change) }
  }

  /// Brings the data a change touches to what the changes recorded say: after a recorded
  /// change was replaced or made void.
  mutating func recompute(_ change: Change) throws {
    switch change.entity {
    case .issue, .link: try recomputeIssue(change.row)
    case .tag: try settleTagID(change.row)
    case .device: try applyRetirement(change, device: try device(change.stamp.device))
    }
  }

  /// Makes the issue `id` again from every change recorded for it: gone while deleted or not
  /// yet made, else each field from its latest change and its links from theirs.
  mutating func recomputeIssue(_ id: String) throws {
    try db.execute("DELETE FROM issues WHERE id = ?", [id])
    guard try !isDeleted(id), try winner(row: id, fields: ["create", "restore"]) != nil else {
      return
    }
    try materializeIssue(id)
  }

  /// The stamp after which the changes of the device row `device` are void: the earliest
  /// retirement it made of itself, or `Int64.max`.
  mutating func retiredAfter(_ device: Int64) throws -> Int64 {
    if retiredAfter.isEmpty {
      // Every retirement at once (they are few), through the index of tags' and links' fields;
      // a device without one is marked as such.
      try db.forEachRow(
        """
        SELECT device, min(CAST(new_value AS INTEGER)) FROM changes
        WHERE entity = 'device' AND entity != 'issue' AND field = 'retire' AND held = 0
        GROUP BY device
        """
      ) { row in retiredAfter[try row.get(0, as: Int64.self)] = try row.get(1, as: Int64.self) }
      retiredAfter[-1] = .max
    }
    return retiredAfter[device] ?? .max
  }

  /// A device that retired itself (its clock had run ahead; it goes on under a new id): its
  /// changes stamped after the retirement's bound are void from now on, here and wherever the
  /// retirement arrives, those applied already undone.
  private mutating func applyRetirement(_ change: Change, device: Int64) throws {
    try record(change, device: device)
    guard case .text(let text) = change.new, let after = Int64(text) else { return }
    retiredAfter[device] = min(try retiredAfter(device), after)
    var touched: [Change] = []
    try db.forEachRow(
      """
      SELECT hlc, ?, entity, row_id, field, old_value, new_value, modified FROM changes
      WHERE device = ? AND hlc > ? AND held = 0 AND entity != 'device'
      """, [change.stamp.device, device, after]
    ) { row in touched.append(try Self.change(row, from: 0)) }
    let voided =
      try db.fetchOne(
        "SELECT count(*) FROM changes WHERE device = ? AND hlc > ? AND held != 2 AND entity != 'device'",
        [device, after], as: Int.self) ?? 0
    try db.execute(
      """
      UPDATE changes SET held = 2, lost = 1
      WHERE device = ? AND hlc > ? AND held != 2 AND entity != 'device'
      """, [device, after])
    summary.void += voided
    var done = Set<String>()
    for change in touched where done.insert("\(change.entity) \(change.row)").inserted {
      try recompute(change)
    }
  }

  // MARK: - The history

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
      sql += " AND c.field != 'delete'"
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

  // MARK: - Issues

  private mutating func applyToIssue(_ change: Change, device: Int64) throws {
    let exists = try issueSeq(change.row) != nil
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
  private func touch(_ change: Change, rowLatest: Stamp?) throws {
    if rowLatest == nil || change.stamp > rowLatest! {
      try db.execute(
        "UPDATE issues SET modified = ? WHERE id = ?", [change.modified, change.row])
    }
  }

  /// Writes a field if no recorded change of it (other than at `stamp`) is later.
  private func writeField(
    _ field: String, value: DatabaseValue, of row: String, ifLaterThan stamp: Stamp
  ) throws {
    let current = try winner(row: row, fields: [field, "create", "restore"])
    guard current == nil || current!.stamp <= stamp else { return }
    try db.execute("UPDATE issues SET \(field) = ? WHERE id = ?", [value, row])
  }

  private func issueSeq(_ id: String) throws -> Int64? {
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
    let modified = latest { $0 != "delete" }?.modified
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

  // MARK: - Links

  private mutating func applyToLink(_ change: Change, device: Int64) throws {
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
    let current = try winner(row: issue, fields: members)
    if current?.new == .integer(1) {
      try db.execute(
        "INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [issueRow, tagRow])
    } else {
      try db.execute(
        "DELETE FROM issue_tags WHERE issue_seq = ? AND tag_seq = ?", [issueRow, tagRow])
    }
  }
}
