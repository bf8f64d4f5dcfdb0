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
          c.lost
        FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.row_id = ? ORDER BY c.hlc
        """, [row]
      ) { row in
        try (0..<8).map { String(describing: try row.get($0, as: DatabaseValue.self)) }
          .joined(separator: " ")
      }.joined(separator: "\n")
    }
  }

  /// The tag changes and aliases of the group a tag belongs to.
  static func tagChanges(_ tag: String, in replica: Replica) throws -> String {
    guard !tag.isEmpty else { return "" }
    return try replica.queue.read { db in
      let aliases = try db.fetchAll("SELECT id, canonical FROM sync_tag_aliases") {
        "alias \(try $0.get(0, as: String.self)) -> \(try $0.get(1, as: String.self))"
      }
      let rows = try db.fetchAll("SELECT id, name, sync_key FROM tags") {
        "row \(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: String.self))"
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

  static func run(
    seed: UInt64, operations: Int, compactAfter: Int? = nil, backend: Backend = .folder
  ) throws {
    var random = SeededRandom(seed: seed)
    let shared = try TestRemote(backend)
    let count = Int.random(in: 3...5, using: &random)
    let compact = compactAfter ?? (random.next() % 2 == 0 ? 3 : 1000)
    // Half the seeds make every new issue of a package at once, half a change at a time.
    let bulkFrom = random.next() % 2 == 0 ? 1 : 1_000_000
    // Half the seeds write every snapshot's database image too, which a new device takes in.
    let imageFrom = random.next() % 2 == 0 ? 1 : 1_000_000
    let base = Date(timeIntervalSince1970: 1_800_000_000)
    var replicas: [Replica] = []
    for index in 0..<count {
      // Clocks up to an hour apart.
      let skew = Double(Int.random(in: -3600...3600, using: &random))
      replicas.append(
        try Replica("R\(index)", remote: shared, start: base.addingTimeInterval(skew)))
    }
    let names = ["bug", "Bug", "feature", "ui", "docs", "später"]
    var renamed = 0
    // What every device must hold in the end: each issue made and not deleted anywhere.
    var made = Set<UUID>()
    var deleted = Set<UUID>()
    for _ in 0..<operations {
      let replica = replicas[Int.random(in: 0..<count, using: &random)]
      // Time goes on, now and then backwards.
      let step = Double(Int.random(in: -200...2000, using: &random)) / 1000
      replica.time.advance(by: step)
      let issues = try replica.queue.read { db in
        try db.fetchAll("SELECT id FROM issues ORDER BY id") { try $0.get(0, as: UUID.self) }
      }
      let tags = try replica.queue.read { try $0.fetchTags() }
      let roll = Int.random(in: 0..<100, using: &random)
      do {
        switch roll {
        case 0..<12:
          try replica.sync(compactAfter: compact, bulkFrom: bulkFrom, imageFrom: imageFrom)
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
          try replica.queue.write { _ = try $0.renameTag(id: tag.id, to: "renamed \(renamed)") }
        case 96..<100 where !tags.isEmpty:
          let tag = tags.randomElement(using: &random)!
          try replica.queue.write { _ = try $0.deleteTag(id: tag.id) }
        default:
          break
        }
      } catch let error as TagError {
        // A name taken on this device: refused here as it would be for a person.
        _ = error
      }
    }
    // A full round, twice: the first brings everything to the remote, the second to everyone.
    for _ in 0..<2 {
      for replica in replicas {
        try replica.sync(compactAfter: compact, bulkFrom: bulkFrom, imageFrom: imageFrom)
      }
    }
    let expected = try replicas[0].dump()
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
    }
    // Nothing lost on all of them at once: every issue made and not deleted is there, and no
    // other.
    let held = try replicas[0].queue.read { db in
      Set(try db.fetchAll("SELECT id FROM issues") { try $0.get(0, as: UUID.self) })
    }
    #expect(held == made.subtracting(deleted), "seed \(seed)")
    #expect(!held.isEmpty, "seed \(seed)")
  }
}
