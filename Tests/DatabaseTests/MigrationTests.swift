import DocketTestSupport
import Foundation
import Locking
import Testing

@testable import Database

@Suite struct MigrationTests {
  let directory: TemporaryDirectory
  static let applicationID: Int32 = 0x7465_7374

  init() throws { directory = try TemporaryDirectory() }

  static func migrator(upTo version: Int = 2) -> Migrator {
    let all = [
      Migration(version: 1, name: "create notes") { db in
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
      },
      Migration(version: 2, name: "add pinned") { db in
        try db.execute("ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
      },
    ]
    return Migrator(applicationID: applicationID, migrations: all.filter { $0.version <= version })
  }

  @Test func createsAFreshDatabaseWithEveryMigrationRecorded() throws {
    let path = directory.path("fresh.sqlite")
    let queue = try DatabaseQueue(path: path, migrator: Self.migrator())
    let applied = try queue.read { db in
      try db.fetchAll("SELECT version, name FROM schema_migrations ORDER BY version") {
        "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self))"
      }
    }
    #expect(applied == ["1 create notes", "2 add pinned"])
    #expect(try queue.read { try $0.fetchOne("PRAGMA user_version", as: Int.self) } == 2)
    #expect(try queue.read { try $0.fetchOne("PRAGMA journal_mode", as: String.self) } == "wal")
    let permissions =
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
  }

  @Test func reopeningAppliesOnlyWhatIsNew() throws {
    let path = directory.path("grow.sqlite")
    do {
      let queue = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 1))
      try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('kept')") }
    }
    let queue = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 2))
    let row = try queue.read { db in
      try db.fetchOne("SELECT body, pinned FROM notes") {
        "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: Int.self))"
      }
    }
    #expect(row == "kept 0")
    // Opening once more applies nothing and fails nothing.
    _ = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 2))
    #expect(
      try queue.read { try $0.fetchOne("SELECT count(*) FROM schema_migrations", as: Int.self) }
        == 2)
  }

  /// A database made by an earlier version is announced once, before its first step runs, however
  /// many steps it takes; one being created, or one already up to date, is not.
  @Test func anUpgradeIsAnnouncedOnceBeforeItRuns() throws {
    let path = directory.path("announced.sqlite")
    let told = Locked<[String]>([])
    func migrator(upTo version: Int) -> Migrator {
      var steps = Self.migrator(upTo: min(version, 2)).migrations
      if version >= 3 {
        steps.append(
          Migration(version: 3, name: "add colour") { db in
            try db.execute("ALTER TABLE notes ADD COLUMN colour TEXT")
          })
      }
      // Each step says when it runs, so the order of the notice and the steps shows.
      steps = steps.map { step in
        Migration(version: step.version, name: step.name) { db in
          told.withLock { $0.append("step \(step.version)") }
          try step.migrate(db)
        }
      }
      var migrator = Migrator(applicationID: Self.applicationID, migrations: steps)
      migrator.willUpgrade = { from, to in told.withLock { $0.append("told \(from)→\(to)") } }
      return migrator
    }
    _ = try DatabaseQueue(path: path, migrator: migrator(upTo: 1))
    #expect(told.withLock { $0 } == ["step 1"])
    _ = try DatabaseQueue(path: path, migrator: migrator(upTo: 3))
    #expect(told.withLock { $0 } == ["step 1", "told 1→3", "step 2", "step 3"])
    _ = try DatabaseQueue(path: path, migrator: migrator(upTo: 3))
    #expect(told.withLock { $0 } == ["step 1", "told 1→3", "step 2", "step 3"], "nothing more")
  }

  @Test func refusesADatabaseFromANewerSchemaUntouched() throws {
    let path = directory.path("newer.sqlite")
    _ = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 2))
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = #expect(throws: DatabaseOpenError.self) {
      _ = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 1))
    }
    #expect(error == .newerSchema(path: path, found: 2, supported: 1))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func refusesAFileThatIsNotADatabaseUntouched() throws {
    let path = directory.path("notes.txt")
    let contents = Data(String(repeating: "Dear diary, this is not SQLite.\n", count: 200).utf8)
    try contents.write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: DatabaseOpenError.self) {
      _ = try DatabaseQueue(path: path, migrator: Self.migrator())
    }
    #expect(error == .notADatabase(path: path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func refusesAnotherProgramsDatabaseUntouched() throws {
    let path = directory.path("other.sqlite")
    do {
      let other = try Connection(path: path)
      try other.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = #expect(throws: DatabaseOpenError.self) {
      _ = try DatabaseQueue(path: path, migrator: Self.migrator())
    }
    #expect(error == .foreignDatabase(path: path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aFailingMigrationLeavesTheDatabaseAtTheLastGoodVersion() throws {
    let path = directory.path("failing.sqlite")
    let broken = Migrator(
      applicationID: Self.applicationID,
      migrations: Self.migrator(upTo: 1).migrations + [
        Migration(version: 2, name: "broken") { db in
          try db.execute("ALTER TABLE notes ADD COLUMN half INTEGER")
          try db.execute("THIS IS NOT SQL")
        }
      ])
    #expect(throws: SQLiteError.self) { _ = try DatabaseQueue(path: path, migrator: broken) }
    let queue = try DatabaseQueue(path: path, migrator: Self.migrator(upTo: 1))
    #expect(try queue.read { try $0.fetchOne("PRAGMA user_version", as: Int.self) } == 1)
    let columns = try queue.read { db in
      try db.fetchAll("PRAGMA table_info(notes)") { try $0.get(1, as: String.self) }
    }
    #expect(columns == ["id", "body"])
  }

  @Test func aMissingFolderIsAClearError() throws {
    let path = directory.path("missing/folder/db.sqlite")
    let error = #expect(throws: DatabaseOpenError.self) {
      _ = try DatabaseQueue(path: path, migrator: Self.migrator())
    }
    guard case .cannotOpen(let reported, let reason)? = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(reported == path)
    #expect(reason.contains("No such file"))
  }
}
