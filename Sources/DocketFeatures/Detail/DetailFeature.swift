import Composable
import Database
import DocketCore
import DocketSync
import Foundation

/// The detail pane: one issue, to read or to edit. Editing works on a draft; cancel throws the
/// draft away, save writes only when something changed.
public struct DetailFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// The issue as stored, kept live.
    public var issue: Issue
    /// The edited copy while editing; nil in view mode.
    public var draft: Issue?
    /// The issue as it was when editing began: saving writes only what the draft changed from it,
    /// so changes made elsewhere meanwhile to other fields are kept.
    public var editBase: Issue?
    /// True for an issue created a moment ago and never saved: cancelling discards it.
    public var isNew: Bool
    /// Every tag, for the chips of the edit form.
    public var allTags: [Tag] = []
    /// The name of a tag being created from the edit form.
    public var newTagName: String?
    public var confirmingDelete = false
    public var errorMessage: String?
    /// The issue's history shows under its detail (`H`), kept live while it does.
    public var historyShown = false
    public var history: [HistoryEntry] = []

    public init(issue: Issue, editing: Bool = false, isNew: Bool = false, allTags: [Tag] = []) {
      self.issue = issue
      self.draft = editing ? issue : nil
      self.editBase = editing ? issue : nil
      self.isNew = isNew
      self.allTags = allTags
    }

    public var isEditing: Bool { draft != nil }

    /// The edit form's chips: the tags the draft carries first, then the others, each by name.
    public var tagChips: [TagChip] {
      let assigned = Set((draft ?? issue).tags.map(\.id))
      let byName = NaturalOrder.sorted(allTags, by: \.name)
      return byName.filter { assigned.contains($0.id) }.map { TagChip(tag: $0, assigned: true) }
        + byName.filter { !assigned.contains($0.id) }.map { TagChip(tag: $0, assigned: false) }
    }
  }

  /// A tag in the edit form, on or off for this issue.
  public struct TagChip: Equatable, Sendable {
    public var tag: Tag
    public var assigned: Bool
  }

  public enum Action: Equatable, Sendable {
    /// Starts observing the issue and the tags (the pane appeared).
    case task
    case loaded(Issue?, [Tag])
    case failed(String)
    /// A save failed after the draft was closed: the stored issue and the draft come back, so
    /// nothing typed is lost.
    case saveFailed(draft: Issue, base: Issue, stored: Issue, message: String)
    /// A save landed, and these fields, changed elsewhere while the form was open, took this
    /// edit's values (sent only when there are some).
    case overwroteChangesMadeElsewhere([IssueField])
    case editTapped
    case titleChanged(String)
    case detailChanged(String)
    case priorityChanged(Priority)
    case completedToggled
    case tagToggled(UUID)
    case newTagTapped
    case newTagNameChanged(String)
    case newTagSubmitted
    case newTagCancelled
    case cancelTapped
    case saveTapped
    case toggleCompletedTapped
    case deleteTapped
    case deleteConfirmed
    case deleteCancelled
    /// Shows or hides the issue's history.
    case historyToggled
    case historyLoaded([HistoryEntry])
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case saved(Issue)
      case completionChanged(Issue)
      case deleted(UUID)
      /// A new issue cancelled before its first save was removed again.
      case discarded(UUID)
      case tagCreated(Tag)
      /// The issue is gone (deleted elsewhere).
      case vanished(UUID)
    }
  }

  enum CancelID {
    case observation, history
  }

  @Dependency(\.database) var database
  @Dependency(\.uuid) var uuid
  @Dependency(\.localizer) var localizer

  public init() {}

  private func observeHistory(_ id: UUID) -> Effect<Action> {
    .observe(database, localizer, id: CancelID.history, failed: Action.failed) { db in
      try db.history(ofIssue: id)
    } send: {
      .historyLoaded($0)
    }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      let id = state.issue.id
      return .merge(
        .observe(database, localizer, id: CancelID.observation, failed: Action.failed) { db in
          DetailSnapshot(issue: try db.fetchIssue(id: id), tags: try db.fetchTags())
        } send: {
          .loaded($0.issue, $0.tags)
        },
        // Another issue's history, if one was shown, stops; this one's starts if it shows.
        state.historyShown ? observeHistory(id) : .cancel(id: CancelID.history))

    case .loaded(let issue, let tags):
      state.allTags = tags
      // A tag deleted elsewhere leaves the draft too.
      let existing = Set(tags.map(\.id))
      state.draft?.tags.removeAll { !existing.contains($0.id) }
      guard let issue else {
        return .merge(
          .cancel(id: CancelID.observation), .cancel(id: CancelID.history),
          .send(.delegate(.vanished(state.issue.id))))
      }
      state.issue = issue
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .saveFailed(let draft, let base, let stored, let message):
      state.issue = stored
      state.draft = draft
      state.editBase = base
      state.errorMessage = message
      return .none

    case .overwroteChangesMadeElsewhere:
      return .none

    case .editTapped:
      guard state.draft == nil else { return .none }
      state.draft = state.issue
      state.editBase = state.issue
      state.errorMessage = nil
      return .none

    case .titleChanged(let title):
      state.draft?.title = title
      return .none

    case .detailChanged(let detail):
      state.draft?.detail = detail
      return .none

    case .priorityChanged(let priority):
      state.draft?.priority = priority
      return .none

    case .completedToggled:
      state.draft?.completed.toggle()
      return .none

    case .tagToggled(let id):
      guard var draft = state.draft else { return .none }
      if let index = draft.tags.firstIndex(where: { $0.id == id }) {
        draft.tags.remove(at: index)
      } else if let tag = state.allTags.first(where: { $0.id == id }) {
        draft.tags.append(tag)
        draft.tags = NaturalOrder.sorted(draft.tags, by: \.name)
      }
      state.draft = draft
      return .none

    case .newTagTapped:
      guard state.isEditing else { return .none }
      state.newTagName = ""
      return .none

    case .newTagNameChanged(let name):
      guard state.newTagName != nil else { return .none }
      state.newTagName = name
      return .none

    case .newTagCancelled:
      state.newTagName = nil
      return .none

    case .newTagSubmitted:
      guard let typed = state.newTagName else { return .none }
      state.newTagName = nil
      guard let name = TagName.normalized(typed), state.draft != nil else { return .none }
      // A tag of that name (ignoring case) is assigned; otherwise one is created and assigned.
      if let existing = state.allTags.first(where: { TagName.key($0.name) == TagName.key(name) }) {
        if state.draft?.tags.contains(existing) == false { assign(existing, to: &state) }
        return .none
      }
      let tag = Tag(id: uuid(), name: name)
      state.allTags.append(tag)
      assign(tag, to: &state)
      return .merge(
        .send(.delegate(.tagCreated(tag))),
        .write(database, localizer, failed: Action.failed) {
          _ = try $0.createTag(named: tag.name, id: tag.id)
        })

    case .cancelTapped:
      if state.newTagName != nil {
        state.newTagName = nil
        return .none
      }
      if state.confirmingDelete {
        state.confirmingDelete = false
        return .none
      }
      guard state.isEditing else { return .none }
      state.draft = nil
      state.editBase = nil
      state.errorMessage = nil
      guard state.isNew else { return .none }
      let id = state.issue.id
      return .merge(
        .cancel(id: CancelID.observation),
        .send(.delegate(.discarded(id))),
        .write(database, localizer, failed: Action.failed) { _ = try $0.deleteIssues([id]) })

    case .saveTapped:
      guard var typed = state.draft else { return .none }
      let base = state.editBase ?? state.issue
      // A title typed is one line, and never empty: the form stays open and says so. A title
      // left as it was is not touched (one an older version or an import stored with spaces
      // around it stays as stored).
      if typed.title != base.title {
        typed.title = Limits.oneLine(typed.title).trimmingCharacters(in: .whitespaces)
        guard !typed.title.isEmpty else {
          state.errorMessage = localizer("error.title.empty")
          return .none
        }
      }
      let draft = typed
      state.draft = nil
      state.editBase = nil
      state.errorMessage = nil
      state.isNew = false
      // Only what this edit changed is written; nothing changed, nothing is written (a new issue
      // is already stored as it is).
      let edit = IssueEdit(from: base, to: draft)
      if edit.isEmpty { return .none }
      let stored = state.issue
      let saved = edit.applied(to: stored, tags: state.allTags)
      state.issue = saved
      return .merge(
        .send(.delegate(.saved(saved))),
        .write(
          database, { try $0.saveEdit(edit) },
          failed: { [localizer] error in
            .saveFailed(
              draft: draft, base: base, stored: stored, message: localizer.message(for: error))
          },
          done: { outcome in
            outcome.overwritten.isEmpty ? nil : .overwroteChangesMadeElsewhere(outcome.overwritten)
          }))

    case .toggleCompletedTapped:
      guard !state.isEditing else { return .none }
      state.issue.completed.toggle()
      let issue = state.issue
      return .merge(
        .send(.delegate(.completionChanged(issue))),
        .write(database, localizer, failed: Action.failed) {
          try $0.setCompleted(issue.completed, issueIDs: [issue.id])
        })

    case .deleteTapped:
      state.confirmingDelete = true
      return .none

    case .deleteCancelled:
      state.confirmingDelete = false
      return .none

    case .historyToggled:
      state.historyShown.toggle()
      guard state.historyShown else {
        state.history = []
        return .cancel(id: CancelID.history)
      }
      return observeHistory(state.issue.id)

    case .historyLoaded(let history):
      state.history = history
      return .none

    case .deleteConfirmed:
      guard state.confirmingDelete else { return .none }
      state.confirmingDelete = false
      let id = state.issue.id
      return .merge(
        .cancel(id: CancelID.observation),
        .send(.delegate(.deleted(id))),
        .write(database, localizer, failed: Action.failed) { _ = try $0.deleteIssues([id]) })

    case .delegate:
      return .none
    }
  }

  private func assign(_ tag: Tag, to state: inout State) {
    guard var draft = state.draft else { return }
    draft.tags.append(tag)
    draft.tags = NaturalOrder.sorted(draft.tags, by: \.name)
    state.draft = draft
  }
}

/// The issue and the tags, read together.
struct DetailSnapshot: Equatable, Sendable {
  var issue: Issue?
  var tags: [Tag]
}
