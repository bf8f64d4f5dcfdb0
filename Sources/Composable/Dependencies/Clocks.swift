import Locking

private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = TestClock()
  static let name = "clock"
}

extension DependencyValues {
  /// How effects wait: debounces, timers, retries. Tests use a `TestClock`.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }
}

/// A clock whose time moves only when a test advances it, so waiting costs no real time and
/// happens in a known order.
public final class TestClock: Clock, Sendable {
  public struct Instant: InstantProtocol, Sendable {
    public var offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var sleepers: [Sleeper] = []
    var nextID = 0
  }

  private let state = Locked(State())

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many sleeps are waiting for time to move.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if deadline <= state.now { return true }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let cancelled = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleep whose deadline is passed, in deadline
  /// order, and giving woken work the chance to run (and to sleep again) before moving on.
  public func advance(by duration: Duration = .zero) async {
    await settle()
    let target = state.withLock { $0.now.advanced(by: duration) }
    while true {
      let woken = state.withLock { state -> Sleeper? in
        guard
          let index = state.sleepers.indices.min(by: {
            state.sleepers[$0].deadline < state.sleepers[$1].deadline
          }),
          state.sleepers[index].deadline <= target
        else { return nil }
        let sleeper = state.sleepers.remove(at: index)
        state.now = max(state.now, sleeper.deadline)
        return sleeper
      }
      guard let woken else { break }
      woken.continuation.resume()
      await settle()
    }
    state.withLock { $0.now = max($0.now, target) }
    await settle()
  }

  /// Advances until no sleep is waiting (for timers that end).
  public func run(upTo limit: Duration = .seconds(3600)) async {
    await settle()
    let deadline = state.withLock { $0.sleepers.map(\.deadline).max() }
    if let deadline {
      await advance(by: min(limit, now.duration(to: deadline)))
    }
  }

  /// Lets woken work run to its next suspension before time moves again: each pass through the
  /// main queue runs what effects on `MainQueueExecutor` had ready; the yields serve work
  /// elsewhere.
  private func settle() async {
    for _ in 0..<25 {
      await MainActor.run {}
      await Task.yield()
    }
  }
}

/// A clock that never waits: every sleep returns at once (for tests that do not care about time).
public struct ImmediateClock: Clock, Sendable {
  public typealias Instant = TestClock.Instant
  public init() {}
  public var now: Instant { Instant() }
  public var minimumResolution: Duration { .zero }
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
  }
}
