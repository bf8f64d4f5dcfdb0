import Database
import Foundation

/// Opens Docket's database: a file, or a private in-memory one for tests and benchmarks.
public enum DocketDatabase {
  /// Opens (creating if needed, with its folder) the database at `path` and brings it to the
  /// current schema. `now` is what the database stamps edits with. `upgrading` is called before
  /// a database made by an earlier version is brought up to date, which can take a while.
  public static func open(
    path: String, now: @escaping @Sendable () -> Date = { Date() },
    upgrading: (@Sendable () -> Void)? = nil
  ) throws -> DatabaseQueue {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw DatabaseOpenError.folder(path: path)
    }
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, let reason = createFolder(folder) {
      throw DatabaseOpenError.cannotOpen(path: path, reason: reason)
    }
    var migrator = Schema.migrator
    if let upgrading { migrator.willUpgrade = { _, _ in upgrading() } }
    return try DatabaseQueue(path: path, migrator: migrator) { connection in
      try configure(connection)
      try registerFunctions(connection, now: now)
    }
  }

  /// Settings for every connection to a Docket file.
  static func configure(_ connection: Connection) throws {
    // A 16 MiB page cache (SQLite's default is 2 MiB) holds the hot indexes of a large database.
    try connection.execute("PRAGMA cache_size = -16384")
    try connection.execute("PRAGMA temp_store = MEMORY")
    // A large sort (an index built, by a migration or after an import's rows) may use a second
    // thread, which builds a large index markedly faster.
    try connection.execute("PRAGMA threads = 2")
  }

  /// Creates `folder` and any missing parents, private to the user. Returns the system's reason
  /// when it cannot ("Permission denied", "Read-only file system"), nil on success.
  static func createFolder(_ folder: String) -> String? {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      return isDirectory.boolValue ? nil : String(cString: strerror(ENOTDIR))
    }
    let parent = (folder as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != folder, let reason = createFolder(parent) { return reason }
    if mkdir(folder, 0o700) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
    return nil
  }

  /// A second, plain connection to an existing Docket file, set up as the app's are (the SQL
  /// functions the triggers call included): what another process sees, for tools and tests.
  public static func connection(path: String, now: @escaping @Sendable () -> Date = { Date() })
    throws
    -> Connection
  {
    let connection = try Connection.opening(path: path).connection
    try configure(connection)
    try registerFunctions(connection, now: now)
    return connection
  }

  /// A fresh in-memory database built by the same migrations.
  public static func inMemory(now: @escaping @Sendable () -> Date) throws -> DatabaseQueue {
    try DatabaseQueue.inMemory(migrator: Schema.migrator) { connection in
      try registerFunctions(connection, now: now)
    }
  }

  /// The SQL functions Docket's triggers call. Every connection to a Docket database has them.
  static func registerFunctions(_ connection: Connection, now: @escaping @Sendable () -> Date)
    throws
  {
    connection.transactionBracket = Schema.undoStepBracket
    try connection.createFunction("docket_now", argumentCount: 0, deterministic: false) { _ in
      .real(now().timeIntervalSince1970)
    }
    try connection.createFunction("docket_hlc_tick", argumentCount: 1, deterministic: false) {
      arguments in
      guard case .integer(let previous) = arguments[0] else { return .null }
      return .integer(HybridClock.tick(after: previous, wall: now()))
    }
    try connection.createFunction("docket_real_text", argumentCount: 1, deterministic: true) {
      arguments in
      switch arguments[0] {
      case .real(let number): return .text(String(number))
      case .integer(let number): return .text(String(number))
      default: return arguments[0]
      }
    }
    try connection.createFunction("docket_sort_key", argumentCount: 1, deterministic: true) {
      arguments in
      guard case .text(let text) = arguments[0] else { return .text("") }
      return .text(SortKey.fold(text))
    }
    try connection.createFunction("docket_within_limits", argumentCount: 2, deterministic: true) {
      arguments in
      guard case .text(let kind) = arguments[0] else { return arguments[1] }
      switch arguments[1] {
      case .text(let text):
        return (Limits.within(kind, text) as? String).map { .text($0) } ?? arguments[1]
      case .real(let number):
        return (Limits.within(kind, number) as? Double).map { .real($0) } ?? arguments[1]
      default: return arguments[1]
      }
    }
    try connection.createFunction("docket_tag_key", argumentCount: 1, deterministic: true) {
      arguments in
      guard case .text(let text) = arguments[0] else { return .text("") }
      return .text(TagName.key(text))
    }
  }
}
