import Composable
import Database
import DocketCore
import DocketSync
import Foundation

/// Docket's root: the three panes and what is presented over them. Each pane reports what
/// happened through its delegate actions; the root decides what that means for the others.
public struct AppFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var sidebar: SidebarFeature.State
    public var list: IssueListFeature.State
    public var detail: DetailFeature.State?
    public var awards: AwardsFeature.State?
    /// Recently deleted, shown over the panes while it is open.
    public var deleted: DeletedFeature.State?
    /// The conflicts view, shown over the panes while it is open.
    public var conflicts: ConflictsFeature.State?
    public var sync = SyncFeature.State()

    /// The panes as the device settings left them.
    public init(settings: DeviceSettings = DeviceSettings()) {
      sidebar = SidebarFeature.State(
        selection: settings.lastFilter, showCompleted: settings.showCompleted,
        tagSort: settings.tagSort)
      list = IssueListFeature.State(
        filter: settings.lastFilter, showCompleted: settings.showCompleted, sort: settings.issueSort
      )
    }
  }

  public enum Action: Equatable, Sendable {
    /// Starts the panes' observations.
    case task
    /// Stops every pane's observations (the program is closing).
    case stop
    case sidebar(SidebarFeature.Action)
    case list(IssueListFeature.Action)
    case detail(DetailFeature.Action)
    case awards(AwardsFeature.Action)
    case deleted(DeletedFeature.Action)
    case conflicts(ConflictsFeature.Action)
    /// Opens the conflicts view, of one issue or of all (or leaves it open).
    case conflictsRequested(issue: UUID?)
    /// Opens Recently deleted (or leaves it open).
    case deletedRequested
    /// Takes back this device's latest step, or (`redo`) makes again what the latest undo took
    /// back.
    case undoRequested(redo: Bool)
    case undoFinished(UndoOutcome)
    case sync(SyncFeature.Action)
    case failed(String)

    public static let sidebarCase = ActionCase(embed: Action.sidebar) {
      if case .sidebar(let action) = $0 { action } else { nil }
    }
    public static let listCase = ActionCase(embed: Action.list) {
      if case .list(let action) = $0 { action } else { nil }
    }
    public static let detailCase = ActionCase(embed: Action.detail) {
      if case .detail(let action) = $0 { action } else { nil }
    }
    public static let awardsCase = ActionCase(embed: Action.awards) {
      if case .awards(let action) = $0 { action } else { nil }
    }
    public static let deletedCase = ActionCase(embed: Action.deleted) {
      if case .deleted(let action) = $0 { action } else { nil }
    }
    public static let conflictsCase = ActionCase(embed: Action.conflicts) {
      if case .conflicts(let action) = $0 { action } else { nil }
    }
    public static let syncCase = ActionCase(embed: Action.sync) {
      if case .sync(let action) = $0 { action } else { nil }
    }
  }

  @Dependency(\.database) var database
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
  @Dependency(\.localizer) var localizer

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.sidebar, action: Action.sidebarCase) { SidebarFeature() }
    Scope(state: \.list, action: Action.listCase) { IssueListFeature() }
    Scope(state: \.sync, action: Action.syncCase) { SyncFeature() }
    Reduce(coordinate)
      .ifLet(\.detail, action: Action.detailCase) { DetailFeature() }
      .ifLet(\.awards, action: Action.awardsCase) { AwardsFeature() }
      .ifLet(\.deleted, action: Action.deletedCase) { DeletedFeature() }
      .ifLet(\.conflicts, action: Action.conflictsCase) { ConflictsFeature() }
  }

  func coordinate(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .merge(.send(.sidebar(.task)), .send(.list(.task)))

    case .stop:
      return .merge(
        .cancel(id: SidebarFeature.CancelID.observation),
        .cancel(id: IssueListFeature.CancelID.observation),
        .cancel(id: IssueListFeature.CancelID.count),
        .cancel(id: IssueListFeature.CancelID.tags),
        .cancel(id: IssueListFeature.CancelID.debounce),
        .cancel(id: DetailFeature.CancelID.observation),
        .cancel(id: DetailFeature.CancelID.history),
        .cancel(id: AwardsFeature.CancelID.observation),
        .cancel(id: DeletedFeature.CancelID.observation),
        .merge(SyncFeature.CancelID.allCases.map { .cancel(id: $0) }))

    case .sidebar(.delegate(let delegate)):
      return handle(delegate, &state)
    case .list(.delegate(let delegate)):
      return handle(delegate, &state)
    case .detail(.delegate(let delegate)):
      return handle(delegate, &state)

    case .awards(.delegate(.close)):
      state.awards = nil
      return .none

    case .deletedRequested:
      guard state.deleted == nil else { return .none }
      state.deleted = DeletedFeature.State()
      return .send(.deleted(.task))

    case .deleted(.delegate(.close)):
      state.deleted = nil
      return .none

    case .conflictsRequested(let issue):
      guard state.conflicts == nil else { return .none }
      state.conflicts = ConflictsFeature.State(issue: issue)
      return .send(.conflicts(.task))

    case .conflicts(.delegate(.close)):
      state.conflicts = nil
      return .none

    case .undoRequested(let redo):
      // The panes follow the data by their observations; only the words are sent back.
      return .write(
        database,
        { [uuid] db -> UndoOutcome in
          let makeID = { uuid() }
          guard let report = try redo ? db.redo(makeID: makeID) : db.undo(makeID: makeID)
          else { return .nothing(redo: redo) }
          return .done(report)
        },
        failed: { [localizer] in Action.undoFinished(.failed(localizer.message(for: $0))) },
        done: { Action.undoFinished($0) })

    case .undoFinished:
      return .none

    case .failed(let message):
      state.list.errorMessage = message
      return .none

    case .sidebar, .list, .detail, .awards, .deleted, .conflicts, .sync:
      return .none
    }
  }

  /// What an undo or redo came back with.
  public enum UndoOutcome: Equatable, Sendable {
    case done(UndoReport)
    /// There was nothing to undo (or redo).
    case nothing(redo: Bool)
    case failed(String)
  }

  // MARK: What each report means for the other panes

  private func handle(_ delegate: SidebarFeature.Action.Delegate, _ state: inout State) -> Effect<
    Action
  > {
    switch delegate {
    case .filterChanged(let filter):
      // A new filter replaces the list and clears the detail.
      state.detail = nil
      return .send(.list(.setFilter(filter, showCompleted: state.sidebar.showCompleted)))

    case .showCompletedChanged(let show):
      if let issue = state.detail?.issue,
        !state.list.filter.admits(issue, showCompleted: show, now: date.now)
      {
        state.detail = nil
        state.list.selection = nil
      }
      return .send(.list(.setFilter(state.sidebar.selection, showCompleted: show)))

    case .tagDeleted(let id):
      // Deleting the tag that is the current filter moves the selection to Open.
      guard state.sidebar.selection == .tag(id) else { return .none }
      state.sidebar.selection = .open
      state.detail = nil
      return .merge(
        .send(.list(.setFilter(.open, showCompleted: state.sidebar.showCompleted))),
        rememberFilter(.open))

    case .tagsMerged(let source, let target):
      // One of the two ids goes (`TagName.keptID`): a filter on it moves to the one left.
      let kept = TagName.keptID(merging: source.id, into: target.id)
      let gone = kept == source.id ? target.id : source.id
      guard state.sidebar.selection == .tag(gone) else { return .none }
      state.sidebar.selection = .tag(kept)
      return .merge(
        .send(.list(.setFilter(.tag(kept), showCompleted: state.sidebar.showCompleted))),
        rememberFilter(.tag(kept)))

    case .tagCreated, .tagRenamed:
      // The selection is by id, so a renamed selected tag stays selected; lists follow live.
      return .none

    case .awardsRequested:
      guard state.awards == nil else { return .none }
      state.awards = AwardsFeature.State()
      return .send(.awards(.task))
    }
  }

  private func handle(_ delegate: IssueListFeature.Action.Delegate, _ state: inout State) -> Effect<
    Action
  > {
    switch delegate {
    case .selectionChanged(let id):
      guard let id else {
        state.detail = nil
        return .none
      }
      // Choosing the issue already shown changes nothing.
      if state.detail?.issue.id == id { return .none }
      guard let issue = state.list.issues.first(where: { $0.id == id }) else { return .none }
      let historyShown = state.detail?.historyShown ?? false
      state.detail = DetailFeature.State(issue: issue, allTags: state.list.tags)
      // The history, shown for one issue, stays shown for the next.
      state.detail?.historyShown = historyShown
      return .send(.detail(.task))

    case .newIssueRequested:
      return createIssue(&state)

    case .deleteRequested(let id):
      if state.detail?.issue.id != id {
        guard let issue = state.list.issues.first(where: { $0.id == id }) else { return .none }
        state.detail = DetailFeature.State(issue: issue, allTags: state.list.tags)
        state.detail?.confirmingDelete = true
        return .send(.detail(.task))
      }
      state.detail?.confirmingDelete = true
      return .none
    }
  }

  private func handle(_ delegate: DetailFeature.Action.Delegate, _ state: inout State) -> Effect<
    Action
  > {
    switch delegate {
    case .saved(let issue), .completionChanged(let issue):
      // An issue that no longer belongs in the current list is let go by the list and detail,
      // and the selection moves on to the row after it (`x` down a list closes one by one).
      guard !belongs(issue, state) else { return .none }
      let wasSelected = state.list.selection == issue.id
      let next = Self.neighbour(of: issue.id, in: state.list.issues)
      let effect = letGo(issue.id, &state)
      guard wasSelected, let next else { return effect }
      state.list.selection = next.id
      let historyShown = state.detail?.historyShown ?? false
      state.detail = DetailFeature.State(issue: next, allTags: state.list.tags)
      state.detail?.historyShown = historyShown
      return .merge(effect, .send(.detail(.task)))

    case .deleted(let id), .discarded(let id), .vanished(let id):
      return letGo(id, &state)

    case .tagCreated:
      return .none
    }
  }

  // MARK: Decisions

  /// A new issue goes into the current filter: under Completed (where an open issue does not
  /// belong) the filter moves to Open; under a tag, the issue starts with that tag.
  private func createIssue(_ state: inout State) -> Effect<Action> {
    var effects: [Effect<Action>] = []
    if state.sidebar.selection == .completed {
      state.sidebar.selection = .open
      effects.append(.send(.list(.setFilter(.open, showCompleted: state.sidebar.showCompleted))))
      effects.append(rememberFilter(.open))
    }
    var tags: [Tag] = []
    if case .tag(let id) = state.sidebar.selection,
      let tag = state.sidebar.tags.first(where: { $0.id == id })?.tag
    {
      tags = [tag]
    }
    // Titled as the seed titles it, never empty (every face holds a title to one line, and to
    // some text): the title field starts with it selected, to type over.
    let issue = Issue(
      id: uuid(), title: localizer("issue.newTitle"), created: date.now, tags: tags)
    state.list.selection = issue.id
    state.detail = DetailFeature.State(
      issue: issue, editing: true, isNew: true, allTags: state.list.tags)
    let database = self.database
    // The insert joins the write lane now, before any edit of the new issue can; the detail
    // starts observing once it has landed.
    effects.append(
      .concatenate(
        .run { [localizer] send in
          do {
            try await database.asyncWrite { try $0.insertIssue(issue) }
          } catch {
            await send(.failed(localizer.message(for: error)))
          }
        },
        .send(.detail(.task))
      )
      .serial(in: WriteLane.database))
    return .merge(effects)
  }

  /// The row after `id` in `issues`, or the one before it when it is the last.
  static func neighbour(of id: UUID, in issues: [Issue]) -> Issue? {
    guard let index = issues.firstIndex(where: { $0.id == id }) else { return nil }
    if index + 1 < issues.count { return issues[index + 1] }
    return index > 0 ? issues[index - 1] : nil
  }

  private func letGo(_ id: UUID, _ state: inout State) -> Effect<Action> {
    if state.detail?.issue.id == id { state.detail = nil }
    if state.list.selection == id { state.list.selection = nil }
    return .none
  }

  private func belongs(_ issue: Issue, _ state: State) -> Bool {
    state.list.filter.admits(issue, showCompleted: state.list.showCompleted, now: date.now)
  }

  private func rememberFilter(_ filter: IssueFilter) -> Effect<Action> {
    .write(database, localizer, failed: Action.failed) { db in
      var settings = try db.fetchSettings()
      settings.lastFilter = filter
      try db.saveSettings(settings)
    }
  }
}
