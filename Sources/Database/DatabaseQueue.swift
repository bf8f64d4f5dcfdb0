import Foundation

/// The way into a database from any thread or task: one connection behind a lock, handed to one
/// closure at a time, with live observation of queries.
///
/// Reads and writes are synchronous and short; a write runs in a `BEGIN IMMEDIATE` transaction,
/// so several processes can write the same file, each waiting its turn (the busy timeout) instead
/// of failing.
public final class DatabaseQueue: Sendable {
  public let path: String
  /// How often observed databases look for commits made by other connections and processes.
  public let pollInterval: Duration
  private let state: Locked<State>

  struct State {
    var connection: Connection
    var observers: [Int: any QueryObserver] = [:]
    var nextObserverID = 0
    var lastDataVersion = 0
    var poller: Task<Void, Never>?
    /// Numbers results in the order they were read, so a late delivery never overwrites a newer one.
    var resultVersion: UInt64 = 0

    mutating func nextVersion() -> UInt64 {
      resultVersion += 1
      return resultVersion
    }
  }

  /// Opens the database file at `path`, checks it belongs to this program, switches it to WAL
  /// and applies the migrations. `prepare` runs first on the new connection (to register SQL
  /// functions that triggers need). Files that are not databases, belong to another program or
  /// come from a newer schema are refused untouched.
  public convenience init(
    path: String, migrator: Migrator? = nil, pollInterval: Duration = .milliseconds(250),
    prepare: (Connection) throws -> Void = { _ in }
  ) throws {
    let connection = try Connection(path: path)
    try prepare(connection)
    try migrator?.validate(connection)
    _ = try connection.fetchOne("PRAGMA journal_mode = WAL", as: String.self)
    try connection.execute("PRAGMA synchronous = NORMAL")
    try migrator?.migrate(connection)
    self.init(connection: connection, pollInterval: pollInterval)
  }

  /// A private in-memory database, migrated like a file would be.
  public static func inMemory(
    migrator: Migrator? = nil, prepare: (Connection) throws -> Void = { _ in }
  ) throws -> DatabaseQueue {
    let connection = try Connection.inMemory()
    try prepare(connection)
    try migrator?.migrate(connection)
    return DatabaseQueue(connection: connection, pollInterval: .milliseconds(250))
  }

  private init(connection: Connection, pollInterval: Duration) {
    self.path = connection.path
    self.pollInterval = pollInterval
    _ = connection.takeCommittedChanges()
    self.state = Locked(State(connection: connection))
  }

  deinit {
    state.withLock { $0.poller?.cancel() }
  }

  /// Runs `body` with the connection in a read transaction.
  @discardableResult
  public func read<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    try access { connection in try connection.readTransaction { try body(connection) } }
  }

  /// Runs `body` with the connection in a write transaction; committed when it returns, rolled
  /// back when it throws. Observers of the tables it changed see the new data before this returns.
  @discardableResult
  public func write<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    try access { connection in try connection.transaction { try body(connection) } }
  }

  /// Runs `body` with the connection outside any transaction (for statements such as VACUUM).
  @discardableResult
  public func withConnection<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value
  {
    try access(body)
  }

  private func access<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    var finishers: [() -> Void] = []
    defer { for finish in finishers { finish() } }
    return try state.withLock { state -> Value in
      defer {
        let changed = state.connection.takeCommittedChanges()
        if !changed.isEmpty { finishers = Self.refresh(&state, changed: changed) }
      }
      return try body(state.connection)
    }
  }

  // MARK: Observation

  /// The result of `fetch` now, and again after every committed change to the tables it reads:
  /// at once for changes through this queue, within `pollInterval` for changes by other
  /// connections or processes. A result equal to the previous one is not delivered again. The
  /// stream ends with the error if `fetch` throws; cancelling the consumer ends the observation.
  public func observe<Value: Sendable & Equatable>(
    _ fetch: @escaping @Sendable (Connection) throws -> Value
  ) -> AsyncThrowingStream<Value, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state in
      defer { state.nextObserverID += 1 }
      return state.nextObserverID
    }
    continuation.onTermination = { [weak self] _ in self?.removeObserver(id) }
    let observer = ValueObserver(fetch: fetch, continuation: continuation)
    let work: [() -> Void] = state.withLock { state in
      let version = state.nextVersion()
      switch observer.refresh(state.connection, version: version) {
      case .failed(let error):
        return [{ continuation.finish(throwing: error) }]
      case .unchanged:
        state.observers[id] = observer
      case .deliver(let delivery):
        state.observers[id] = observer
        if state.poller == nil { startPolling(&state) }
        return [delivery]
      }
      if state.poller == nil { startPolling(&state) }
      return []
    }
    for item in work { item() }
    return stream
  }

  /// How many observations are running (for tests and diagnostics).
  public var observerCount: Int { state.withLock { $0.observers.count } }

  /// Looks for commits by other connections and refreshes every observer if there were some.
  /// The poller calls this; tests may call it to avoid waiting.
  public func checkForExternalChanges() {
    var finishers: [() -> Void] = []
    state.withLock { state in
      guard let version = try? state.connection.fetchOne("PRAGMA data_version", as: Int.self),
        version != state.lastDataVersion
      else { return }
      state.lastDataVersion = version
      finishers = Self.refresh(&state, changed: nil)
    }
    for finish in finishers { finish() }
  }

  private func removeObserver(_ id: Int) {
    state.withLock { state in
      state.observers[id] = nil
      if state.observers.isEmpty {
        state.poller?.cancel()
        state.poller = nil
      }
    }
  }

  private func startPolling(_ state: inout State) {
    state.lastDataVersion =
      (try? state.connection.fetchOne("PRAGMA data_version", as: Int.self)) ?? 0
    let interval = pollInterval
    state.poller = Task.detached(priority: .utility) { [weak self] in
      while !Task.isCancelled {
        do { try await Task.sleep(for: interval) } catch { return }
        guard let self else { return }
        self.checkForExternalChanges()
      }
    }
  }

  /// Re-runs the observers whose tables changed (all of them when `changed` is nil) and returns
  /// the work to do once the lock is released: delivering new results and finishing the streams
  /// that failed. Nothing is handed to a stream under the lock: cancelling a consumer removes
  /// its observer under this lock, from inside the task's own lock, so yielding here could
  /// deadlock against it.
  private static func refresh(_ state: inout State, changed: Set<String>?) -> [() -> Void] {
    var finishers: [() -> Void] = []
    // In the order they were registered, so results reach their consumers in a repeatable order.
    for id in state.observers.keys.sorted() {
      guard let observer = state.observers[id] else { continue }
      if let changed, observer.tables.isDisjoint(with: changed) { continue }
      switch observer.refresh(state.connection, version: state.nextVersion()) {
      case .unchanged: break
      case .deliver(let delivery): finishers.append(delivery)
      case .failed(let error):
        state.observers[id] = nil
        finishers.append { observer.finish(throwing: error) }
      }
    }
    if state.observers.isEmpty {
      state.poller?.cancel()
      state.poller = nil
    }
    return finishers
  }
}

/// What a refresh found: nothing new, a result to deliver once the lock is released, or an error.
enum RefreshOutcome {
  case unchanged
  case deliver(() -> Void)
  case failed(any Error)
}

protocol QueryObserver: AnyObject {
  var tables: Set<String> { get }
  /// Fetches again (under the queue's lock) and says what to deliver after it.
  func refresh(_ connection: Connection, version: UInt64) -> RefreshOutcome
  func finish(throwing error: any Error)
}

final class ValueObserver<Value: Sendable & Equatable>: QueryObserver, @unchecked Sendable {
  // @unchecked Sendable: `tables` and `last` are touched only under the queue's lock;
  // `lastDelivered` only under `delivering`, a lock of this observer's that no other lock waits
  // inside; the rest is immutable.
  let fetch: @Sendable (Connection) throws -> Value
  let continuation: AsyncThrowingStream<Value, any Error>.Continuation
  private(set) var tables: Set<String> = []
  private var last: Value?
  private let delivering = NSLock()
  private var lastDelivered: UInt64 = 0

  init(
    fetch: @escaping @Sendable (Connection) throws -> Value,
    continuation: AsyncThrowingStream<Value, any Error>.Continuation
  ) {
    self.fetch = fetch
    self.continuation = continuation
  }

  func refresh(_ connection: Connection, version: UInt64) -> RefreshOutcome {
    do {
      let (value, tables) = try connection.trackingReads {
        try connection.readTransaction { try fetch(connection) }
      }
      self.tables = tables
      guard value != last else { return .unchanged }
      last = value
      return .deliver { [self] in deliver(value, version: version) }
    } catch {
      return .failed(error)
    }
  }

  /// Hands a result to the stream unless a newer one got there first.
  private func deliver(_ value: Value, version: UInt64) {
    delivering.lock()
    defer { delivering.unlock() }
    guard version > lastDelivered else { return }
    lastDelivered = version
    continuation.yield(value)
  }

  func finish(throwing error: any Error) {
    continuation.finish(throwing: error)
  }
}
