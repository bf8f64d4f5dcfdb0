import DocketCore
import Files
import Foundation
import Locking
import Postgres

/// The space on the server: its schema and tables, made by the first device that syncs to it,
/// and its id, which every device checks is the one it synced with before.
extension PostgresRemote {
  public func prepare(expecting: String?) throws -> String {
    if let (found, record) = try readSpace() {
      if let expecting, found != expecting {
        throw RemoteError(location: location, problem: .replaced)
      }
      try FolderRemote.checkKey(key, record, id: found, location: location)
      return found
    }
    // Gone since this sync began: said as the space gone, which the next sync makes anew.
    if expecting != nil { throw RemoteError(location: location, problem: .spaceMissing) }
    // A device that keeps a key never makes a plain space in place of its encrypted one.
    if key != nil { throw RemoteError(location: location, problem: .noLongerEncrypted) }
    try create()
    guard let (made, _) = try readSpace() else {
      throw RemoteError(location: location, problem: .notARemote)
    }
    return made
  }

  public func keyRecord() throws -> (id: String, record: RemoteKeyRecord?) {
    let plain = PostgresRemote(address: address, space: space, device: device)
    guard let found = try readSpace() else {
      _ = try plain.prepare(expecting: nil)
      guard let made = try readSpace() else {
        throw RemoteError(location: location, problem: .notARemote)
      }
      return made
    }
    return found
  }

  public func setKeyRecord(_ record: RemoteKeyRecord, replacing: RemoteKeyRecord?) throws {
    let rows = try perform { db throws(PostgresError) in
      try db.execute("BEGIN")
      do throws(PostgresError) {
        try limitTransaction(db)
        // A space made by an earlier Docket has no column for it: added by its owner, once.
        let column = try db.execute(
          """
          SELECT 1 FROM information_schema.columns
          WHERE table_schema = $1 AND table_name = 'space' AND column_name = 'sealing'
          """, [Self.schemaName(space: space)])
        if column.rows.isEmpty {
          try db.execute("ALTER TABLE \(schema).space ADD COLUMN sealing text")
        }
        let rows = try db.execute(
          """
          UPDATE \(schema).space SET sealing = $1, version = $2
          WHERE sealing IS NOT DISTINCT FROM $3 RETURNING id
          """, [record.text, String(Self.sealedVersion), replacing?.text])
        try db.execute("COMMIT")
        return rows
      } catch {
        if !error.connectionLost { _ = try? db.execute("ROLLBACK") }
        throw error
      }
    }
    guard rows.rows.count == 1 else { throw SealingError.raced }
  }

  /// The space's id and the record of its key, or nil when there is no such space; fails for a
  /// newer version.
  private func readSpace() throws -> (String, RemoteKeyRecord?)? {
    let rows: PostgresRows
    do {
      rows = try perform { db throws(PostgresError) in
        // The column `sealing` is there only once the space is encrypted.
        try db.execute("SELECT id, version, to_jsonb(s)->>'sealing' FROM \(schema).space s")
      }
    } catch let error as RemoteError where error.problem == .spaceMissing {
      return nil
    }
    guard rows.rows.count == 1, let id = rows[0, 0], !id.isEmpty,
      let version = rows[0, 1].flatMap(Int.init)
    else {
      throw RemoteError(location: location, problem: .notARemote)
    }
    if version > Self.sealedVersion {
      throw RemoteError(location: location, problem: .newerVersion(version))
    }
    var record: RemoteKeyRecord?
    if let text = rows[0, 2] {
      guard let read = RemoteKeyRecord(text: text) else {
        throw RemoteError(location: location, problem: .notARemote)
      }
      record = read
    } else if version == Self.sealedVersion {
      throw RemoteError(location: location, problem: .notARemote)
    }
    return (id, record)
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
            id text NOT NULL, version integer NOT NULL, created timestamptz NOT NULL DEFAULT now(),
            sealing text)
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
