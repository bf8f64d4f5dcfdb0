import Composable
import Testing

@MainActor
@Suite struct StoreTests {
  @Test func actionsSentWhileReducingWaitTheirTurn() async {
    let store = Store(initialState: Recorder.State(), reducer: Recorder())
    store.send(.first)
    #expect(store.state.log == ["first", "second", "third"])
  }

  @Test func observersAreToldOncePerBatch() {
    let store = Store(initialState: Recorder.State(), reducer: Recorder())
    var calls = 0
    let observation = store.observe { calls += 1 }
    store.send(.first)
    #expect(calls == 1)
    observation.cancel()
    store.send(.first)
    #expect(calls == 1)
  }

  @Test func childStoresReadAndSendThroughTheParent() {
    let store = Store(initialState: NameList.State(), reducer: NameList())
    let editor = store.scope(state: \.editor, action: NameList.Action.editorCase)
    editor.send(.draftChanged("Grace"))
    #expect(editor.state.draft == "Grace")
    editor.send(.saveTapped)
    #expect(store.state.names == ["Grace"])
    #expect(editor.state.draft == "")
  }

  @Test func dismissingAnOptionalChildCancelsItsEffects() async {
    let clock = TestClock()
    let store = Store(initialState: StopwatchHost.State(), reducer: StopwatchHost()) {
      $0.clock = clock
      $0.effectExecutor = MainQueueExecutor.shared
    }
    store.send(.showTapped)
    await clock.advance(by: .seconds(3))
    #expect(store.state.stopwatch?.seconds == 3)
    store.send(.stopwatch(.closeTapped))
    #expect(store.state.stopwatch == nil)
    await clock.advance(by: .seconds(3))
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancelInFlightKeepsOnlyTheLastDebounce() async {
    let clock = TestClock()
    let store = Store(initialState: Search.State(), reducer: Search()) {
      $0.clock = clock
      $0.effectExecutor = MainQueueExecutor.shared
      $0.wordList = WordList { query in [query] }
    }
    for query in ["a", "ab", "abc"] {
      store.send(.queryChanged(query))
      await clock.advance(by: .milliseconds(100))
    }
    await clock.advance(by: .milliseconds(300))
    #expect(store.state.searches == 1)
    for _ in 0..<100 where store.state.results.isEmpty { await Task.yield() }
    #expect(store.state.results == ["abc"])
  }

  @Test func concatenatedEffectsRunInOrder() async {
    let store = Store(initialState: Recorder.State(), reducer: Recorder())
    await store.send(.sequence).finish()
    #expect(store.state.log == ["sequence", "one", "two"])
  }
}

/// Logs what it reduces; `.first` queues two more actions through effects.
struct Recorder: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable {
    case first, second, third, sequence, one, two
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    switch action {
    case .first: return .merge(.send(.second), .send(.third))
    case .sequence:
      return .concatenate(
        .run { send in
          await Task.yield()
          await send(.one)
        },
        .run { send in await send(.two) })
    default: return .none
    }
  }
}
