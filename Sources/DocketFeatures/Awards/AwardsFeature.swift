import Composable
import Database
import DocketCore

/// Every award, unlocked or locked, kept live: deleting issues or tags can lock one again.
public struct AwardsFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var awards: [AwardStatus] = AwardStatus.all(for: AwardCounts())
    /// What the awards are counted from, for the progress of a locked one.
    public var counts = AwardCounts()
    /// The award whose name, description and state show under the grid.
    public var selected = 0
    public var errorMessage: String?

    public init() {}

    public var unlockedCount: Int { awards.filter(\.unlocked).count }
  }

  public enum Action: Equatable, Sendable {
    case task
    case loaded(AwardCounts)
    case failed(String)
    case closeTapped
    /// Moves the selection through the grid by `offset` awards (a row is `columns` awards).
    case selectionMoved(by: Int)
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case close
    }
  }

  enum CancelID { case observation }

  @Dependency(\.database) var database
  @Dependency(\.localizer) var localizer

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .observe(database, localizer, id: CancelID.observation, failed: Action.failed) {
        try $0.awardCounts()
      } send: {
        .loaded($0)
      }

    case .loaded(let counts):
      state.awards = AwardStatus.all(for: counts)
      state.counts = counts
      return .none

    case .selectionMoved(let offset):
      state.selected = min(max(state.selected + offset, 0), max(state.awards.count - 1, 0))
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .closeTapped:
      return .send(.delegate(.close))

    case .delegate:
      return .none
    }
  }
}
