import Foundation
import Locking

// Live observation of queries: each observer re-runs its fetch after every commit to the tables
// it reads, through this queue at once and by other connections within the poll interval.
extension DatabaseQueue {
  /// The result of `fetch` now, and again after every committed change to the tables it reads:
  /// at once for changes through this queue, within `pollInterval` for changes by other
  /// connections or processes. A result equal to the previous one is not delivered again. The
  /// stream ends with the error if `fetch` throws; cancelling the consumer ends the observation.
  ///
  /// A slow consumer gets only the newest result (`buffering`); tests ask for every delivery
  /// (`.unbounded`), so that one too many fails them.
  public func observe<Value: Sendable & Equatable>(
    _ fetch: @escaping @Sendable (Connection) throws -> Value,
    buffering: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy =
      .bufferingNewest(1)
  ) -> AsyncThrowingStream<Value, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Value.self, throwing: (any Error).self, bufferingPolicy: buffering)
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
      if Self.reopenIfDue(&state) {
        finishers = Self.refresh(&state, changed: nil)
        return
      }
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
  static func refresh(_ state: inout State, changed: Set<String>?) -> [() -> Void] {
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
