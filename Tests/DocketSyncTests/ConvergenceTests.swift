import Database
import DocketCore
import DocketSync
import Foundation
import Testing

/// Random work on several devices, synced in a random order with clocks that disagree, then a
/// full round of syncs: every device must hold the same data. A failure names its seed, and the
/// history of the first row that differs; `DOCKET_SYNC_SEED=<seed>` replays it.
@Suite struct ConvergenceTests {
  /// 16 seeds of 1 000 operations in every test run; `DOCKET_SYNC_SEEDS=500` runs more, `DOCKET_SYNC_SEED=17`
  /// replays one.
  static let seeds: [UInt64] = {
    let environment = ProcessInfo.processInfo.environment
    if let one = environment["DOCKET_SYNC_SEED"].flatMap(UInt64.init) { return [one] }
    let count = environment["DOCKET_SYNC_SEEDS"].flatMap(UInt64.init) ?? 16
    return Array(1...max(1, count))
  }()

  @Test(arguments: seeds) func converges(seed: UInt64) throws {
    try Self.run(seed: seed, operations: 1000)
  }

  /// The same through a PostgreSQL space: 6 seeds in every run (`DOCKET_SYNC_SEEDS` and
  /// `DOCKET_SYNC_SEED` as above).
  static let postgresSeeds: [UInt64] = {
    let environment = ProcessInfo.processInfo.environment
    if environment["DOCKET_SYNC_SEED"] != nil || environment["DOCKET_SYNC_SEEDS"] != nil {
      return seeds
    }
    return Array(101...106)
  }()

  @Test(arguments: postgresSeeds) func convergesThroughPostgres(seed: UInt64) throws {
    try Self.run(seed: seed, operations: 1000, backend: .postgres)
  }

  /// One seed through an encrypted folder: every package and image sealed, the same end.
  @Test func convergesThroughAnEncryptedRemote() throws {
    try Self.run(seed: 7, operations: 1000, encrypted: true)
  }

  /// Many operations on one seed, with snapshots written often.
  @Test func convergesOverALongRun() throws {
    try Self.run(seed: 9001, operations: 3000, compactAfter: 4)
  }

  /// A row's recorded changes, one per line, for a failure's report.
  static func changes(of row: String, in replica: Replica) throws -> String {
    try replica.queue.read { db in
      try db.fetchAll(
        """
        SELECT c.hlc, d.id, c.entity, c.field, quote(c.old_value), quote(c.new_value), c.modified,
          c.lost, c.held
        FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.row_id = ? ORDER BY c.hlc
        """, [row]
      ) { row in
        try (0..<9).map { String(describing: try row.get($0, as: DatabaseValue.self)) }
          .joined(separator: " ")
      }.joined(separator: "\n")
    }
  }

  /// The tag changes and aliases of the group a tag belongs to.
  static func tagChanges(_ tag: String, in replica: Replica) throws -> String {
    guard !tag.isEmpty else { return "" }
    return try replica.queue.read { db in
      let aliases = try db.fetchAll("SELECT id, name_key FROM sync_tag_names ORDER BY name_key") {
        "name \(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self))"
      }
      let rows = try db.fetchAll("SELECT id, name FROM tags") {
        "row \(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self))"
      }
      let changes = try db.fetchAll(
        """
        SELECT c.hlc, d.id, c.row_id, c.field, quote(c.old_value), quote(c.new_value), c.lost
        FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.entity = 'tag' ORDER BY c.hlc
        """
      ) { row in
        try (0..<7).map { String(describing: try row.get($0, as: DatabaseValue.self)) }
          .joined(separator: " ")
      }
      return (rows + aliases + changes).joined(separator: "\n")
    }
  }

  /// The changes that count in a database, as a snapshot would carry them: the winner of each
  /// row and field, its stamp and device included. Devices that hold the same data from the same
  /// changes give the same list.
  static func winners(_ replica: Replica) throws -> [String] {
    var lines: [String] = []
    try replica.queue.read { db in
      try db.forEachWinningChange { change in
        lines.append(
          "\(change.stamp) \(change.entity) \(change.row) \(change.field) \(change.new)")
      }
    }
    return lines.sorted()
  }

  /// Things put in a folder by others: bytes named like a change file, a change that says it
  /// is another device's, a link to a file elsewhere. Sync skips each and applies the rest.
  static func plantHostileFile(
    in folder: String, devices: [String], using random: inout SeededRandom
  )
    throws
  {
    guard let device = devices.randomElement(using: &random), let other = devices.last else {
      return
    }
    let place = folder + "/" + device
    try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
    let number = 90_000_000 + Int(random.next() % 1_000_000)
    let file = place + String(format: "/%08d.changes", number)
    switch random.next() % 3 {
    case 0:
      let bytes = (0..<Int(random.next() % 300)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    case 1:
      // Names another device as the maker of a change in this device's file.
      let forged =
        "{\"docket\":\"changes\",\"version\":1,\"device\":\"\(device)\",\"name\":\"X\",\"number\":\"\(number)\",\"count\":1}\n"
        + "{\"h\":\"\(1 << 50)\",\"d\":\"\(other)\",\"e\":\"issue\",\"r\":\"\(random.uuid().lowercasedText)\",\"f\":\"title\",\"n\":\"forged\"}\n"
        + "{\"end\":1}\n"
      try forged.write(toFile: file, atomically: true, encoding: .utf8)
    default:
      let target = folder + "-outside-\(number)"
      try "{\"docket\":\"changes\"}".write(toFile: target, atomically: true, encoding: .utf8)
      try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: target)
    }
  }

  /// For finding what a failing seed needs: `DOCKET_SYNC_PLAIN=clocks,copies` leaves out
  /// those kinds of operation.
  static let plain = ProcessInfo.processInfo.environment["DOCKET_SYNC_PLAIN"] ?? ""

  static func run(
    seed: UInt64, operations: Int, compactAfter: Int? = nil, backend: Backend = .folder,
    encrypted: Bool = false
  ) throws {
    var random = SeededRandom(seed: seed)
    let shared = try TestRemote(backend)
    let count = Int.random(in: 3...5, using: &random)
    let compact = compactAfter ?? (random.next() % 2 == 0 ? 3 : 1000)
    // Half the seeds make every new issue of a package at once, half a change at a time.
    let bulkFrom = random.next() % 2 == 0 ? 1 : 1_000_000
    // Half the seeds write every snapshot's database image too, which a new device takes in.
    let imageMinimumChanges = random.next() % 2 == 0 ? 1 : 1_000_000
    // Half the seeds take things back too: undo and redo, restores, conflicts used or
    // dismissed, issues deleted for good. (The others keep the count of what must be there.)
    let takesBack = random.next() % 2 == 0 && !Self.plain.contains("undo")
    // Time as it is, and each device's clock off it by its own amount: within two minutes of
    // the others (less than `HybridClock.maxDrift`), but for a stretch of the run, in half the
    // seeds, one device a year ahead and one a year behind, both set right before the end.
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var offsets: [TimeInterval] = []
    var replicas: [Replica] = []
    for index in 0..<count {
      offsets.append(Double(Int.random(in: -120...120, using: &random)))
      replicas.append(
        try Replica("R\(index)", remote: shared, start: now.addingTimeInterval(offsets[index])))
    }
    if encrypted {
      let key = try RemoteEncryption.encrypt(
        replicas[0].remote, passphrase: "seed \(seed)", cost: .light)
      for replica in replicas { replica.key = key }
    }
    let year: TimeInterval = 365 * 86_400
    let wrongClocks = random.next() % 2 == 0 && !Self.plain.contains("clocks")
    let (ahead, behind) = (1, count - 1)
    let wrongFrom = operations / 5
    let wrongUntil = operations * 3 / 5
    let names = ["bug", "Bug", "feature", "ui", "docs", "später"]
    var renamed = 0
    var backups: [(Replica, [UInt8])] = []
    var copies = 0
    var restoredDeleted = false
    // What every device must hold in the end: each issue made and not deleted anywhere.
    var made = Set<UUID>()
    var deleted = Set<UUID>()
    for operation in 0..<operations {
      // Time goes on; each clock now and then a little backwards, as clocks set by the network
      // do.
      now = now.addingTimeInterval(Double(Int.random(in: 0...2000, using: &random)) / 1000)
      if wrongClocks, operation == wrongFrom {
        offsets[ahead] += year
        offsets[behind] -= year
      }
      if wrongClocks, operation == wrongUntil {
        // Set right, and so the clocks of databases copied from them meanwhile.
        for index in offsets.indices where abs(offsets[index]) > 86_400 {
          offsets[index] -= offsets[index] > 0 ? year : -year
        }
      }
      for (index, replica) in replicas.enumerated() {
        let jitter = Double(Int.random(in: -200...0, using: &random)) / 1000
        replica.time.set(now.addingTimeInterval(offsets[index % offsets.count] + jitter))
      }
      let index = Int.random(in: 0..<replicas.count, using: &random)
      let replica = replicas[index]
      let issues = try replica.queue.read { db in
        try db.fetchAll("SELECT id FROM issues ORDER BY id") { try $0.get(0, as: UUID.self) }
      }
      let tags = try replica.queue.read { try $0.fetchTags() }
      let roll = Int.random(in: 0..<(takesBack ? 116 : 106), using: &random)
      do {
        switch roll {
        case 0..<12:
          try replica.sync(
            compactAfter: compact, bulkFrom: bulkFrom, imageMinimumChanges: imageMinimumChanges)
        case 12..<27:
          let id = random.uuid()
          try replica.issue("issue \(random.next() % 1000)", id: id)
          made.insert(id)
        case 27..<37 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          let title = "title \(random.next() % 1000)"
          try replica.edit(id) { $0.title = title }
        case 37..<44 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          let detail = "detail \(random.next() % 1000)"
          try replica.edit(id) { $0.detail = detail }
        case 44..<50 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          let priority = Priority(rawValue: Int(random.next() % 3))!
          try replica.edit(id) { $0.priority = priority }
        case 50..<58 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          try replica.edit(id) { $0.completed.toggle() }
        case 58..<62 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          try replica.queue.write { _ = try $0.deleteIssues([id]) }
          deleted.insert(id)
        case 62..<72:
          let name = names.randomElement(using: &random)!
          let id = random.uuid()
          _ = try replica.queue.write { try $0.createTag(named: name, id: id) }
        case 72..<84 where !issues.isEmpty && !tags.isEmpty:
          let id = issues.randomElement(using: &random)!
          let tag = tags.randomElement(using: &random)!
          try replica.edit(id) { issue in
            if !issue.tags.contains(where: { $0.id == tag.id }) { issue.tags.append(tag) }
          }
        case 84..<92 where !issues.isEmpty:
          let id = issues.randomElement(using: &random)!
          try replica.edit(id) { issue in
            if !issue.tags.isEmpty { issue.tags.remove(at: 0) }
          }
        case 92..<96 where !tags.isEmpty:
          let tag = tags.randomElement(using: &random)!
          renamed += 1
          // Now and then to a name another tag bears on another device.
          let name =
            random.next() % 3 == 0 ? names.randomElement(using: &random)! : "renamed \(renamed)"
          try replica.queue.write { _ = try $0.renameTag(id: tag.id, to: name) }
        case 96..<100 where !tags.isEmpty:
          let tag = tags.randomElement(using: &random)!
          try replica.queue.write { _ = try $0.deleteTag(id: tag.id) }
        case 100 where !Self.plain.contains("backups"):
          // A backup, kept for later.
          backups.append((replica, try replica.backup()))
        case 101 where !backups.isEmpty:
          // A backup restored where it was made: what sync deleted since stays deleted, unless
          // asked (and then it comes back everywhere).
          let (owner, backup) = backups.randomElement(using: &random)!
          let restore = random.next() % 4 == 0
          try owner.restore(backup, restoreDeleted: restore)
          restoredDeleted = restoredDeleted || restore
        case 102 where copies < 2 && !Self.plain.contains("copies"):
          // A database copied (a cloned disk): the copy goes on with the original's id.
          copies += 1
          let copy = try Replica(copying: replica, name: "\(replica.name)-copy")
          replicas.append(copy)
          offsets.append(offsets[index % offsets.count])
        case 103 where backend == .folder && !Self.plain.contains("hostile"):
          try Self.plantHostileFile(
            in: shared.location, devices: replicas.map(\.device), using: &random)
        case 106..<109:
          _ = try replica.queue.write { try $0.undo(makeID: { random.uuid() }) }
        case 109..<111:
          _ = try replica.queue.write { try $0.redo(makeID: { random.uuid() }) }
        case 111..<113:
          let listed = try replica.queue.read { try $0.recentlyDeletedIssues() }
          if let chosen = listed.randomElement(using: &random) {
            _ = try replica.queue.write { try $0.restoreDeletedIssue(id: chosen.id) }
          }
        case 113..<115:
          let open = try replica.queue.read { try $0.conflicts() }
          if let chosen = open.randomElement(using: &random) {
            let use = random.next() % 2 == 0
            _ = try replica.queue.write { db in
              try use ? db.useConflict(chosen.id) : db.dismissConflict(chosen.id)
            }
          }
        case 115:
          let listed = try replica.queue.read { try $0.recentlyDeletedIssues() }
          if let chosen = listed.randomElement(using: &random) {
            _ = try replica.queue.write { try $0.purgeIssue(id: chosen.id) }
          }
        default:
          break
        }
      } catch let error as TagError {
        // A name taken on this device: refused here as it would be for a person.
        _ = error
      }
    }
    // The clocks as they were (set right), then full rounds: the first brings everything to the
    // remote, the next to everyone, a clock repaired or held changes released on the way.
    now = now.addingTimeInterval(60)
    for (index, replica) in replicas.enumerated() {
      replica.time.set(now.addingTimeInterval(offsets[index % offsets.count]))
    }
    for _ in 0..<3 {
      for replica in replicas {
        try replica.sync(
          compactAfter: compact, bulkFrom: bulkFrom, imageMinimumChanges: imageMinimumChanges)
      }
    }
    let expected = try replicas[0].dump()
    let expectedWinners = try Self.winners(replicas[0])
    for replica in replicas.dropFirst() {
      let dump = try replica.dump()
      if dump != expected {
        let mine = Set(dump.split(separator: "\n"))
        let theirs = Set(expected.split(separator: "\n"))
        let first = mine.symmetricDifference(theirs).sorted().first.map(String.init) ?? ""
        let parts = first.split(separator: " ")
        let row =
          parts.dropFirst().first.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
          } ?? ""
        let tagRow = parts.first == "link" ? String(parts.last!) : ""
        Issue.record(
          """
          seed \(seed): \(replica.name) differs from R0
          only in \(replica.name): \(mine.subtracting(theirs).sorted().prefix(6))
          only in R0: \(theirs.subtracting(mine).sorted().prefix(6))
          history of \(row) in \(replica.name):
          \(try Self.changes(of: row, in: replica))
          in R0:
          \(try Self.changes(of: row, in: replicas[0]))
          tags in \(replica.name):
          \(try Self.tagChanges(tagRow, in: replica))
          tags in R0:
          \(try Self.tagChanges(tagRow, in: replicas[0]))
          """)
        return
      }
      // The same changes count everywhere: none held back or waiting anywhere.
      let winners = try Self.winners(replica)
      if winners != expectedWinners {
        let first = Set(winners).symmetricDifference(expectedWinners).sorted().first!
        let row = String(first.split(separator: " ")[2])
        Issue.record(
          """
          seed \(seed): \(replica.name) counts other changes than R0: \(first)
          history of \(row) in \(replica.name):
          \(try Self.changes(of: row, in: replica))
          in R0:
          \(try Self.changes(of: row, in: replicas[0]))
          """)
      }
    }
    for replica in replicas {
      let held = try replica.queue.read {
        try $0.fetchOne("SELECT count(*) FROM changes WHERE held = 1", as: Int.self)
      }
      #expect(held == 0, "seed \(seed): \(replica.name) still holds changes back")
      // And each holds what its changes make, no more: what a local write left that no change
      // says would reach no other device.
      let dump = try replica.dump()
      let rebuilt = try rebuiltDump(replica)
      if dump != rebuilt {
        let mine = Set(dump.split(separator: "\n"))
        let made = Set(rebuilt.split(separator: "\n"))
        Issue.record(
          """
          seed \(seed): \(replica.name) holds what its changes do not make
          only held: \(mine.subtracting(made).sorted().prefix(6))
          only made: \(made.subtracting(mine).sorted().prefix(6))
          """)
      }
    }
    // Nothing lost on all of them at once: every issue made and not deleted is there, and no
    // other (a restore of deleted issues aside, which brings back issues deleted before it).
    let held = try replicas[0].queue.read { db in
      Set(try db.fetchAll("SELECT id FROM issues") { try $0.get(0, as: UUID.self) })
    }
    if !restoredDeleted, !takesBack {
      #expect(held == made.subtracting(deleted), "seed \(seed)")
    }
    // Every device holds every dismissal (a snapshot carries them all), so a conflict dealt
    // with on one is listed on none.
    if takesBack {
      let dismissals = try replicas.map { replica in
        try replica.queue.read { db in
          try db.fetchAll(
            "SELECT row_id || ' ' || new_value FROM changes WHERE field = 'dismiss' AND held = 0"
          ) { try $0.get(0, as: String.self) }.sorted()
        }
      }
      for (index, other) in dismissals.enumerated().dropFirst() {
        #expect(other == dismissals[0], "seed \(seed): \(replicas[index].name) dismissed others")
      }
    }
  }
}
