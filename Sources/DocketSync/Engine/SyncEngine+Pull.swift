import CSQLite
import Database
import DocketCore
import Foundation

/// Pulling: the other devices' packages, a snapshot first where this device is behind what it
/// holds, each package applied and noted as read in one transaction.
extension SyncEngine {
  func pull(
    _ listing: RemoteListing, remote key: String, _ report: inout SyncReport,
    step: () throws -> Void
  ) throws {
    // Changes held back whose time has come, first.
    // Looked for first: a write that finds nothing still takes the writer's lock.
    if try database.read({
      try $0.fetchOne("SELECT 1 FROM changes WHERE held = 1 LIMIT 1", as: Int.self) != nil
    }) {
      report.take(try database.write { try $0.releaseHeldChanges() })
    }
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
    // What the folder shows of each device's files: its change files there, and what its own
    // snapshot says it wrote. A snapshot that claims more of another device's files than that
    // is believed only so far: a false claim would have every reader pass over that device's
    // files for good.
    var shown: [String: Int64] = [:]
    for name in others where name.kind == .changes {
      shown[name.device] = max(shown[name.device] ?? 0, name.number)
    }
    var headers: [PackageName: Package] = [:]
    for snapshot in others where snapshot.kind == .snapshot {
      guard let header = try? remote.header(snapshot) else { continue }
      headers[snapshot] = header
      if let own = header.covers[snapshot.device] {
        shown[snapshot.device] = max(shown[snapshot.device] ?? 0, own)
      }
    }
    func believed(_ covers: [String: Int64], of writer: String) -> [String: Int64] {
      covers.reduce(into: [:]) { result, entry in
        let (device, through) = entry
        guard device != writer, let limit = shown[device] else {
          result[device] = through
          return
        }
        result[device] = min(through, max(limit, covered[device] ?? 0))
      }
    }
    for snapshot in others.filter({ $0.kind == .snapshot && !seen.contains($0.description) })
      .sorted(by: { $0.number > $1.number })
    {
      guard
        var header = try fetch(
          { try headers[snapshot] ?? remote.header(snapshot) }, snapshot, &report)
      else {
        continue
      }
      header.covers = believed(header.covers, of: snapshot.device)
      guard
        Self.needs(
          header, covered: covered, present: present, seen: seen,
          filesForSnapshot: snapshotInsteadOfFiles,
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
      // Found and checked to be whole first, then decoded and applied a part at a time, all in
      // one transaction, so that a large snapshot is never held decoded whole. A part that
      // cannot be read skips the snapshot as a package that cannot be read is skipped, and what
      // the parts before it applied is rolled back.
      guard let parts = try fetch({ try remote.readParts(snapshot) }, snapshot, &report) else {
        continue
      }
      // The covers recorded are those of the snapshot read (which may be newer than the
      // header looked at above, if its device wrote it again meanwhile).
      var read = header
      var rejected: [ChangeFormatError] = []
      var rejectedMore = 0
      let summary: ApplySummary?
      do {
        summary = try applying(
          header, &report,
          {
            try database.write { db in
              var summary = ApplySummary()
              do {
                try parts.forEach(partSize: snapshotPartSize) { part in
                  read.covers = believed(part.covers, of: snapshot.device)
                  rejected += part.rejected
                  rejectedMore += part.rejectedMore
                  do {
                    summary.add(
                      try db.applyChanges(
                        part.changes, deviceNames: [part.name.device: part.deviceName],
                        bulkFrom: bulkFrom, local: self.device))
                  } catch {
                    throw Applying(error: error)
                  }
                }
              } catch let applying as Applying {
                throw applying.error
              } catch {
                throw Decoding(error: error)
              }
              try db.recordSnapshotRead(read, remote: key, myself: self.device)
              return summary
            }
          })
      } catch let decoding as Decoding {
        _ = try fetch({ () throws -> PackageParts in throw decoding.error }, snapshot, &report)
        continue
      }
      guard let summary else { continue }
      Self.note(rejected, more: rejectedMore, of: snapshot, in: &report)
      for (device, through) in read.covers where device != self.device {
        covered[device] = max(covered[device] ?? 0, through)
      }
      report.take(summary)
      report.usedSnapshot = true
      try step()
    }

    let unread = others.filter {
      $0.kind == .changes && $0.number > covered[$0.device] ?? 0 && !seen.contains($0.description)
    }.sorted { ($0.device, $0.number) < ($1.device, $1.number) }
    for name in unread {
      guard let package = try fetch({ try remote.read(name) }, name, &report) else { continue }
      guard
        let summary = try applying(
          package, &report,
          {
            try database.write { db in
              let summary = try db.applyChanges(
                package.changes, deviceNames: [name.device: package.deviceName], bulkFrom: bulkFrom,
                local: self.device)
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
      Self.note(package.rejected, more: package.rejectedMore, of: name, in: &report)
      covered[name.device] = summary.1
      report.take(summary.0)
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

  /// The lines of a package that were skipped, each named, once: the package was applied
  /// without them and is not read again.
  static func note(
    _ rejected: [ChangeFormatError], more: Int, of name: PackageName,
    in report: inout SyncReport
  ) {
    for error in rejected {
      report.skipped.append(
        SkippedPackage(path: name.description, problem: .package(.badChange(error))))
    }
    if more > 0 {
      report.skipped.append(
        SkippedPackage(path: name.description, problem: .package(.moreBadLines(more))))
    }
  }

  /// Errors on their way out of a snapshot applied a part at a time: the database's (a part's
  /// merge) and the package's (a change that cannot be read), told apart as each is handled.
  private struct Applying: Error { var error: any Error }
  private struct Decoding: Error { var error: any Error }

  /// A package read, or (a file cut short, garbage, gone since the listing, unreadable) nil and
  /// the reason in the report: the rest of the sync goes on. A server that cannot be reached, or
  /// a space dropped, stops the sync instead of failing package after package.
  func fetch<Value>(
    _ body: () throws -> Value, _ name: PackageName, _ report: inout SyncReport
  ) throws -> Value? {
    do { return try body() } catch let skipped as SkippedPackage {
      report.skipped.append(skipped)
    } catch let error as RemoteError {
      let reason: String
      switch error.problem {
      // A server gone or a space dropped fails every package after it: the sync stops.
      case .unreachable, .spaceMissing: throw error
      case .system(let text), .denied(let text): reason = text
      default: reason = "\(error.problem)"
      }
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
  func applying<Value>(
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
    seen: Set<String>, filesForSnapshot: Int, myself: String
  ) -> Bool {
    // A device that has read nothing here yet starts from a snapshot whenever there is one
    // (SPEC §10: not by replaying every change ever made).
    if covered.isEmpty, seen.isEmpty, snapshot.covers.contains(where: { $0.key != myself }) {
      return true
    }
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
    return behind >= filesForSnapshot
  }
}
