import Composable

/// A counter: the smallest feature, with one effect that waits on the clock.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var isWaiting = false
  }

  enum Action: Equatable {
    case increment
    case decrement
    case incrementLater
    case cancelLater
  }

  enum CancelID { case later }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      state.isWaiting = false
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .incrementLater:
      state.isWaiting = true
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.increment)
      }
      .cancellable(id: CancelID.later)
    case .cancelLater:
      state.isWaiting = false
      return .cancel(id: CancelID.later)
    }
  }
}
