import Database
import DocketCore
import Foundation

/// A snapshot's database image: the sending device's whole database (`VACUUM INTO`, without its
/// settings and its record of what it read), written beside a large snapshot. A device whose
/// database is empty catches up by taking it in page by page (SQLite's backup API) instead of
/// applying the snapshot's changes one issue at a time and building the search index again,
/// which takes several times as long. Anything wrong with an image (cut short, not a database,
/// another schema, of another snapshot) and the snapshot is applied as usual.
extension SyncEngine {
  /// The settings key, in an image, naming the snapshot it belongs to: its device, number and
  /// what it covers.
  static let imageOfKey = "image_of"

  static func imageIdentity(_ snapshot: PackageName, covers: [String: Int64]) -> String {
    snapshot.description + " "
      + covers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
  }

  /// Writes the image of `snapshot`, made here in a temporary file (SQLite's journal files never
  /// go into the shared folder) and copied in whole. An image is only a speed-up: one that
  /// cannot be written is left out, and the snapshot serves alone.
  func writeImage(of snapshot: PackageName, covers: [String: Int64]) {
    let name = PackageName(device: device, kind: .image, number: snapshot.number)
    let local = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
    defer { Self.removeDatabaseFiles(local) }
    do {
      try database.withConnection { db in try db.execute("VACUUM INTO ?", [local]) }
      chmod(local, 0o600)
      do {
        let image = try Connection(path: local)
        // Deleted rows are overwritten: nothing of this device's settings stays in free pages.
        try image.executeScript(
          """
          PRAGMA secure_delete = ON;
          DELETE FROM settings; DELETE FROM sync_covered; DELETE FROM sync_pulled;
          DELETE FROM sync_warned; DELETE FROM sync_own_files;
          UPDATE sync_clock SET applying = 0;
          PRAGMA journal_mode = DELETE;
          """)
        try image.execute(
          "INSERT INTO settings (key, value) VALUES (?, ?)",
          [Self.imageOfKey, Self.imageIdentity(snapshot, covers: covers)])
      }
      try remote.writeImage(name) { path in
        try FileManager.default.copyItem(atPath: local, toPath: path)
      }
    } catch {
      try? remote.remove(name)
    }
  }

  /// Takes in the image of `snapshot` (whose header says what it covers) if this database is
  /// empty and the image is sound; returns how many changes came with it, or nil when the
  /// snapshot is to be applied as usual.
  func takeImage(of snapshot: Package, listing: RemoteListing, remote key: String) -> Int? {
    let name = PackageName(device: snapshot.name.device, kind: .image, number: snapshot.name.number)
    guard listing.packages.contains(name) else { return nil }
    let copy = NSTemporaryDirectory() + "docket-image-\(UUID().lowercasedText).sqlite"
    defer { Self.removeDatabaseFiles(copy) }
    do {
      // What this database is now; checked again, on the writer, just before it is replaced. A
      // database with data of its own takes no image: it is not even fetched.
      let before = try database.read { db in try Self.localState(db) }
      guard before.isEmpty, remote.copyImage(name, to: copy) else { return nil }
      guard try isSound(copy, of: snapshot) else { return nil }
      let count = try makeOwn(copy, snapshot: snapshot, state: before, remote: key)
      let taken = try database.withConnection { db -> Bool in
        // Nothing written here meanwhile (by the app, or by `docket` in another shell), or the
        // image is not taken.
        guard try Self.localState(db) == before else { return false }
        try db.replaceContents(withDatabaseAt: copy)
        // The pages went into the write-ahead log; into the file with them, or every later open
        // reads a log as large as the database.
        _ = try db.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)", as: Int.self)
        return true
      }
      return taken ? count : nil
    } catch {
      return nil
    }
  }

  /// A database this device could take in as its own: Docket's, of this schema exactly (no
  /// table, index, trigger or view more or less; SQLite's own tables, such as the statistics
  /// `ANALYZE` keeps, aside), whole, with its clock, and the image of this snapshot.
  private func isSound(_ path: String, of snapshot: Package) throws -> Bool {
    let image = try Connection.immutable(path: path)
    func schema(_ db: Connection) throws -> [String] {
      try db.fetchAll(
        """
        SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master
        WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
        """
      ) { try $0.get(0, as: String.self) }
    }
    let ours = try database.read { try schema($0) }
    return try image.fetchOne("PRAGMA application_id", as: Int32.self) == Schema.applicationID
      && image.fetchOne("PRAGMA user_version", as: Int.self) == Schema.migrator.latestVersion
      && schema(image) == ours
      && image.fetchOne("PRAGMA quick_check", as: String.self) == "ok"
      && image.fetchOne("SELECT count(*) FROM sync_clock", as: Int.self) == 1
      && image.fetchOne(
        "SELECT value FROM settings WHERE key = ?", [Self.imageOfKey], as: String.self)
        == Self.imageIdentity(snapshot.name, covers: snapshot.covers)
      && image.fetchOne(Self.beyondLimits, as: Int.self) == 0
  }

  /// Rows no device writes (beyond `Limits`, a device name with control characters): an image
  /// that holds one was not made by Docket, and the snapshot's lines, each checked, are read
  /// instead. (NUL is left out of the pattern, which it would end.)
  static let beyondLimits: String = {
    let breaks = "char(10, 11, 12, 13, 133, 8232, 8233)"
    let controls =
      "char("
      + (Array(1..<32) + Array(127...159)).map(String.init).joined(
        separator: ", ") + ")"
    return """
      SELECT (SELECT count(*) FROM issues
          WHERE typeof(title) != 'text' OR typeof(detail) != 'text'
            OR length(title) > \(Limits.titleCharacters)
            OR length(detail) > \(Limits.detailCharacters)
            OR title GLOB '*[' || \(breaks) || ']*'
            OR NOT (created BETWEEN \(Limits.earliestDate) AND \(Limits.latestDate))
            OR NOT (coalesce(modified, 0) BETWEEN \(Limits.earliestDate) AND \(Limits.latestDate)))
        + (SELECT count(*) FROM tags
          WHERE typeof(name) != 'text' OR length(name) > \(Limits.tagNameCharacters)
            OR name GLOB '*[' || \(controls) || ']*' OR name != trim(name) OR name = '')
        + (SELECT count(*) FROM sync_devices
          WHERE length(name) > \(Limits.deviceNameCharacters) OR name GLOB '*[' || \(controls) || ']*')
      """
  }()

  /// Makes the image at `path` this device's: its settings, its device and clock, what it has
  /// read (the snapshot). Returns how many changes it holds.
  private func makeOwn(_ path: String, snapshot: Package, state: LocalState, remote key: String)
    throws -> Int
  {
    let image = try Connection(path: path)
    try image.execute("PRAGMA journal_mode = DELETE")
    return try image.transaction {
      try image.execute("DELETE FROM settings")
      for (key, value) in state.settings {
        try image.execute("INSERT INTO settings (key, value) VALUES (?, ?)", [key, value])
      }
      try image.execute(
        """
        INSERT INTO sync_devices (id, name) VALUES (?, ?)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name
        """, [device, deviceName])
      try image.execute(
        """
        UPDATE sync_clock SET applying = 0, hlc = max(hlc, ?),
          device = (SELECT seq FROM sync_devices WHERE id = ?)
        """, [state.clock, device])
      try image.execute("DELETE FROM sync_covered")
      try image.execute("DELETE FROM sync_pulled")
      // What the image's writer noted of its own files and warnings is not this device's.
      try image.execute("DELETE FROM sync_warned")
      try image.execute("DELETE FROM sync_own_files")
      try image.recordSnapshotRead(snapshot, remote: key, myself: device)
      return try image.fetchOne("SELECT count(*) FROM changes", as: Int.self) ?? 0
    }
  }

  /// What a database holds that an image must not overwrite: its rows, its settings, its clock.
  struct LocalState: Equatable {
    var rows: Int
    var settings: [String: String]
    var clock: Int64
    var isEmpty: Bool { rows == 0 }
  }

  static func localState(_ db: Connection) throws -> LocalState {
    var settings: [String: String] = [:]
    try db.forEachRow("SELECT key, value FROM settings") { row in
      settings[try row.get(0, as: String.self)] = try row.get(1, as: String.self)
    }
    return LocalState(
      rows: try db.fetchOne(
        """
        SELECT (SELECT count(*) FROM issues) + (SELECT count(*) FROM tags)
          + (SELECT count(*) FROM changes)
        """, as: Int.self) ?? 0,
      settings: settings,
      clock: try db.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0)
  }

  static func removeDatabaseFiles(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
  }
}

extension Connection {
  /// Notes a snapshot as read: what it covers of each device counts as read, and of this
  /// device's own files, which a snapshot holds.
  func recordSnapshotRead(_ snapshot: Package, remote key: String, myself: String) throws {
    try execute(
      "INSERT OR IGNORE INTO sync_pulled (remote, name) VALUES (?, ?)",
      [key, snapshot.name.description])
    for (device, through) in snapshot.covers where device != myself {
      try execute(
        """
        INSERT INTO sync_covered (remote, device, through) VALUES (?, ?, ?)
        ON CONFLICT (remote, device) DO UPDATE SET through = max(through, excluded.through)
        """, [key, device, through])
    }
    // Of this device's own files, at most those it wrote: a snapshot that claims more would
    // have it remove files no snapshot holds.
    var covers = snapshot.covers
    if let mine = covers[myself] {
      let written = try setting(Connection.fileNumberKey).flatMap(Int64.init) ?? 0
      covers[myself] = min(mine, written)
    }
    try recordSnapshotCovers(covers)
    if let mine = covers[myself], mine > 0 {
      try setSetting(
        Connection.compactedKey,
        String(max(mine, try setting(Connection.compactedKey).flatMap(Int64.init) ?? 0)))
    }
  }
}
