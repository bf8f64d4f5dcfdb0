import CSQLite
import Foundation
import Locking

/// The way into a database from any thread or task, with live observation of queries.
///
/// Reads and writes use separate connections to a file, as WAL allows: reads run in read
/// transactions on the reading connection and never wait for a writer, here or in another process.
/// Every write goes through one serial writer that owns the write connection on a queue of its
/// own: writes land in the order they were asked for, a write waiting for another process's write
/// lock (the busy timeout) holds up neither the readers nor Swift's shared threads, and
/// `asyncWrite` is awaited without blocking. A private in-memory database has a single connection
/// that both use in turn.
public final class DatabaseQueue: Sendable {
  public let path: String
  /// How often observed databases look for commits made by other connections and processes.
  public let pollInterval: Duration
  /// The reading connection and the observers.
  let state: Locked<State>
  /// Every write runs here, one at a time, in the order it was asked for.
  private let writeQueue = DispatchQueue(label: "docket.database.writer", qos: .userInitiated)
  /// The write connection of a file database, opened by the first write; nil for in-memory ones.
  private let writer: Locked<WriterSlot>?

  struct State {
    var connection: Connection
    var observers: [Int: any QueryObserver] = [:]
    var nextObserverID = 0
    var lastDataVersion = 0
    var poller: Task<Void, Never>?
    /// Numbers results in the order they were read, so a late delivery never overwrites a newer one.
    var resultVersion: UInt64 = 0
    /// Set while `connection` reads the file as unchanging because the disk was full
    /// (`Connection.Access.readOnlyForNow`): opens it properly, or nil while it still cannot.
    /// Tried at most once a second, and after every write (which proves there is room), so that
    /// what is written later is seen.
    var reopen: (@Sendable () -> Connection?)?
    var lastReopen: ContinuousClock.Instant?

    mutating func nextVersion() -> UInt64 {
      resultVersion += 1
      return resultVersion
    }
  }

  struct WriterSlot {
    var connection: Connection?
    let open: @Sendable () throws -> Connection
  }

  /// Opens the database file at `path`, checks it belongs to this program, switches it to WAL
  /// and applies the migrations. `prepare` runs first on every new connection (to register SQL
  /// functions that triggers need). Files that are not databases, belong to another program or
  /// come from a newer schema are refused untouched. Opening a database that is up to date takes
  /// no lock, so it never waits for a writer.
  public convenience init(
    path: String, migrator: Migrator? = nil, pollInterval: Duration = .milliseconds(250),
    prepare: @escaping @Sendable (Connection) throws -> Void = { _ in }
  ) throws {
    let (connection, access) = try Connection.opening(path: path)
    try prepare(connection)
    try migrator?.validate(connection)
    if access == .readWrite,
      try connection.fetchOne("PRAGMA journal_mode", as: String.self)?.lowercased() != "wal"
    {
      _ = try connection.fetchOne("PRAGMA journal_mode = WAL", as: String.self)
    }
    try connection.execute("PRAGMA synchronous = NORMAL")
    try migrator?.migrate(connection)
    let open: @Sendable () throws -> Connection = {
      // A database that can only be read says so at the first write, as SQLite would.
      if access == .readOnlyPlace {
        throw SQLiteError(code: SQLITE_READONLY, message: "attempt to write a readonly database")
      }
      let writing = try Connection(path: path)
      try prepare(writing)
      try writing.execute("PRAGMA synchronous = NORMAL")
      // Only the writer writes once the database is open: the log's limit is its business.
      try writing.limitLogSize()
      return writing
    }
    var reopen: (@Sendable () -> Connection?)?
    if access == .readOnlyForNow {
      reopen = {
        do {
          let (reading, access) = try Connection.opening(path: path)
          guard access == .readWrite else { return nil }
          try prepare(reading)
          return reading
        } catch {
          return nil
        }
      }
    }
    self.init(
      connection: connection, pollInterval: pollInterval, writer: WriterSlot(open: open),
      reopen: reopen)
  }

  /// A private in-memory database, migrated like a file would be.
  public static func inMemory(
    migrator: Migrator? = nil, prepare: (Connection) throws -> Void = { _ in }
  ) throws -> DatabaseQueue {
    let connection = try Connection.inMemory()
    try prepare(connection)
    try migrator?.migrate(connection)
    return DatabaseQueue(connection: connection, pollInterval: .milliseconds(250), writer: nil)
  }

  private init(
    connection: Connection, pollInterval: Duration, writer: WriterSlot?,
    reopen: (@Sendable () -> Connection?)? = nil
  ) {
    self.path = connection.path
    self.pollInterval = pollInterval
    _ = connection.takeCommittedChanges()
    self.state = Locked(State(connection: connection, reopen: reopen))
    self.writer = writer.map { Locked($0) }
  }

  deinit {
    state.withLock { $0.poller?.cancel() }
  }

  /// Runs `body` with the reading connection in a read transaction: one snapshot, no lock that a
  /// writer holds is waited for.
  @discardableResult
  public func read<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    try access { connection in try connection.readTransaction { try body(connection) } }
  }

  /// Runs `body` on the writer in a write transaction, waiting here until it is done; committed
  /// when it returns, rolled back when it throws. Observers of the tables it changed see the new
  /// data before this returns. Never call it from inside another write.
  @discardableResult
  public func write<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    dispatchPrecondition(condition: .notOnQueue(writeQueue))
    return try writeQueue.sync { try performWrite(body, inTransaction: true) }
  }

  /// Runs `body` on the writer in a write transaction and resumes the caller when it is done,
  /// without blocking the caller's thread. Writes run in the order they were asked for.
  @discardableResult
  public func asyncWrite<Value: Sendable>(
    _ body: @escaping @Sendable (Connection) throws -> Value
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      enqueueWrite(body) { continuation.resume(with: $0) }
    }
  }

  /// Puts a write on the writer's queue now, in the order of the calls, and calls `completion`
  /// with its result once it is done.
  func enqueueWrite<Value>(
    _ body: @escaping @Sendable (Connection) throws -> Value,
    completion: @escaping @Sendable (Result<Value, any Error>) -> Void
  ) {
    writeQueue.async {
      completion(Result(catching: { try self.performWrite(body, inTransaction: true) }))
    }
  }

  /// Runs `body` with the write connection outside any transaction: for statements such as
  /// VACUUM or a checkpoint, and for a write that is to be its own outermost transaction (an
  /// import, which would otherwise be a savepoint inside the queue's: see `withinTransaction`).
  @discardableResult
  public func withConnection<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value
  {
    dispatchPrecondition(condition: .notOnQueue(writeQueue))
    return try writeQueue.sync { try performWrite(body, inTransaction: false) }
  }

  private func performWrite<Value>(_ body: (Connection) throws -> Value, inTransaction: Bool)
    throws -> Value
  {
    guard let writer else {
      return try access { connection in
        inTransaction ? try connection.transaction { try body(connection) } : try body(connection)
      }
    }
    var changed: Set<String> = []
    let value = try writer.withLock { slot -> Value in
      let connection = try slot.connection ?? slot.open()
      slot.connection = connection
      defer {
        changed = connection.takeCommittedChanges()
        // A large write (an import, a sync catching up) leaves the log as large as itself.
        if !changed.isEmpty { connection.shrinkLog() }
      }
      return inTransaction
        ? try connection.transaction { try body(connection) } : try body(connection)
    }
    if !changed.isEmpty {
      var finishers: [() -> Void] = []
      state.withLock { state in
        // A write landed, so there is room: the reader opens the file properly now.
        state.lastReopen = nil
        let reopened = Self.reopenIfDue(&state)
        finishers = Self.refresh(&state, changed: reopened ? nil : changed)
      }
      for finish in finishers { finish() }
    }
    return value
  }

  /// When the reader reads the file as unchanging for now, tries (at most once a second) to
  /// open it properly; true when it did, and every observer must read again.
  static func reopenIfDue(_ state: inout State) -> Bool {
    guard let reopen = state.reopen else { return false }
    let now = ContinuousClock.now
    if let last = state.lastReopen, now - last < .seconds(1) { return false }
    state.lastReopen = now
    guard let connection = reopen() else { return false }
    state.connection = connection
    state.reopen = nil
    state.lastDataVersion =
      (try? connection.fetchOne("PRAGMA data_version", as: Int.self)) ?? 0
    return true
  }

  private func access<Value>(_ body: (Connection) throws -> Value) throws -> Value {
    var finishers: [() -> Void] = []
    defer { for finish in finishers { finish() } }
    return try state.withLock { state -> Value in
      let reopened = Self.reopenIfDue(&state)
      defer {
        let changed = state.connection.takeCommittedChanges()
        if reopened || !changed.isEmpty {
          finishers = Self.refresh(&state, changed: reopened ? nil : changed)
        }
      }
      return try body(state.connection)
    }
  }
}
