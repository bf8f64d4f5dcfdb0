import Composable

/// A stopwatch that ticks every second while shown; dismissing it must stop the ticking.
struct Stopwatch: Reducer {
  struct State: Equatable {
    var seconds = 0
  }

  enum Action: Equatable {
    case start
    case tick
    case closeTapped
    case delegate(Delegate)

    enum Delegate: Equatable { case close }
  }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.seconds += 1
      return .none
    case .closeTapped:
      return .send(.delegate(.close))
    case .delegate:
      return .none
    }
  }
}

/// Shows a stopwatch now and then.
struct StopwatchHost: Reducer {
  struct State: Equatable {
    var stopwatch: Stopwatch.State?
  }

  enum Action: Equatable {
    case showTapped
    case stopwatch(Stopwatch.Action)

    static let stopwatchCase = ActionCase(embed: Action.stopwatch) {
      if case .stopwatch(let action) = $0 { action } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .showTapped:
        state.stopwatch = Stopwatch.State()
        return .send(.stopwatch(.start))
      case .stopwatch(.delegate(.close)):
        state.stopwatch = nil
        return .none
      case .stopwatch:
        return .none
      }
    }
    .ifLet(\.stopwatch, action: Action.stopwatchCase) {
      Stopwatch()
    }
  }
}
