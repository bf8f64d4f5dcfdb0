import CSQLite
import Database
import DocketCore
import Foundation

/// Pushing: this device's changes to the remote, a package at a time (or as one snapshot),
/// and compaction: snapshots that let this device's older files go.
extension SyncEngine {
  /// Pushes this device's new changes in packages of `batchSize`; returns how many files it
  /// wrote. More changes than `snapshotPushFrom` (a first sync of a large database) go as one
  /// snapshot instead, which a device that joins reads at once.
  func push(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport,
    step: () throws -> Void
  ) throws -> Int {
    try pushRetired(listing, remote: key, &report)
    try pushRelayed(listing, remote: key, &report)
    let (pushed, numbered, unpushed, heard) = try database.read { db in
      let cursor = try db.setting(Connection.pushedKey).flatMap(Int64.init)
      return (
        cursor, try db.setting(Connection.fileNumberKey).flatMap(Int64.init),
        try cursor.map { Int64(try db.localChangeCount(after: $0)) } ?? db.latestChangeSeq(),
        try db.fetchOne(
          """
          SELECT 1 FROM changes WHERE held = 0 AND device != (SELECT device FROM sync_clock)
          LIMIT 1
          """, as: Int.self) != nil
      )
    }
    var (cursor, number, waiting) = (pushed, numbered ?? 0, unpushed)
    // The first push to a remote carries everything this device knows, so that nothing it
    // heard from devices elsewhere is missing there: as a snapshot, where others' changes are
    // (a device's change files hold its own changes only).
    let everything = cursor == nil
    // Its own files there (noted as written; one a push wrote just before it was cut off
    // included): the next goes after them. A file of another kind under its id (bytes put
    // there) is passed over when its number comes.
    let noted = try database.read { db in
      try db.fetchOne(
        "SELECT coalesce(max(number), 0) FROM sync_own_files WHERE remote = ? AND kind = 'changes'",
        [key], as: Int64.self) ?? 0
    }
    let existing = listing.packages.filter {
      $0.device == device && $0.kind == .changes && $0.number <= noted
    }
    number = max(number, existing.map(\.number).max() ?? 0)
    // Back at a remote it had left (its numbering forgotten), this device's files that its
    // snapshot holds may be gone: number on after them, or readers, past them already, would never
    // read the new ones.
    for snapshot in listing.packages
    where numbered == nil && snapshot.device == device && snapshot.kind == .snapshot {
      do {
        number = max(number, try remote.header(snapshot).covers[device] ?? 0)
      } catch is SkippedPackage {
        // A snapshot that cannot be read holds nothing that counts.
      }
    }
    if waiting >= snapshotPushFrom || (everything && heard) {
      // The snapshot stands for a change file of the next number, which is never written: a
      // device that has not read it sees it missing and reads the snapshot.
      try writeSnapshot(
        fileNumber: number + 1, countsAsPushed: true, listing, remote: key, &report)
      report.pushed += Int(waiting)
      try step()
      return 0
    }
    var files = 0
    // A remote that writes packages together (a server) takes the whole push in one
    // transaction: readers see all of it or none, and are told once.
    var together: [Package] = []
    while true {
      let batch = Self.cut(
        try database.read { try $0.changesToPush(after: cursor ?? 0, limit: batchSize) },
        bytes: Self.packageBytes)
      guard let last = batch.last else { break }
      number += 1
      var package = Package(
        name: PackageName(device: device, kind: .changes, number: number),
        deviceName: deviceName, changes: batch.map(\.change))
      if remote.writesTogether != nil {
        try noteWriting(package, after: cursor ?? 0, remote: key)
        cursor = last.seq
        waiting = 0
        together.append(package)
        continue
      }
      // A number taken by something that is no package of this id (bytes, a link or a folder
      // put there) is passed over; one taken by a package is a copy's (`.numberTaken`).
      for attempt in 0... {
        try noteWriting(package, after: cursor ?? 0, remote: key)
        do {
          try remote.write(package)
          break
        } catch let error as RemoteError where error.problem == .numberTaken && attempt < 100 {
          guard (try? remote.header(package.name)) == nil else { throw error }
          number += 1
          package.name.number = number
        }
      }
      cursor = last.seq
      waiting = 0
      try notePushed(through: last.seq, fileNumber: number)
      report.pushed += batch.count
      files += 1
      try step()
    }
    if let writeAll = remote.writesTogether, !together.isEmpty, let cursor {
      try writeAll(together)
      try notePushed(through: cursor, fileNumber: number)
      report.pushed += together.reduce(0) { $0 + $1.changes.count }
      files += together.count
      try step()
    }
    if cursor == nil {
      try database.write { try $0.setSetting(Connection.pushedKey, "0") }
    }
    return files
  }

  /// The most bytes of changes a package is given (at least one change, however large): a file
  /// of 1 000 changes of the largest texts would be larger than any reader takes.
  public static let packageBytes = 8 << 20

  /// The changes of `batch` from its start that fit `bytes` as a package's lines (one at least).
  static func cut(_ batch: [(seq: Int64, change: Change)], bytes: Int) -> [(
    seq: Int64, change: Change
  )] {
    var total = 0
    for (index, entry) in batch.enumerated() {
      total += Merger.encoded(entry.change).count + 1
      if total > bytes, index > 0 { return Array(batch[..<index]) }
    }
    return batch
  }

  /// Notes, before it is written, the size of a change file this device is about to write and
  /// the row its changes come after: a file of its number found later with another size was not
  /// written here (`foreignPackages`).
  private func noteWriting(_ package: Package, after: Int64, remote key: String) throws {
    let size = remote.storedSize(of: PackageFormat.encode(package))
    try database.write { db in
      try db.execute(
        """
        INSERT OR REPLACE INTO sync_own_files (remote, kind, number, size, after)
        VALUES (?, 'changes', ?, ?, ?)
        """, [key, package.name.number, size, after])
    }
  }

  /// The last changes of the id this device had before its clock was repaired (its retirement
  /// among them), pushed as that device's, in its folder, once.
  private func pushRetired(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport
  ) throws {
    guard let retired = try database.read({ try $0.retiredDevice() }) else { return }
    let previous = remote.forDevice(retired.id)
    var number = max(
      retired.fileNumber,
      listing.packages.filter { $0.device == retired.id && $0.kind == .changes }.map(\.number)
        .max() ?? 0)
    var after = retired.pushed
    while true {
      let batch = Self.cut(
        try database.read { db in
          try db.changesToPush(after: after, limit: batchSize, device: retired.id)
        }, bytes: Self.packageBytes)
      guard let last = batch.last else { break }
      number += 1
      try previous.write(
        Package(
          name: PackageName(device: retired.id, kind: .changes, number: number),
          deviceName: deviceName, changes: batch.map(\.change)))
      report.pushed += batch.count
      after = last.seq
    }
    try database.write { try $0.setSetting(Connection.previousDeviceKey, nil) }
  }

  /// The changes of the devices this database speaks for (browsers, which reach no remote
  /// themselves), each device's in its own files, as that device would have written them: a
  /// device's change files hold its own changes only.
  private func pushRelayed(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport
  ) throws {
    for (id, name) in try database.read({ try $0.relayedDevices() }) where id != device {
      let cursorKey = Connection.relayPushedPrefix + key + " " + id
      let kept = (try database.read { try $0.setting(cursorKey) } ?? "").split(separator: " ")
        .compactMap { Int64($0) }
      var after = kept.first ?? 0
      var number = max(
        kept.count >= 2 ? kept[1] : 0,
        listing.packages.filter { $0.device == id && $0.kind == .changes }.map(\.number).max()
          ?? 0)
      // No first file (0, or a cursor kept before first files were): none written yet to claim.
      var first = kept.count >= 3 && kept[2] > 0 ? kept[2] : nil
      let target = remote.forDevice(id)
      while true {
        let batch = Self.cut(
          try database.read { db in
            try db.changesToPush(after: after, limit: batchSize, device: id)
          }, bytes: Self.packageBytes)
        guard let last = batch.last else { break }
        number += 1
        try target.write(
          Package(
            name: PackageName(device: id, kind: .changes, number: number),
            deviceName: name, changes: batch.map(\.change)))
        report.pushed += batch.count
        after = last.seq
        if first == nil { first = number }
        try database.write { try $0.setSetting(cursorKey, "\(after) \(number) \(first ?? number)") }
      }
    }
  }

  /// Notes that this device's changes up to `seq` are in the remote, the last in file `number`.
  private func notePushed(through seq: Int64, fileNumber number: Int64) throws {
    try database.write { db in
      try db.setSetting(Connection.pushedKey, String(seq))
      try db.setSetting(Connection.fileNumberKey, String(number))
    }
  }

  /// Writes a snapshot of everything this database holds, as the change file `fileNumber` and
  /// every one of this device's before it, and what it has read of the others'. With
  /// `countsAsPushed` (a push made as a snapshot, `fileNumber` a number no file has) everything in
  /// it counts as pushed; otherwise (compaction) this device's changes after its last file still
  /// go out in the next one. This device's older snapshots go.
  func writeSnapshot(
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
      // The files this database wrote for the devices it speaks for: their changes are here,
      // and those before them too when it has read them all (another copy of this database
      // may have written some).
      for (id, first, last) in try db.relayedFiles(remote: key)
      where id != device && (read[id] ?? 0) >= first - 1 {
        read[id] = max(read[id] ?? 0, last)
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
    // Noted before it is written: a snapshot of this device's id that this database did not
    // write is a copy's (`foreignPackages`).
    try database.write { db in
      try db.execute(
        """
        INSERT OR REPLACE INTO sync_own_files (remote, kind, number, size, after)
        VALUES (?, 'snapshot', ?, -1, ?)
        """, [key, stamp, latest])
    }
    try remote.write(Package(name: name, deviceName: deviceName, covers: covers, changes: changes))
    if changes.count >= imageMinimumChanges { writeImage(of: name, covers: covers) }
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

  /// Writes a snapshot once `compactAfter` change files are not held by one (counting the files
  /// this sync pushed), and removes this device's change files that a snapshot holds.
  func compact(
    _ listing: RemoteListing, remote key: String, pushedFiles: Int, _ report: inout SyncReport
  ) throws {
    let (held, fileNumber, compactedBefore, owed) = try database.read { db in
      (
        try db.snapshotCovers(),
        try db.setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0,
        try db.setting(Connection.compactedKey).flatMap(Int64.init) ?? 0,
        try db.setting(Connection.snapshotOwedKey) != nil
      )
    }
    var compacted = compactedBefore
    let loose =
      listing.packages.filter { name in
        name.kind == .changes && name.number > held[name.device] ?? 0
      }.count + pushedFiles
    // A snapshot holds only what this device has read: files it skipped or waits for are not
    // claimed by it, so they do not stop it.
    if !report.wroteSnapshot, loose >= compactAfter || snapshotNow || owed {
      try writeSnapshot(
        fileNumber: fileNumber, countsAsPushed: false, listing, remote: key, &report)
      compacted = fileNumber
    }
    if owed, report.wroteSnapshot {
      try database.write { try $0.setSetting(Connection.snapshotOwedKey, nil) }
    }
    // This device's files: those listed, and those this sync wrote.
    var mine = Set(
      listing.packages.filter { $0.device == device && $0.kind == .changes }.map(\.number))
    if pushedFiles > 0 { mine.formUnion((fileNumber - Int64(pushedFiles) + 1)...fileNumber) }
    for number in mine.sorted() where number <= compacted {
      try remote.remove(PackageName(device: device, kind: .changes, number: number))
    }
    // The files written for the devices this database speaks for, once its snapshot holds them.
    let covered = try database.read { try $0.snapshotCovers() }
    for (id, _, _) in try database.read({ try $0.relayedFiles(remote: key) }) where id != device {
      let target = remote.forDevice(id)
      for name in listing.packages
      where name.device == id && name.kind == .changes && name.number <= covered[id] ?? 0 {
        try target.remove(name)
      }
    }
  }
}
