import CSQLite
import Database
import DocketCore
import Foundation

/// What a sync did.
public struct SyncReport: Equatable, Sendable {
  /// Changes written to the remote.
  public var pushed = 0
  /// Changes read that were new here.
  public var pulled = 0
  /// Of those, values that lost a conflict (kept in the history).
  public var lost = 0
  /// Packages read whose changes were all known already.
  public var duplicates = 0
  /// Files left alone, each with why.
  public var skipped: [SkippedPackage] = []
  /// The devices (by name, or the start of their id) whose older changes were compacted away
  /// before this device read them, with no snapshot yet that holds them: their later changes
  /// were read, the rest waits.
  public var waiting: [String] = []
  /// True when this device caught up from a snapshot.
  public var usedSnapshot = false
  /// True when it did so by taking in the snapshot's database image.
  public var usedImage = false
  /// True when this device wrote a snapshot (and removed its change files that it holds).
  public var wroteSnapshot = false

  public init() {}
}

/// A sync stopped on purpose after so many packages: for tests of a sync cut off half way.
public struct SyncInterrupted: Error, Equatable, Sendable {}

/// Push, then pull, then compact, a package at a time.
///
/// Every step is its own transaction and leaves the database and the remote consistent, so a
/// sync cut off anywhere (the process killed, the folder gone) loses nothing and the next one
/// completes it:
/// - a package is written whole under a temporary name and renamed; only then is the push
///   cursor moved. Killed in between, the same changes go again in the next package, and a
///   reader that gets them twice changes nothing.
/// - a package read is applied, and recorded as read, in one transaction.
/// - this device's change files are removed only once a snapshot it has read or written holds
///   them.
/// Edits made during a sync are transactions of their own: those made before a package is applied
/// merge with it by their stamps, those made after have later stamps and are pushed next time.
public struct SyncEngine: Sendable {
  public var database: DatabaseQueue
  public var remote: any SyncRemote
  /// This device's id and name as other devices will see them.
  public var device: String
  public var deviceName: String
  /// Changes per package pushed.
  public var batchSize = 1000
  /// A snapshot is written once this many change files are not yet held by one.
  public var compactAfter = 64
  /// More changes than this to push go as a snapshot.
  public var snapshotPushFrom = 20_000
  /// A snapshot of this many changes or more comes with a database image.
  public var imageFrom = 20_000
  /// A device that is behind reads a snapshot rather than this many files.
  public var snapshotRather = 32
  /// For tests: stop after this many packages written or read.
  public var stopAfter: Int?
  /// From how many new issues a package's are made at once.
  public var bulkFrom = Merger.bulkThreshold
  /// How long a sync waits for another sync of the same database to end.
  public var lockWait: Duration = .seconds(10)

  public init(database: DatabaseQueue, remote: any SyncRemote, device: String, deviceName: String) {
    self.database = database
    self.remote = remote
    self.device = device
    self.deviceName = deviceName
  }

  public func run() throws -> SyncReport {
    var report = SyncReport()
    var steps = 0
    func step() throws {
      steps += 1
      if let stopAfter, steps >= stopAfter { throw SyncInterrupted() }
    }
    let lock = try SyncLock(database: database.path, wait: lockWait)
    defer { lock.release() }
    let id = try remote.prepare(expecting: nil)
    if try database.read({ try $0.setting(Connection.remoteIDKey) }) != id {
      try database.write { try $0.adoptRemote(id) }
    }
    if try database.read({ try $0.deviceNames()[device] }) != deviceName {
      try database.write { try $0.recordLocalDeviceName(deviceName) }
    }
    // One look at the remote serves the whole sync: this device's files in it change only by
    // this sync, and others' files that arrive meanwhile are read by the next.
    let listing = try remote.list()
    report.skipped += listing.skipped
    let pushedFiles = try push(listing, remote: id, &report, step: step)
    try pull(listing, remote: id, &report, step: step)
    // Files that could not be read may mean the folder went away in the middle (or a mount left
    // an empty folder in its place): then say that, before compaction writes anything.
    if !report.skipped.isEmpty { _ = try remote.prepare(expecting: id) }
    try compact(listing, remote: id, pushedFiles: pushedFiles, &report)
    return report
  }

  // MARK: - Push

  /// Pushes this device's new changes in packages of `batchSize`; returns how many files it
  /// wrote. More changes than `snapshotPushFrom` (a first sync of a large database) go as one
  /// snapshot instead, which a device that joins reads at once.
  private func push(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport,
    step: () throws -> Void
  ) throws -> Int {
    var (cursor, number, waiting) = try database.read { db in
      let cursor = try db.setting(Connection.pushedKey).flatMap(Int64.init)
      return (
        cursor, try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0,
        try cursor.map { Int64(try db.localChangeCount(after: $0)) } ?? db.latestChangeSeq()
      )
    }
    // The first push to a remote carries everything this device knows, so that nothing it
    // heard from devices elsewhere is missing there.
    let everything = cursor == nil
    let existing = listing.packages.filter { $0.device == device && $0.kind == .changes }
    number = max(number, existing.map(\.number).max() ?? 0)
    if waiting >= snapshotPushFrom {
      // The snapshot stands for a change file of the next number, which is never written: a
      // device that has not read it sees it missing and reads the snapshot.
      try writeSnapshot(
        fileNumber: number + 1, countsAsPushed: true, listing, remote: key, &report)
      report.pushed += Int(waiting)
      try step()
      return 0
    }
    var files = 0
    while true {
      let batch = try database.read {
        try $0.changesToPush(after: cursor ?? 0, limit: batchSize, allDevices: everything)
      }
      guard let last = batch.last else { break }
      number += 1
      try remote.write(
        Package(
          name: PackageName(device: device, kind: .changes, number: number),
          deviceName: deviceName, changes: batch.map(\.change)))
      let written = number
      try database.write { db in
        try db.setSetting(Connection.pushedKey, String(last.seq))
        try db.setSetting(Connection.fileNumberKey, String(written))
      }
      cursor = last.seq
      report.pushed += batch.count
      files += 1
      waiting = 0
      try step()
    }
    if cursor == nil {
      try database.write { try $0.setSetting(Connection.pushedKey, "0") }
    }
    return files
  }

  /// Writes a snapshot of everything this database holds, as the change file `fileNumber` and
  /// every one of this device's before it, and what it has read of the others'. With
  /// `countsAsPushed` (a push made as a snapshot, `fileNumber` a number no file has) everything in
  /// it counts as pushed; otherwise (compaction) this device's changes after its last file still
  /// go out in the next one. This device's older snapshots go.
  private func writeSnapshot(
    fileNumber: Int64, countsAsPushed: Bool, _ listing: RemoteListing, remote key: String,
    _ report: inout SyncReport
  ) throws {
    // The changes, the clock and the last row, from one read: what the snapshot holds is
    // exactly what is marked as pushed.
    let (changes, stamp, latest, read) = try database.read { db in
      var changes: [Change] = []
      try db.forEachWinningChange { changes.append($0) }
      var read: [String: Int64] = [:]
      try db.forEachRow("SELECT device, through FROM sync_covered WHERE remote = ?", [key]) { row in
        read[try row.get(0, as: String.self)] = try row.get(1, as: Int64.self)
      }
      return (
        changes, try db.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0,
        try db.latestChangeSeq(), read
      )
    }
    var covers = read
    covers[device] = fileNumber
    let name = PackageName(device: device, kind: .snapshot, number: stamp)
    // An image left from an earlier snapshot of the same stamp is not this one's.
    let image = PackageName(device: device, kind: .image, number: stamp)
    if listing.packages.contains(image) { try remote.remove(image) }
    try remote.write(Package(name: name, deviceName: deviceName, covers: covers, changes: changes))
    if changes.count >= imageFrom { writeImage(of: name, covers: covers) }
    try database.write { db in
      if countsAsPushed {
        let pushed = try db.setting(Connection.pushedKey).flatMap(Int64.init) ?? 0
        try db.setSetting(Connection.pushedKey, String(max(pushed, latest)))
      }
      try db.setSetting(Connection.fileNumberKey, String(fileNumber))
      try db.setSetting(Connection.compactedKey, String(fileNumber))
      try db.recordSnapshotCovers(covers)
    }
    report.wroteSnapshot = true
    for old in listing.packages
    where old.device == device && old.kind != .changes && old.number != name.number {
      try remote.remove(old)
    }
  }

  // MARK: - Pull

  private func pull(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport,
    step: () throws -> Void
  ) throws {
    var (covered, seen) = try database.read { db in
      var covered: [String: Int64] = [:]
      try db.forEachRow("SELECT device, through FROM sync_covered WHERE remote = ?", [key]) { row in
        covered[try row.get(0, as: String.self)] = try row.get(1, as: Int64.self)
      }
      let seen = Set(
        try db.fetchAll("SELECT name FROM sync_pulled WHERE remote = ?", [key]) {
          try $0.get(0, as: String.self)
        })
      return (covered, seen)
    }
    let others = listing.packages.filter { $0.device != device }
    var present: [String: Set<Int64>] = [:]
    for name in others where name.kind == .changes {
      present[name.device, default: []].insert(name.number)
    }

    // A snapshot, when this device is behind what it holds and the changes it holds are gone
    // from the remote (compacted) or are many. Each device keeps its latest snapshot; clocks
    // differ, so each is looked at, by its header.
    for snapshot in others.filter({ $0.kind == .snapshot && !seen.contains($0.description) })
      .sorted(by: { $0.number > $1.number })
    {
      guard let header = fetch({ try remote.header(snapshot) }, snapshot, &report) else {
        continue
      }
      guard
        Self.needs(
          header, covered: covered, present: present, seen: seen, rather: snapshotRather,
          myself: device)
      else { continue }
      if let count = takeImage(of: header, listing: listing, remote: key) {
        // Caught up from the image: the settings and what was read are as if the snapshot had
        // been applied.
        for (device, through) in header.covers where device != self.device {
          covered[device] = max(covered[device] ?? 0, through)
        }
        report.pulled += count
        report.usedSnapshot = true
        report.usedImage = true
        try step()
        continue
      }
      guard let package = fetch({ try remote.read(snapshot) }, snapshot, &report) else { continue }
      guard
        let summary = try applying(
          package, &report,
          {
            try database.write { db in
              let summary = try db.applyChanges(
                package.changes, deviceNames: [package.name.device: package.deviceName],
                bulkFrom: bulkFrom)
              try db.recordSnapshotRead(package, remote: key, myself: self.device)
              return summary
            }
          })
      else { continue }
      for (device, through) in package.covers where device != self.device {
        covered[device] = max(covered[device] ?? 0, through)
      }
      report.pulled += summary.received
      report.lost += summary.lost
      report.usedSnapshot = true
      try step()
    }

    let unread = others.filter {
      $0.kind == .changes && $0.number > covered[$0.device] ?? 0 && !seen.contains($0.description)
    }.sorted { ($0.device, $0.number) < ($1.device, $1.number) }
    for name in unread {
      guard let package = fetch({ try remote.read(name) }, name, &report) else { continue }
      guard
        let summary = try applying(
          package, &report,
          {
            try database.write { db in
              let summary = try db.applyChanges(
                package.changes, deviceNames: [name.device: package.deviceName], bulkFrom: bulkFrom)
              let through = covered[name.device] ?? 0
              if name.number == through + 1 {
                // Contiguous: the mark moves on over this file and any read before it out of order.
                var next = name.number
                while try db.fetchOne(
                  "SELECT 1 FROM sync_pulled WHERE remote = ? AND name = ?",
                  [
                    key,
                    PackageName(device: name.device, kind: .changes, number: next + 1).description,
                  ],
                  as: Int.self) != nil
                {
                  next += 1
                }
                try db.execute(
                  """
                  INSERT INTO sync_covered (remote, device, through) VALUES (?, ?, ?)
                  ON CONFLICT (remote, device) DO UPDATE SET through = excluded.through
                  """, [key, name.device, next])
                try db.execute(
                  "DELETE FROM sync_pulled WHERE remote = ? AND name > ? AND name <= ?",
                  [
                    key, name.device + "/",
                    PackageName(device: name.device, kind: .changes, number: next).description,
                  ])
                return (summary, next)
              }
              try db.execute(
                "INSERT OR IGNORE INTO sync_pulled (remote, name) VALUES (?, ?)",
                [key, name.description])
              return (summary, through)
            }
          })
      else { continue }
      covered[name.device] = summary.1
      report.pulled += summary.0.received
      report.lost += summary.0.lost
      if summary.0.received == 0 { report.duplicates += 1 }
      try step()
    }
    // Devices with changes this device has not read and no file or snapshot holds any more.
    let names = try database.read { try $0.deviceNames() }
    for (device, numbers) in present.sorted(by: { $0.key < $1.key }) {
      let through = covered[device] ?? 0
      if let lowest = numbers.filter({ $0 > through }).min(), lowest > through + 1,
        !(through + 1..<lowest).allSatisfy({
          seen.contains(PackageName(device: device, kind: .changes, number: $0).description)
        })
      {
        let name = names[device] ?? ""
        report.waiting.append(name.isEmpty ? String(device.prefix(8)) : name)
      }
    }
  }

  /// A package read, or (a file cut short, garbage, gone since the listing, unreadable) nil and
  /// the reason in the report: the rest of the sync goes on.
  private func fetch(
    _ body: () throws -> Package, _ name: PackageName, _ report: inout SyncReport
  ) -> Package? {
    do { return try body() } catch let skipped as SkippedPackage {
      report.skipped.append(skipped)
    } catch let error as RemoteError {
      let reason =
        if case .system(let reason) = error.problem { reason } else { "\(error.problem)" }
      report.skipped.append(SkippedPackage(path: name.description, problem: .unreadable(reason)))
    } catch {
      report.skipped.append(
        SkippedPackage(path: name.description, problem: .unreadable("\(error)")))
    }
    return nil
  }

  /// Applies a package in its transaction, or (the database would not take its data: a
  /// constraint it breaks, a value of the wrong type) nil and the reason in the report: nothing
  /// of it is kept, and it is read again next time. Any other failure (the database busy, full or
  /// failing) stops the sync.
  private func applying<Value>(
    _ package: Package, _ report: inout SyncReport, _ body: () throws -> Value
  ) throws -> Value? {
    do { return try body() } catch let error as SQLiteError
      where error.isConstraintViolation || error.code == SQLITE_MISMATCH
      || error.code == SQLITE_TOOBIG || error.code == SQLITE_RANGE
    {
      report.skipped.append(
        SkippedPackage(path: package.name.description, problem: .package(.rejected(error.message))))
      return nil
    }
  }

  /// Whether a device that has read up to `covered` should read the snapshot: some file it
  /// holds is gone from the remote, or reading them all would take many files.
  static func needs(
    _ snapshot: Package, covered: [String: Int64], present: [String: Set<Int64>],
    seen: Set<String>, rather: Int, myself: String
  ) -> Bool {
    var behind = 0
    // This device's own changes are here already.
    for (device, through) in snapshot.covers where device != myself {
      let from = covered[device] ?? 0
      guard through > from else { continue }
      for number in (from + 1)...through {
        let name = PackageName(device: device, kind: .changes, number: number)
        if seen.contains(name.description) { continue }
        if present[device]?.contains(number) != true { return true }
        behind += 1
      }
    }
    return behind >= rather
  }

  // MARK: - Compact

  /// Writes a snapshot once `compactAfter` change files are not held by one (counting the files
  /// this sync pushed), and removes this device's change files that a snapshot holds.
  private func compact(
    _ listing: RemoteListing, remote key: String, pushedFiles: Int, _ report: inout SyncReport
  ) throws {
    let (held, fileNumber, compactedBefore) = try database.read { db in
      (
        try db.snapshotCovers(),
        try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0,
        try db.setting(Connection.compactedKey).flatMap(Int64.init) ?? 0
      )
    }
    var compacted = compactedBefore
    let loose =
      listing.packages.filter { name in
        name.kind == .changes && name.number > held[name.device] ?? 0
      }.count + pushedFiles
    // A snapshot holds only what this device has read: files it skipped or waits for are not
    // claimed by it, so they do not stop it.
    if !report.wroteSnapshot, loose >= compactAfter {
      try writeSnapshot(
        fileNumber: fileNumber, countsAsPushed: false, listing, remote: key, &report)
      compacted = fileNumber
    }
    // This device's files: those listed, and those this sync wrote.
    var mine = Set(
      listing.packages.filter { $0.device == device && $0.kind == .changes }.map(\.number))
    if pushedFiles > 0 { mine.formUnion((fileNumber - Int64(pushedFiles) + 1)...fileNumber) }
    for number in mine.sorted() where number <= compacted {
      try remote.remove(PackageName(device: device, kind: .changes, number: number))
    }
  }
}
