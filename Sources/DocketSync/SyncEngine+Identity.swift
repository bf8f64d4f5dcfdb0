import Database
import DocketCore
import Foundation

/// Which device this database is, as the remote shows it: a copy of this database (a cloned
/// disk, a restored backup) syncing under the same id is seen by what it leaves there, a change
/// file this database did not write, and this database becomes a new device; and what it reports
/// of the others: their clocks, and files it was told about before.
extension SyncEngine {
  /// This device's change files there that this database did not write: one numbered after the
  /// last it wrote, or one whose size is not the size it wrote. Nil when there are none; else
  /// where its own changes stop being in the remote (the row after which they go again under a
  /// new id) and its last file that is its own.
  func foreignPackages(_ listing: RemoteListing, remote key: String) throws -> (
    after: Int64, ownThrough: Int64
  )? {
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
    // This database never wrote here: its id's packages are another database's.
    if written.isEmpty, number == 0 { return (pushed, 0) }
    // What an older Docket wrote here, before files were noted, is taken as this database's.
    if written.isEmpty {
      try database.write { db in
        for name in mine where name.kind == .snapshot || name.number <= number {
          try db.execute(
            """
            INSERT OR REPLACE INTO sync_own_files (remote, kind, number, size, after)
            VALUES (?, ?, ?, ?, 0)
            """,
            [
              key, name.kind.rawValue, name.number,
              name.kind == .changes ? listing.sizes[name] ?? -1 : -1,
            ])
        }
      }
      return nil
    }
    // Only a package that reads whole, each change its device's own, is another database's:
    // bytes or a forged package put there under such a name are left alone.
    func reads(_ name: PackageName) -> Bool {
      guard name.kind == .changes else { return (try? remote.header(name)) != nil }
      guard let package = try? remote.read(name) else { return false }
      return package.rejected.isEmpty
    }
    var foreign: [Int64] = []
    var foreignSnapshot = false
    for name in mine where written[name] != nil || reads(name) {
      if let own = written[name] {
        if own.size >= 0, let size = listing.sizes[name], size != own.size {
          foreign.append(name.number)
        }
      } else if name.kind == .snapshot {
        foreignSnapshot = true
      } else if name.number > number {
        foreign.append(name.number)
      }
    }
    if let first = foreign.min() {
      // From the first file that is not this database's own, its changes go again.
      let after =
        written[PackageName(device: device, kind: .changes, number: first)].map {
          min($0.after, pushed)
        } ?? pushed
      return (after, first - 1)
    }
    return foreignSnapshot ? (pushed, number) : nil
  }

  /// Makes this database a new device after a copy of it wrote under its id first: its changes
  /// not yet pushed go with the new id.
  func switchAfterCopy(remote key: String) throws -> String {
    try database.write { db in
      let pushed = try db.setting(Connection.pushedKey).flatMap(Int64.init) ?? 0
      let number = try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0
      return try db.becomeNewDevice(relabelAfter: pushed, remote: key, ownThrough: number)
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
