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
}
