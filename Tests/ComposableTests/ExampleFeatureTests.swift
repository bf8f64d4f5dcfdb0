import Composable
import ComposableTesting
import Foundation
import Testing

@MainActor
@Suite struct CounterTests {
  @Test func incrementingAndDecrementing() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
  }

  @Test func incrementingLaterWaitsForTheClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.incrementLater) { $0.isWaiting = true }
    await clock.advance(by: .milliseconds(999))
    #expect(store.receivedActions.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.increment) {
      $0.count = 1
      $0.isWaiting = false
    }
  }

  @Test func cancellingTheWaitMeansNoIncrement() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.incrementLater) { $0.isWaiting = true }
    await store.send(.cancelLater) { $0.isWaiting = false }
    await clock.advance(by: .seconds(5))
    #expect(store.receivedActions.isEmpty)
  }
}

@MainActor
@Suite struct SearchTests {
  @Test func aBurstOfKeystrokesRunsOneSearchAfterTheDebounce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
      $0.wordList = WordList { query in ["apple", "apricot"].filter { $0.hasPrefix(query) } }
    }
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("ap")) { $0.query = "ap" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("apr")) { $0.query = "apr" }
    await clock.advance(by: .milliseconds(299))
    #expect(store.receivedActions.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.search) { $0.searches = 1 }
    await store.receive(.results(["apricot"])) { $0.results = ["apricot"] }
  }
}

@MainActor
@Suite struct DelegateTests {
  @Test func theChildReportsASaveAndTheParentDecides() async {
    let store = TestStore(initialState: NameList.State()) { NameList() }
    await store.send(.editor(.draftChanged("Ada"))) { $0.editor.draft = "Ada" }
    await store.send(.editor(.saveTapped))
    await store.receive(.editor(.delegate(.saved("Ada")))) {
      $0.names = ["Ada"]
      $0.editor.draft = ""
    }
  }

  @Test func theChildReportsACancel() async {
    let store = TestStore(initialState: NameList.State(editor: NameEditor.State(draft: "half"))) {
      NameList()
    }
    await store.send(.editor(.cancelTapped))
    await store.receive(.editor(.delegate(.cancelled))) { $0.editor.draft = "" }
  }
}

@MainActor
@Suite struct OptionalChildTests {
  @Test func dismissingTheChildCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: StopwatchHost.State()) {
      StopwatchHost()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.showTapped) { $0.stopwatch = Stopwatch.State() }
    await store.receive(.stopwatch(.start))
    await clock.advance(by: .seconds(2))
    await store.receive(.stopwatch(.tick)) { $0.stopwatch?.seconds = 1 }
    await store.receive(.stopwatch(.tick)) { $0.stopwatch?.seconds = 2 }
    await store.send(.stopwatch(.closeTapped))
    await store.receive(.stopwatch(.delegate(.close))) { $0.stopwatch = nil }
    // The ticking loop was cancelled with the child: time passing sends nothing, and the test
    // ends without an effect still running.
    await clock.advance(by: .seconds(10))
    #expect(store.receivedActions.isEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test func actionsForAnAbsentChildAreIgnored() async {
    let store = TestStore(initialState: StopwatchHost.State()) { StopwatchHost() }
    await store.send(.stopwatch(.tick))
  }
}
