import Composable

/// Finds words as the user types: re-runs the query 0.3 s after the last keystroke, each
/// keystroke cancelling the pending query.
struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var searches = 0
  }

  enum Action: Equatable {
    case queryChanged(String)
    case search
    case results([String])
  }

  enum CancelID { case debounce }

  @Dependency(\.clock) var clock
  @Dependency(\.wordList) var wordList

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(300))
        await send(.search)
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: true)
    case .search:
      state.searches += 1
      let query = state.query
      return .run { [wordList] send in
        await send(.results(await wordList.find(query)))
      }
    case .results(let results):
      state.results = results
      return .none
    }
  }
}

/// A dependency of the example: where words come from.
struct WordList: Sendable {
  var find: @Sendable (String) async -> [String]
}

private enum WordListKey: DependencyKey {
  static let liveValue = WordList { query in
    ["apple", "apricot", "banana"].filter { $0.hasPrefix(query) }
  }
  static let testValue = WordList { _ in [] }
  static let name = "wordList"
}

extension DependencyValues {
  var wordList: WordList {
    get { self[WordListKey.self] }
    set { self[WordListKey.self] = newValue }
  }
}
