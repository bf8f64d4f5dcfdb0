import Composable
import Database
import DocketCore

/// Every award, unlocked or locked, kept live: deleting issues or tags can lock one again.
public struct AwardsFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var awards: [AwardStatus] = AwardStatus.all(for: AwardCounts())
    public var errorMessage: String?

    public init() {}

    public var unlockedCount: Int { awards.filter(\.unlocked).count }
  }

  public enum Action: Equatable, Sendable {
    case task
    case loaded(AwardCounts)
    case failed(String)
    case closeTapped
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
      let database = self.database
      return .run { send in
        for try await counts in database.observe({ try $0.awardCounts() }) {
          await send(.loaded(counts))
        }
      } catch: { [localizer] error, send in
        await send(.failed(localizer.message(for: error)))
      }
      .cancellable(id: CancelID.observation, cancelInFlight: true)

    case .loaded(let counts):
      state.awards = AwardStatus.all(for: counts)
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
