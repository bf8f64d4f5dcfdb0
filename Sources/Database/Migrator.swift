/// One step of a schema's history.
public struct Migration: Sendable {
  public var version: Int
  public var name: String
  public var migrate: @Sendable (Connection) throws -> Void

  public init(version: Int, name: String, migrate: @escaping @Sendable (Connection) throws -> Void)
  {
    self.version = version
    self.name = name
    self.migrate = migrate
  }
}

/// Brings a database to the newest schema through an ordered list of migrations.
///
/// The version lives in `PRAGMA user_version` and each applied step is recorded in
/// `schema_migrations`. The program's identity lives in `PRAGMA application_id`, so a database of
/// another program is recognised and refused before anything is written to it.
public struct Migrator: Sendable {
  public var applicationID: Int32
  public var migrations: [Migration]
  /// Told the version found and the newest before a database made by an earlier version is
  /// brought up to date (not when one is created): a migration of a large database can take a
  /// while, and a person should know why nothing shows.
  public var willUpgrade: (@Sendable (_ from: Int, _ to: Int) -> Void)?

  public init(applicationID: Int32, migrations: [Migration]) {
    precondition(
      zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
      "migrations must be listed in increasing version order")
    self.applicationID = applicationID
    self.migrations = migrations
  }

  public var latestVersion: Int { migrations.last?.version ?? 0 }

  /// Refuses a database that this program must not touch. Reads only.
  public func validate(_ connection: Connection) throws {
    let tableCount =
      try connection.fetchOne("SELECT count(*) FROM sqlite_master", as: Int.self) ?? 0
    let application = try connection.fetchOne("PRAGMA application_id", as: Int32.self) ?? 0
    if tableCount > 0, application != applicationID {
      throw DatabaseOpenError.foreignDatabase(path: connection.path)
    }
    let version = try connection.fetchOne("PRAGMA user_version", as: Int.self) ?? 0
    if version > latestVersion {
      throw DatabaseOpenError.newerSchema(
        path: connection.path, found: version, supported: latestVersion)
    }
  }

  /// Applies every migration not yet applied, each in its own transaction.
  /// A database already at the newest version is only read: opening it takes no lock, so it
  /// never waits for another process's write.
  public func migrate(_ connection: Connection) throws {
    try validate(connection)
    let version = try connection.fetchOne("PRAGMA user_version", as: Int.self) ?? 0
    if version >= latestVersion { return }
    var migrated = false
    for migration in migrations {
      try connection.transaction {
        // Read again under the write lock: another process may have migrated meanwhile.
        let current = try connection.fetchOne("PRAGMA user_version", as: Int.self) ?? 0
        guard migration.version > current else { return }
        // Told once, under the lock: a process that another beat to it says nothing.
        if !migrated, current > 0 { willUpgrade?(current, latestVersion) }
        migrated = true
        try connection.execute(
          """
          CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY NOT NULL,
            name TEXT NOT NULL
          )
          """)
        try migration.migrate(connection)
        try connection.execute(
          "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
          [migration.version, migration.name])
        // PRAGMA values cannot be bound; both are integers the program controls.
        try connection.execute("PRAGMA user_version = \(migration.version)")
        try connection.execute("PRAGMA application_id = \(applicationID)")
      }
    }
    // A migration that made indexes again leaves them in the write-ahead log, which every
    // later process would read through to open the database until something wrote: written
    // into the database now, and the log emptied (where no reader holds it).
    if migrated {
      _ = try? connection.fetchAll("PRAGMA wal_checkpoint(TRUNCATE)") { _ in () }
    }
  }
}
