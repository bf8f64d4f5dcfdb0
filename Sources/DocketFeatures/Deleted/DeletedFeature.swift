import Composable
import Database
import DocketCore
import DocketSync
import Foundation

/// Recently deleted: the issues deleted in the last 30 days, the latest first, kept live (a
/// delete or restore on another device shows at once), and a restore of the one selected.
public struct DeletedFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var issues: [DeletedIssue] = []
    /// Whether the first read has come back (until then the list is not said to be empty).
    public var loaded = false
    public var selected = 0
    public var errorMessage: String?
    /// The issue "delete now" asks about, while it asks (the selection may move meanwhile).
    public var confirmingPurge: DeletedIssue?

    public init() {}

    public var selectedIssue: DeletedIssue? {
      issues.indices.contains(selected) ? issues[selected] : nil
    }
  }

  public enum Action: Equatable, Sendable {
    case task
    case loaded([DeletedIssue])
    case failed(String)
    case selectionMoved(by: Int)
    case restoreTapped
    /// The restore of the issue with this title came back: nil when it could not come back
    /// (deleted more than 30 days ago by now, or already restored elsewhere).
    case restored(title: String, issue: UUID?)
    case restoreFailed(String)
    /// "Delete now": asks first.
    case purgeTapped
    case purgeConfirmed
    case purgeCancelled
    case purged(title: String, done: Bool)
    case closeTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case close
      /// An issue came back: the root says so.
      case restored(title: String)
      case notRestored(title: String)
      /// The restore could not be written (the database said why).
      case restoreFailed(String)
      /// An issue was deleted for good (false: it was gone already).
      case purged(title: String, done: Bool)
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
        try $0.recentlyDeletedIssues()
      } send: {
        .loaded($0)
      }

    case .loaded(let issues):
      // The selection stays on the issue it was on, where that is still listed.
      let was = state.selectedIssue?.id
      state.issues = issues
      state.loaded = true
      state.errorMessage = nil
      if let was, let index = issues.firstIndex(where: { $0.id == was }) {
        state.selected = index
      } else {
        state.selected = min(state.selected, max(issues.count - 1, 0))
      }
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .selectionMoved(let offset):
      state.selected = min(max(state.selected + offset, 0), max(state.issues.count - 1, 0))
      return .none

    case .restoreTapped:
      guard let issue = state.selectedIssue else { return .none }
      let id = issue.id
      let title = issue.title
      return .write(
        database, { try $0.restoreDeletedIssue(id: id)?.id },
        failed: { [localizer] in Action.restoreFailed(localizer.message(for: $0)) },
        done: { Action.restored(title: title, issue: $0) })

    case .restored(let title, let issue):
      return .send(.delegate(issue == nil ? .notRestored(title: title) : .restored(title: title)))

    case .restoreFailed(let message):
      // Said, and the list stays: the reading of it did not fail.
      return .send(.delegate(.restoreFailed(message)))

    case .purgeTapped:
      guard let issue = state.selectedIssue else { return .none }
      state.confirmingPurge = issue
      return .none

    case .purgeCancelled:
      state.confirmingPurge = nil
      return .none

    case .purgeConfirmed:
      guard let issue = state.confirmingPurge else { return .none }
      state.confirmingPurge = nil
      let id = issue.id
      let title = issue.title
      // Restored meanwhile (here or elsewhere), it lives on: only a deleted one ends.
      return .write(
        database, { try $0.purgeIssue(id: id, onlyIfDeleted: true) },
        failed: { [localizer] in Action.restoreFailed(localizer.message(for: $0)) },
        done: { Action.purged(title: title, done: $0) })

    case .purged(let title, let done):
      return .send(.delegate(.purged(title: title, done: done)))

    case .closeTapped:
      return .merge(.cancel(id: CancelID.observation), .send(.delegate(.close)))

    case .delegate:
      return .none
    }
  }
}
