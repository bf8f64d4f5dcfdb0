import Composable
import Database
import DocketCore
import DocketSync
import Foundation

/// The conflicts view: each value that lost a merge beside the value kept, kept live (a
/// conflict dealt with on another device leaves at once), and "use this value" or "dismiss" for
/// the one selected.
public struct ConflictsFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var conflicts: [Conflict] = []
    /// Whether the first read has come back (until then the list is not said to be empty).
    public var loaded = false
    public var selected = 0
    public var errorMessage: String?
    /// The issue whose conflicts are shown (opened from its detail); nil for every issue's.
    public var issue: UUID?

    public init(issue: UUID? = nil) {
      self.issue = issue
    }

    public var selectedConflict: Conflict? {
      conflicts.indices.contains(selected) ? conflicts[selected] : nil
    }
  }

  public enum Action: Equatable, Sendable {
    case task
    case loaded([Conflict])
    case failed(String)
    case selectionMoved(by: Int)
    case useTapped
    case dismissTapped
    case finished(ConflictOutcome)
    case writeFailed(String)
    case closeTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case close
      /// A conflict was used or dismissed (or was gone already): the root says so.
      case finished(ConflictOutcome)
      case failed(String)
    }
  }

  enum CancelID { case observation }

  @Dependency(\.database) var database
  @Dependency(\.localizer) var localizer

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      let issue = state.issue
      return .observe(database, localizer, id: CancelID.observation, failed: Action.failed) {
        try $0.conflicts(issue: issue)
      } send: {
        .loaded($0)
      }

    case .loaded(let conflicts):
      // The selection stays on the conflict it was on, where that is still listed.
      let was = state.selectedConflict?.id
      state.conflicts = conflicts
      state.loaded = true
      state.errorMessage = nil
      if let was, let index = conflicts.firstIndex(where: { $0.id == was }) {
        state.selected = index
      } else {
        state.selected = min(state.selected, max(conflicts.count - 1, 0))
      }
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .selectionMoved(let offset):
      state.selected = min(max(state.selected + offset, 0), max(state.conflicts.count - 1, 0))
      return .none

    case .useTapped, .dismissTapped:
      guard let conflict = state.selectedConflict else { return .none }
      let id = conflict.id
      let use = action == .useTapped
      return .write(
        database, { try use ? $0.useConflict(id) : $0.dismissConflict(id) },
        failed: { [localizer] in Action.writeFailed(localizer.message(for: $0)) },
        done: { Action.finished($0) })

    case .finished(let outcome):
      return .send(.delegate(.finished(outcome)))

    case .writeFailed(let message):
      return .send(.delegate(.failed(message)))

    case .closeTapped:
      return .merge(.cancel(id: CancelID.observation), .send(.delegate(.close)))

    case .delegate:
      return .none
    }
  }
}
