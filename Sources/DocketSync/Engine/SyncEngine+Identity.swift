import Database
import DocketCore
import Foundation

/// Which device this database is, as the remote shows it: a copy of this database (a cloned
/// disk, a restored backup) syncing under the same id is seen by what it leaves there, a change
/// file this database did not write, and this database becomes a new device; and what it reports
/// of the others: their clocks, and files it was told about before.
/// What a copy of this database left under its id, and what of this database's changes go again
/// under its new id: those in each range of rows (`after`, `through`], `through` nil for all after.
struct CopyFound {
  var ranges: [(after: Int64, through: Int64?)]
  var ownThrough: Int64
}

extension SyncEngine {
  /// What a copy of this database left under its id: a change file it did not write (not noted
  /// as written, or noted with another size) whose changes it does not all have, or a snapshot
  /// of its id that claims files it never wrote. A file under its id that is no package (bytes,
  /// a forged one) is neither its own nor a copy's, and is left alone; one it does not remember
  /// writing whose changes it has (written by an older Docket, or before it left this remote)
  /// is its own, and noted as such. Nil when there is nothing of a copy's; else the rows of its
  /// own changes to go again under a new id (`CopyFound`).
  func foreignPackages(_ listing: RemoteListing, remote key: String) throws -> CopyFound? {
    let mine = listing.packages.filter {
      $0.device == device && ($0.kind == .changes || $0.kind == .snapshot)
    }
    guard !mine.isEmpty else { return nil }
    let (number, pushed, written) = try database.read { db in
      var written: [PackageName: (size: Int64, after: Int64)] = [:]
      try db.forEachRow(
        "SELECT kind, number, size, after FROM sync_own_files WHERE remote = ?", [key]
      ) { row in
        guard let kind = PackageName.Kind(rawValue: try row.get(0, as: String.self)) else {
          return
        }
        let name = PackageName(device: device, kind: kind, number: try row.get(1, as: Int64.self))
        written[name] = (try row.get(2, as: Int64.self), try row.get(3, as: Int64.self))
      }
      return (
        try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0,
        try db.setting(Connection.pushedKey).flatMap(Int64.init) ?? 0, written
      )
    }
    var foreign: [Int64] = []
    var foreignSnapshot = false
    for name in mine {
      if let own = written[name],
        own.size < 0 || listing.sizes[name] == nil || listing.sizes[name] == own.size
      {
        continue
      }
      if name.kind == .snapshot {
        // A snapshot of this id that holds files this database never wrote.
        if let header = try? remote.header(name), (header.covers[device] ?? 0) > number {
          foreignSnapshot = true
        }
        continue
      }
      guard let package = try? remote.read(name), package.rejected.isEmpty,
        package.rejectedMore == 0
      else { continue }
      if try database.read({ db in try Self.hasAll(package.changes, db) }) {
        // Its own, written before it noted its files: noted now.
        try database.write { db in
          try db.execute(
            """
            INSERT OR REPLACE INTO sync_own_files (remote, kind, number, size, after)
            VALUES (?, 'changes', ?, ?, ?)
            """, [key, name.number, listing.sizes[name] ?? -1, written[name]?.after ?? 0])
        }
      } else {
        foreign.append(name.number)
      }
    }
    guard let first = foreign.min() else {
      return foreignSnapshot ? CopyFound(ranges: [(pushed, nil)], ownThrough: number) : nil
    }
    // The copy's file took the place of this database's own (both wrote number `first`, a sync
    // tool kept the other): the changes this database had in it go again, with those not pushed.
    var ranges: [(Int64, Int64?)] = [(pushed, nil)]
    if let clobbered = written[PackageName(device: device, kind: .changes, number: first)] {
      let next = written[PackageName(device: device, kind: .changes, number: first + 1)]?.after
      ranges.append((clobbered.after, next ?? pushed))
    }
    return CopyFound(ranges: ranges, ownThrough: min(first - 1, number))
  }

  /// Whether this database has every one of `changes` (their stamps, rows and fields).
  static func hasAll(_ changes: [Change], _ db: Connection) throws -> Bool {
    for change in changes {
      guard
        try db.fetchOne(
          """
          SELECT 1 FROM changes c JOIN sync_devices d ON d.seq = c.device
          WHERE c.row_id = ? AND c.field = ? AND c.hlc = ? AND d.id = ?
          """, [change.row, change.field, change.stamp.hlc, change.stamp.device], as: Int.self)
          != nil
      else { return false }
    }
    return true
  }

  /// Makes this database a new device after a copy of it wrote under its id first: its changes
  /// not yet pushed go with the new id.
  func switchAfterCopy(remote key: String) throws -> String {
    try database.write { db in
      let pushed = try db.setting(Connection.pushedKey).flatMap(Int64.init) ?? 0
      let number = try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0
      return try db.becomeNewDevice(relabel: [(pushed, nil)], remote: key, ownThrough: number)
    }
  }

  /// The devices whose changes are held here, and whether this device's own clock is the one
  /// that looks wrong: most of the others it hears from look ahead of it.
  func noteHeld(_ listing: RemoteListing, _ report: inout SyncReport) throws {
    let (held, now) = try database.read { db in
      (
        try db.fetchAll(
          """
          SELECT d.id, d.name, count(*), max(c.hlc) FROM changes c
            JOIN sync_devices d ON d.seq = c.device
          WHERE c.held = 1 GROUP BY d.id ORDER BY d.id
          """
        ) { row in
          (
            try row.get(0, as: String.self), try row.get(1, as: String.self),
            try row.get(2, as: Int.self), try row.get(3, as: Int64.self)
          )
        },
        try db.fetchOne("SELECT docket_now()", as: Double.self) ?? 0
      )
    }
    report.held = held.map { id, name, count, furthest in
      HeldDevice(
        id: id, name: name.isEmpty ? String(id.prefix(8)) : name, changes: count,
        ahead: HybridClock.date(furthest).timeIntervalSince1970 - now)
    }
    let others = Set(listing.packages.map(\.device)).subtracting([device]).count
    report.clockLooksBehind = held.count >= 2 && held.count * 2 > others
    // The devices that sent a stamp twice, by the names people know them by.
    let names = try database.read { try $0.deviceNames() }
    report.twins = report.twins.map { id in
      names[id].flatMap { $0.isEmpty ? nil : $0 } ?? String(id.prefix(8))
    }
  }
}

extension Connection {
  /// The files skipped, but those told about before as they are now (their size and time of
  /// change the same): a file that stays as it was is warned about once. What is told is
  /// remembered; the memory of files no longer there goes.
  func onceEach(_ skipped: [SkippedPackage], listing: RemoteListing, remote key: String) throws
    -> [SkippedPackage]
  {
    var told: [String: String] = [:]
    try forEachRow("SELECT path, identity FROM sync_warned WHERE remote = ?", [key]) { row in
      told[try row.get(0, as: String.self)] = try row.get(1, as: String.self)
    }
    var kept: [SkippedPackage] = []
    for entry in skipped {
      guard let identity = listing.identities[entry.path] else {
        kept.append(entry)
        continue
      }
      if told[entry.path] == identity, !kept.contains(where: { $0.path == entry.path }) {
        continue
      }
      kept.append(entry)
      if told[entry.path] != identity {
        try execute(
          "INSERT OR REPLACE INTO sync_warned (remote, path, identity) VALUES (?, ?, ?)",
          [key, entry.path, identity])
        told[entry.path] = identity
      }
    }
    for path in told.keys where listing.identities[path] == nil {
      try execute("DELETE FROM sync_warned WHERE remote = ? AND path = ?", [key, path])
    }
    return kept
  }
}
