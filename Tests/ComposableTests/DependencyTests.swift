import Composable
import ComposableTesting
import Foundation
import Locking
import Testing

@Suite struct DependencyTests {
  let fixed = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!

  @Test func overridesLastForTheirScopeOnly() {
    let outside = DependencyValues.current.uuid()
    let inside = withDependencies {
      $0.uuid = .constant(fixed)
    } operation: {
      DependencyValues.current.uuid()
    }
    #expect(inside == fixed)
    #expect(outside != fixed)
    #expect(DependencyValues.current.uuid() != fixed)
  }

  @Test func theIncrementingGeneratorCountsUp() {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
  }

  @MainActor
  @Test func effectsKeepTheDependenciesTheyWereCreatedWith() async {
    let early = Date(timeIntervalSince1970: 100)
    let late = Date(timeIntervalSince1970: 200)
    let effect = withDependencies {
      $0.date = .constant(early)
    } operation: {
      Effect<Clocked.Action>.run { send in
        await send(.saw(DependencyValues.current.date.now))
      }
    }
    let store = Store(initialState: Clocked.State(), reducer: Clocked(effect: effect)) {
      $0.date = .constant(late)
    }
    await store.send(.start).finish()
    #expect(store.state.seen == [early])
  }

  @MainActor
  @Test func aDependencyUsedWithoutAnOverrideFailsNamingIt() async {
    let reported = await reportedIssues {
      let store = TestStore(initialState: Stamper.State()) { Stamper() }
      await store.send(.stamp) {
        $0.ids = [UUID(uuidString: "00000000-0000-0000-0000-000000000000")!]
      }
    }.map(\.text)
    #expect(reported.count == 1)
    #expect(
      reported.first?.hasPrefix(#"@Dependency(\.uuid) was used without being overridden."#) == true)
  }

  @MainActor
  @Test func anOverriddenDependencyDoesNotFail() async {
    let store = TestStore(initialState: Stamper.State()) {
      Stamper()
    } withDependencies: {
      $0.uuid = .constant(fixed)
    }
    await store.send(.stamp) { $0.ids = [fixed] }
  }

  @Test func theTestClockOnlyMovesWhenAdvanced() async throws {
    let clock = TestClock()
    let woke = Flag()
    let sleeper = Task {
      try await clock.sleep(for: .seconds(5))
      woke.set()
    }
    await clock.advance(by: .seconds(4))
    #expect(!woke.value)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(woke.value)
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func aCancelledSleepOnTheTestClockThrows() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
    await clock.advance()
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}

/// Records the date its effect saw.
struct Clocked: Reducer {
  struct State: Equatable { var seen: [Date] = [] }
  enum Action: Equatable {
    case start
    case saw(Date)
  }
  let effect: Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: return effect
    case .saw(let date):
      state.seen.append(date)
      return .none
    }
  }
}

/// Adds a new id on each stamp.
struct Stamper: Reducer {
  struct State: Equatable { var ids: [UUID] = [] }
  enum Action: Equatable { case stamp }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.ids.append(uuid())
    return .none
  }
}

/// A thread-safe boolean for tests.
final class Flag: Sendable {
  private let storage = Locked(false)
  var value: Bool { storage.withLock { $0 } }
  func set() { storage.withLock { $0 = true } }
}
