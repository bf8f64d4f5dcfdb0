import CSQLite
import Foundation

/// One connection to an SQLite database.
///
/// A connection is not shared across threads by itself: `DatabaseQueue` owns one behind a lock
/// and hands it to one closure at a time.
public final class Connection {
  let handle: OpaquePointer
  public let path: String
  /// Whether this connection reads its file as unchanging (`Connection.immutable`): it never
  /// sees a later write, so it is not kept for the next read.
  public let isUnchanging: Bool
  private var statementCache: [String: Statement] = [:]
  private var statementUses: UInt64 = 0
  /// How many prepared statements the cache keeps: enough for every query a session repeats, and
  /// a bound, so that a long session of ever new statements does not grow without end.
  public static let statementCacheCapacity = 64
  /// How long a statement waits for another connection's lock before it fails as busy.
  static let busyTimeoutMilliseconds: Int32 = 10_000
  /// Tables changed since the last commit, reported by the update hook and by write statements.
  private let changes = ChangeCollector()
  /// While set, the tables that statements run through `fetch` read are added here.
  private var readTracking: Set<String>?
  /// Tables changed by transactions that have committed since the queue last looked.
  private var committedTables: Set<String> = []
  var savepointDepth = 0
  /// A write inside the open transaction failed (`withinTransaction`): the transaction may only
  /// be rolled back.
  var transactionDoomed = false
  /// Run around the body of every outermost write transaction (`transaction`), inside it.
  public var transactionBracket: TransactionBracket?

  /// Opens (creating if needed) the database at `path`. A new file is created readable and
  /// writable by its owner only.
  public convenience init(path: String) throws {
    if !FileManager.default.fileExists(atPath: path) {
      let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
      if descriptor >= 0 {
        close(descriptor)
      } else if errno != EEXIST {
        let reason = String(cString: strerror(errno))
        throw DatabaseOpenError.cannotOpen(path: path, reason: reason)
      }
    }
    try self.init(filename: path, displayPath: path)
  }

  /// How a database file could be opened.
  public enum Access: Sendable, Equatable {
    case readWrite
    /// The file or its folder cannot be written: read-only media, a file system mounted
    /// read-only, a file its user may only read.
    case readOnlyPlace
    /// The disk is full (or failing): the shared-memory file beside the database could not be
    /// made. Reading goes on; a write tries again, and says why it fails.
    case readOnlyForNow
  }

  /// Opens the database at `path` to read and write. Where SQLite cannot (the shared-memory file
  /// beside it cannot be made, on a place that cannot be written or a full disk), opens it as
  /// unchanging instead, to read only, and says why. Only those failures fall back: a busy, a
  /// corrupt or a foreign file is the error it is.
  ///
  /// Read as unchanging, a write-ahead log beside the file would not be read, so a file with a
  /// log that is not empty is refused with words rather than shown without its latest changes.
  /// (Unchanging, it may also read wrongly while another program writes it; a queue opens it
  /// properly again as soon as it can, and a pool does not keep such a reader.)
  public static func opening(path: String) throws -> (connection: Connection, access: Access) {
    do {
      return (try Connection(path: path), .readWrite)
    } catch {
      guard FileManager.default.fileExists(atPath: path), isUnopenable(error) else { throw error }
      let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
      if (log ?? 0) > 0 {
        throw DatabaseOpenError.logUnreadable(path: path)
      }
      let access: Access = isWritablePlace(path) ? .readOnlyForNow : .readOnlyPlace
      return (try immutable(path: path), access)
    }
  }

  /// Whether `error` says that SQLite could not open or write beside the file (as opposed to a
  /// busy, corrupt or foreign file).
  static func isUnopenable(_ error: any Error) -> Bool {
    if case DatabaseOpenError.cannotOpen = error { return true }
    guard let failure = error as? SQLiteError else { return false }
    return [SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL].contains(failure.code)
  }

  /// Whether the file and its folder may be written (false on a read-only file system).
  static func isWritablePlace(_ path: String) -> Bool {
    let folder = (path as NSString).deletingLastPathComponent
    return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
  }

  /// Opens a private in-memory database.
  public static func inMemory() throws -> Connection {
    try Connection(filename: ":memory:", displayPath: ":memory:")
  }

  /// Opens a database file to read only, as a file that nothing changes while it is open (a copy
  /// received from elsewhere): no lock is taken and no journal file is made beside it.
  public static func immutable(path: String) throws -> Connection {
    try Connection(
      filename: immutableURI(path), displayPath: path,
      flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
  }

  static func immutableURI(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
      + "?immutable=1"
  }

  private init(
    filename: String, displayPath: String,
    flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
  ) throws {
    var pointer: OpaquePointer?
    let status = sqlite3_open_v2(filename, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let pointer else {
      let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(pointer)
      throw DatabaseOpenError.cannotOpen(path: displayPath, reason: message)
    }
    handle = pointer
    path = displayPath
    isUnchanging = filename.hasSuffix("?immutable=1")
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    _ = docket_sqlite3_enable_defensive(handle)
    installHooks()
    do {
      // Reading the schema is the first thing that touches the file: a file that is not a
      // database fails here, before anything could be written to it.
      _ = try fetchOne("SELECT count(*) FROM sqlite_master", as: Int.self)
      try execute("PRAGMA foreign_keys = ON")
    } catch let error as SQLiteError where error.isNotADatabase {
      throw DatabaseOpenError.notADatabase(path: displayPath)
    }
  }

  deinit {
    statementCache.removeAll()
    sqlite3_update_hook(handle, nil, nil)
    sqlite3_rollback_hook(handle, nil, nil)
    sqlite3_close_v2(handle)
  }

  private func installHooks() {
    let context = Unmanaged.passUnretained(changes).toOpaque()
    sqlite3_update_hook(
      handle,
      { context, _, _, table, _ in
        guard let context, let table else { return }
        let collector = Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue()
        collector.tables.insert(String(cString: table))
      }, context)
    sqlite3_rollback_hook(
      handle,
      { context in
        guard let context else { return }
        Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue().tables.removeAll()
      }, context)
  }

  // MARK: Errors

  func error(_ status: Int32, sql: String?) -> SQLiteError {
    error(status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  /// The error of `status`. An I/O error whose cause was a full disk (the shared-memory file
  /// could not grow, say) is told as the full disk it is.
  func error(_ status: Int32, message: String, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    if status & 0xff == SQLITE_IOERR, sqlite3_system_errno(handle) == ENOSPC {
      return SQLiteError(
        code: SQLITE_FULL, extendedCode: SQLITE_FULL,
        message: String(cString: sqlite3_errstr(SQLITE_FULL)), sql: sql)
    }
    return SQLiteError(code: status, extendedCode: extended, message: message, sql: sql)
  }

  // MARK: Statements

  /// A prepared statement for `sql`, from the cache when one is there and free.
  public func prepare(_ sql: String) throws -> Statement {
    statementUses += 1
    if let cached = statementCache[sql], !cached.isInUse {
      cached.lastUse = statementUses
      return cached
    }
    let statement = try prepareUncached(sql)
    statement.lastUse = statementUses
    if statementCache[sql] == nil {
      if statementCache.count >= Self.statementCacheCapacity { evictLeastRecentlyUsed() }
      statementCache[sql] = statement
    }
    return statement
  }

  /// How many statements the cache holds now (for tests).
  public var cachedStatementCount: Int { statementCache.count }

  private func evictLeastRecentlyUsed() {
    let idle = statementCache.filter { !$0.value.isInUse }
    guard let oldest = idle.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
    statementCache[oldest.key] = nil
  }

  private func prepareUncached(_ sql: String) throws -> Statement {
    let collector = AccessCollector()
    let context = Unmanaged.passUnretained(collector).toOpaque()
    sqlite3_set_authorizer(
      handle,
      { context, action, first, _, _, _ in
        guard let context, let first else { return SQLITE_OK }
        let collector = Unmanaged<AccessCollector>.fromOpaque(context).takeUnretainedValue()
        let table = String(cString: first)
        switch action {
        case SQLITE_READ: collector.read.insert(table)
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE: collector.written.insert(table)
        default: break
        }
        return SQLITE_OK
      }, context)
    defer { sqlite3_set_authorizer(handle, nil, nil) }
    var pointer: OpaquePointer?
    var tail: UnsafePointer<CChar>?
    let status = sql.withCString { text in
      let result = sqlite3_prepare_v3(
        handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, &tail)
      // Anything after the first statement other than white space or semicolons is refused:
      // one call runs one statement, so arguments always bind where the caller expects.
      if result == SQLITE_OK, let tail, tail.pointee != 0 {
        let rest = String(cString: tail).trimmingCharacters(
          in: .whitespacesAndNewlines.union(.init(charactersIn: ";")))
        if !rest.isEmpty { return SQLITE_MISUSE }
      }
      return result
    }
    if status == SQLITE_MISUSE {
      sqlite3_finalize(pointer)
      throw SQLiteError(
        code: SQLITE_MISUSE, message: "only one statement may be prepared at a time", sql: sql)
    }
    guard status == SQLITE_OK, let pointer else { throw error(status, sql: sql) }
    return Statement(
      handle: pointer, sql: sql, readTables: collector.read, writtenTables: collector.written)
  }

  /// Runs `body` once per result row of `sql`.
  public func forEachRow(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
    _ body: (Row) throws -> Void
  ) throws {
    let statement = try prepare(sql)
    statement.isInUse = true
    defer {
      statement.isInUse = false
      sqlite3_reset(statement.handle)
      afterStatement(statement)
    }
    try statement.bind(arguments, connection: self)
    if readTracking != nil { readTracking!.formUnion(statement.readTables) }
    while true {
      let status = sqlite3_step(statement.handle)
      if status == SQLITE_ROW {
        try body(Row(statement: statement))
      } else if status == SQLITE_DONE {
        return
      } else {
        throw error(status, sql: sql)
      }
    }
  }

  /// Runs a statement that returns no rows (or whose rows are not wanted).
  public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
    try forEachRow(sql, arguments) { _ in }
  }

  /// Runs several statements separated by semicolons, without arguments (for schema scripts).
  public func executeScript(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    if status != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_free(message)
      throw error(status, message: text, sql: sql)
    }
    // A script may write any table; the update hook has collected what it touched.
    flushIfCommitted()
  }

  /// Every row of `sql`, each turned into a value by `decode`.
  public func fetchAll<Value>(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
    _ decode: (Row) throws -> Value
  ) throws -> [Value] {
    var values: [Value] = []
    try forEachRow(sql, arguments) { row in values.append(try decode(row)) }
    return values
  }

  /// The first row of `sql` turned into a value, or nil when there is none.
  public func fetchOne<Value>(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
    _ decode: (Row) throws -> Value
  ) throws -> Value? {
    var value: Value?
    try forEachRow(sql, arguments) { row in
      if value == nil { value = try decode(row) }
    }
    return value
  }

  /// The first column of the first row, as a Swift value.
  public func fetchOne<Value: DatabaseValueConvertible>(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], as type: Value.Type
  ) throws -> Value? {
    try fetchOne(sql, arguments) { row in try row.get(0, as: Value.self) }
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  public var changedRowCount: Int { Int(sqlite3_changes(handle)) }

  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  // MARK: Change tracking

  private func afterStatement(_ statement: Statement) {
    // The authorizer also names tables written by triggers, which the update hook can miss
    // (virtual tables, the truncate optimisation); a statement that changed nothing costs
    // observers one query that delivers nothing new.
    changes.tables.formUnion(statement.writtenTables)
    flushIfCommitted()
  }

  private func flushIfCommitted() {
    guard sqlite3_get_autocommit(handle) != 0, !changes.tables.isEmpty else { return }
    committedTables.formUnion(changes.tables)
    changes.tables.removeAll()
  }

  /// The tables changed by committed transactions since the last call.
  func takeCommittedChanges() -> Set<String> {
    defer { committedTables.removeAll() }
    return committedTables
  }

  /// Runs `body` and returns the tables its statements read, for observation.
  func trackingReads<Value>(_ body: () throws -> Value) throws -> (Value, Set<String>) {
    let outer = readTracking
    readTracking = []
    defer { readTracking = outer.map { $0.union(readTracking ?? []) } }
    let value = try body()
    return (value, readTracking ?? [])
  }
}

/// Holds the tables changed by the running transaction; reached from SQLite's C hooks.
private final class ChangeCollector {
  var tables: Set<String> = []
}

/// Holds what the authorizer reports while one statement is prepared.
private final class AccessCollector {
  var read: Set<String> = []
  var written: Set<String> = []
}

extension Connection {
  /// The version of the SQLite library this program runs on ("3.40.1").
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
