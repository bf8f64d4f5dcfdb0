import DocketCore
import Files
import Foundation
import Locking
import Postgres

/// The space on the server: its schema and tables, made by the first device that syncs to it,
/// and its id, which every device checks is the one it synced with before.
extension PostgresRemote {
  public func prepare(expecting: String?) throws -> String {
    if let found = try readSpace() {
      if let expecting, found != expecting {
        throw RemoteError(location: location, problem: .replaced)
      }
      return found
    }
    // Gone since this sync began: said as the space gone, which the next sync makes anew.
    if expecting != nil { throw RemoteError(location: location, problem: .spaceMissing) }
    try create()
    guard let made = try readSpace() else {
      throw RemoteError(location: location, problem: .notARemote)
    }
    return made
  }

  /// The space's id, or nil when there is no such space; fails for a newer version.
  private func readSpace() throws -> String? {
    let rows: PostgresRows
    do {
      rows = try perform { db throws(PostgresError) in
        try db.execute("SELECT id, version FROM \(schema).space")
      }
    } catch let error as RemoteError where error.problem == .spaceMissing {
      return nil
    }
    guard rows.rows.count == 1, let id = rows[0, 0], !id.isEmpty,
      let version = rows[0, 1].flatMap(Int.init)
    else {
      throw RemoteError(location: location, problem: .notARemote)
    }
    if version > Self.version {
      throw RemoteError(location: location, problem: .newerVersion(version))
    }
    return id
  }

  /// Makes the space's schema and tables; a device that makes them at the same moment waits for
  /// the first, whose id counts.
  private func create() throws {
    let schema = self.schema
    try perform { db throws(PostgresError) in
      try db.execute("BEGIN")
      do throws(PostgresError) {
        try limitTransaction(db)
        try db.execute(
          "SELECT pg_advisory_xact_lock(hashtext($1))", ["docket space " + space])
        try db.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
        try db.execute(
          """
          CREATE TABLE IF NOT EXISTS \(schema).space (
            id text NOT NULL, version integer NOT NULL, created timestamptz NOT NULL DEFAULT now())
          """)
        try db.execute(
          """
          CREATE TABLE IF NOT EXISTS \(schema).packages (
            device text NOT NULL, kind text NOT NULL, number bigint NOT NULL,
            device_name text NOT NULL, header text NOT NULL, size bigint NOT NULL,
            written timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (device, kind, number))
          """)
        try db.execute(
          """
          CREATE TABLE IF NOT EXISTS \(schema).parts (
            device text NOT NULL, kind text NOT NULL, number bigint NOT NULL, part integer NOT NULL,
            body text NOT NULL,
            PRIMARY KEY (device, kind, number, part),
            FOREIGN KEY (device, kind, number) REFERENCES \(schema).packages ON DELETE CASCADE)
          """)
        try db.execute(
          """
          CREATE TABLE IF NOT EXISTS \(schema).images (
            device text NOT NULL, kind text NOT NULL DEFAULT 'image', number bigint NOT NULL,
            part integer NOT NULL, data bytea NOT NULL,
            PRIMARY KEY (device, number, part),
            FOREIGN KEY (device, kind, number) REFERENCES \(schema).packages ON DELETE CASCADE)
          """)
        try db.execute(
          """
          INSERT INTO \(schema).space (id, version)
          SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM \(schema).space)
          """, [UUID().lowercasedText, String(Self.version)])
        try db.execute("COMMIT")
      } catch {
        if !error.connectionLost { _ = try? db.execute("ROLLBACK") }
        throw error
      }
    }
  }
}
