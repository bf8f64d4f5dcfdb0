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
  /// Why the remote refused this device's changes (the server's reason), when it did: they stay
  /// queued for a later sync.
  public var pushRefused: String?
  /// The devices whose changes wait here, stamped further ahead of this device's clock than
  /// `HybridClock.maxDrift` allows, with how far ahead the furthest is.
  public var held: [HeldDevice] = []
  /// True when most of the devices this one syncs with look ahead of it: then its own clock is
  /// the one that looks wrong.
  public var clockLooksBehind = false
  /// Changes of retired devices (clocks that ran ahead, set right since): kept as lost.
  public var void = 0
  /// Devices (by name) that sent a stamp twice with other values: one of the two is kept, the
  /// same on every device.
  public var twins: [String] = []
  /// Set when this sync made this database a new device, and why.
  public var newDevice: DeviceSwitch?

  public init() {}

  /// Adds what applying a package did.
  mutating func take(_ summary: ApplySummary) {
    pulled += summary.received
    lost += summary.lost
    void += summary.void
    for device in summary.twins.keys where !twins.contains(device) { twins.append(device) }
  }
}

/// A device whose changes are held back here, stamped ahead of this device's clock.
public struct HeldDevice: Equatable, Sendable {
  public var id: String
  /// Its name as last heard (the start of its id when none was).
  public var name: String
  public var changes: Int
  /// How far its furthest change is stamped ahead of this device's clock.
  public var ahead: TimeInterval
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
  public var imageMinimumChanges = 20_000
  /// A device that is behind reads a snapshot rather than this many files.
  public var snapshotInsteadOfFiles = 32
  /// For tests: stop after this many packages written or read.
  public var stopAfter: Int?
  /// From how many new issues a package's are made at once.
  public var bulkFrom = Merger.bulkThreshold
  /// How many of a snapshot's changes are decoded and applied at a time (all in its one
  /// transaction): parts keep a large snapshot's memory bounded, parts this large cost no more
  /// time than applying it whole, and smaller ones save little memory.
  public var snapshotPartSize = 50_000
  /// How long a sync waits for another sync of the same database to end.
  public var lockWait: Duration = .seconds(10)
  /// Writes a snapshot of all this device holds, however few files there are (a remote just
  /// encrypted: the snapshot, sealed, holds what other devices wrote plain).
  public var snapshotNow = false

  public init(database: DatabaseQueue, remote: any SyncRemote, device: String, deviceName: String) {
    self.database = database
    self.remote = remote
    self.device = device
    self.deviceName = deviceName
  }

  /// One sync; when it makes this database a new device (a copy found, a clock repaired), it
  /// starts again as that device, at most twice.
  public func run() throws -> SyncReport {
    var engine = self
    var switched: DeviceSwitch?
    for _ in 0..<3 {
      do {
        var report = try engine.runOnce()
        report.newDevice = report.newDevice ?? switched
        return report
      } catch let change as DeviceSwitched {
        switched = change.reason
        engine.device = change.newID
        engine.remote = engine.remote.forDevice(change.newID)
      }
    }
    throw SyncFailure("the device's id changed again and again")
  }

  private func runOnce() throws -> SyncReport {
    var report = SyncReport()
    var steps = 0
    func step() throws {
      steps += 1
      if let stopAfter, steps >= stopAfter { throw SyncInterrupted() }
    }
    let lock = try SyncLock(database: database.path, wait: lockWait)
    defer { lock.release() }
    let id = try prepareRemote()
    if try database.read({ try $0.setting(Connection.remoteIDKey) }) != id {
      try database.write { try $0.adoptRemote(id) }
    }
    if try database.read({ try $0.deviceNames()[device] }) != deviceName {
      try database.write { try $0.recordLocalDeviceName(deviceName) }
    }
    if let new = try repairClock(remote: id) {
      throw DeviceSwitched(newID: new, reason: .clockRepaired)
    }
    // One look at the remote serves the whole sync: this device's files in it change only by
    // this sync, and others' files that arrive meanwhile are read by the next.
    let listing = try remote.list()
    report.skipped += listing.skipped
    try resealOwn(listing, remote: id)
    if let copy = try foreignPackages(listing, remote: id) {
      throw DeviceSwitched(
        newID: try database.write { db in
          try db.becomeNewDevice(relabel: copy.ranges, remote: id, ownThrough: copy.ownThrough)
        }, reason: .copied)
    }
    // A remote that refuses this device's writes (a role that may only read) is still pulled
    // from; what was not pushed stays queued, since the push cursor moves only after a write.
    var pushedFiles = 0
    var mayWrite = true
    do {
      if let refusal = try remote.writeRefusal() {
        mayWrite = false
        // Known before anything is made: said only when this device has changes of its own
        // waiting (a member who only reads and edits nothing syncs without a word).
        let own = try database.read { db in
          try db.localChangeCount(after: db.setting(Connection.pushedKey).flatMap(Int64.init) ?? 0)
        }
        if own > 0 { report.pushRefused = refusal }
      } else {
        pushedFiles = try push(listing, remote: id, &report, step: step)
      }
    } catch let error as RemoteError {
      if error.problem == .numberTaken {
        // Another database wrote this device's next file first: a copy of this one.
        throw DeviceSwitched(newID: try switchAfterCopy(remote: id), reason: .copied)
      }
      guard case .denied(let reason) = error.problem else { throw error }
      report.pushRefused = reason
    }
    do {
      try pull(listing, remote: id, &report, step: step)
    } catch is CopiedDatabase {
      throw DeviceSwitched(newID: try switchAfterCopy(remote: id), reason: .copied)
    }
    // Issues whose latest delete is more than 30 days old end now, after the pull (a restore
    // made elsewhere is heard first), as changes the next push takes to every device; each
    // names the delete it ends, and a restore stamped after that delete still wins over it.
    try database.write { _ = try $0.purgeExpiredDeletes() }
    // Files that could not be read may mean the folder went away in the middle (or a mount left
    // an empty folder in its place): then say that, before compaction writes anything.
    if !report.skipped.isEmpty { _ = try remote.prepare(expecting: id) }
    if report.pushRefused == nil, mayWrite {
      do {
        try compact(listing, remote: id, pushedFiles: pushedFiles, &report)
      } catch let error as RemoteError {
        // A role that may add packages but not remove them: compaction waits for one that may.
        guard case .denied = error.problem else { throw error }
      }
    }
    try noteHeld(listing, &report)
    // Files warned about are remembered (and forgotten once gone) only where there are any.
    let warned = try database.read {
      try $0.fetchOne("SELECT 1 FROM sync_warned WHERE remote = ? LIMIT 1", [id], as: Int.self)
    }
    if !report.skipped.isEmpty || warned != nil {
      report.skipped = try database.write { db in
        try db.onceEach(report.skipped, listing: listing, remote: id)
      }
    }
    return report
  }
}
