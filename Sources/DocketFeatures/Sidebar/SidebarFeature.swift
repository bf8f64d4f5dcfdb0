import Composable
import Database
import DocketCore
import Foundation

/// The filter pane: the smart filters and the tags with their counts, the show-completed switch,
/// the tag sort, and creating, renaming and deleting tags.
public struct SidebarFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var selection: IssueFilter
    public var showCompleted: Bool
    public var tagSort: TagSort
    public var counts = FilterCounts()
    /// Sorted by `tagSort`.
    public var tags: [TagSummary] = []
    /// The name prompt, while one is open.
    public var prompt: TagPrompt?
    /// The tag waiting for the user to confirm its deletion.
    public var confirmingDelete: Tag?
    /// A rename onto another tag's name, waiting for the user to confirm merging the two.
    public var confirmingMerge: TagMerge?
    public var errorMessage: String?

    public init(
      selection: IssueFilter = .open, showCompleted: Bool = false, tagSort: TagSort = .default
    ) {
      self.selection = selection
      self.showCompleted = showCompleted
      self.tagSort = tagSort
    }

    /// Whether the show-completed switch means anything for the selected filter: it does for
    /// Recent and the tags; Open and Completed are what their names say.
    public var offersShowCompleted: Bool {
      switch selection {
      case .recent, .tag: return true
      case .open, .completed, .all: return false
      }
    }

    /// The badge of a filter, following the show-completed switch where it applies.
    public func count(of filter: IssueFilter) -> Int {
      switch filter {
      case .open: return counts.open
      case .completed: return counts.completed
      case .recent: return counts.recent(showCompleted: showCompleted)
      case .all: return counts.open + counts.completed
      case .tag(let id):
        return tags.first { $0.id == id }?.visibleCount(showCompleted: showCompleted) ?? 0
      }
    }
  }

  /// Two tags to become one: `source`'s issues take `target`, and `source` goes.
  public struct TagMerge: Equatable, Sendable {
    public var source: Tag
    public var target: Tag

    public init(source: Tag, target: Tag) {
      self.source = source
      self.target = target
    }
  }

  /// A tag name being typed, for a new tag or a rename.
  public struct TagPrompt: Equatable, Sendable {
    public enum Purpose: Equatable, Sendable {
      case create
      case rename(Tag)
    }

    public var purpose: Purpose
    public var text: String
    public var errorMessage: String?

    public init(purpose: Purpose, text: String, errorMessage: String? = nil) {
      self.purpose = purpose
      self.text = text
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable {
    /// Starts observing counts and tags (the pane appeared).
    case task
    case loaded(FilterCounts, [TagSummary])
    /// A read or write failed; the message says why, in the user's language.
    case failed(String)
    case filterTapped(IssueFilter)
    case showCompletedToggled
    case tagSortChosen(TagSort.Field)
    case newTagTapped
    case renameTagTapped(Tag)
    case promptTextChanged(String)
    case promptSubmitted
    case promptCancelled
    case mergeConfirmed
    case mergeCancelled
    case deleteTagTapped(Tag)
    case deleteConfirmed
    case deleteCancelled
    case awardsTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case filterChanged(IssueFilter)
      case showCompletedChanged(Bool)
      case tagCreated(Tag)
      case tagRenamed(Tag)
      case tagsMerged(source: Tag, into: Tag)
      case tagDeleted(UUID)
      case awardsRequested
    }
  }

  enum CancelID { case observation }

  @Dependency(\.database) var database
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
  @Dependency(\.localizer) var localizer

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      let date = self.date
      return .observe(database, localizer, id: CancelID.observation, failed: Action.failed) { db in
        Snapshot(counts: try db.filterCounts(now: date.now), tags: try db.tagSummaries())
      } send: {
        .loaded($0.counts, $0.tags)
      }

    case .loaded(let counts, let tags):
      state.counts = counts
      state.tags = state.tagSort.sorted(tags, showCompleted: state.showCompleted)
      state.errorMessage = nil
      return .none

    case .failed(let message):
      state.errorMessage = message
      return .none

    case .filterTapped(let filter):
      guard filter != state.selection else { return .none }
      state.selection = filter
      return .merge(
        .send(.delegate(.filterChanged(filter))),
        saveSettings { $0.lastFilter = filter })

    case .showCompletedToggled:
      guard state.offersShowCompleted else { return .none }
      state.showCompleted.toggle()
      state.tags = state.tagSort.sorted(state.tags, showCompleted: state.showCompleted)
      let show = state.showCompleted
      return .merge(
        .send(.delegate(.showCompletedChanged(show))),
        saveSettings { $0.showCompleted = show })

    case .tagSortChosen(let field):
      state.tagSort = state.tagSort.choosing(field)
      state.tags = state.tagSort.sorted(state.tags, showCompleted: state.showCompleted)
      let sort = state.tagSort
      return saveSettings { $0.tagSort = sort }

    case .newTagTapped:
      state.prompt = TagPrompt(purpose: .create, text: "")
      return .none

    case .renameTagTapped(let tag):
      state.prompt = TagPrompt(purpose: .rename(tag), text: tag.name)
      return .none

    case .promptTextChanged(let text):
      state.prompt?.text = text
      state.prompt?.errorMessage = nil
      return .none

    case .promptSubmitted:
      guard let prompt = state.prompt else { return .none }
      // A blank name is ignored: the prompt closes and nothing is written.
      guard let name = TagName.normalized(prompt.text) else {
        state.prompt = nil
        return .none
      }
      let existing = state.tags.first { TagName.key($0.tag.name) == TagName.key(name) }?.tag
      switch prompt.purpose {
      case .create:
        state.prompt = nil
        // A name that exists already is that tag: nothing to create.
        guard existing == nil else { return .none }
        let tag = Tag(id: uuid(), name: name)
        return .merge(
          .send(.delegate(.tagCreated(tag))),
          write { _ = try $0.createTag(named: tag.name, id: tag.id) })
      case .rename(let tag):
        if let existing, existing.id != tag.id {
          // Onto another tag's name: the user is asked whether to merge the two.
          state.prompt = nil
          state.confirmingMerge = TagMerge(source: tag, target: existing)
          return .none
        }
        state.prompt = nil
        guard name != tag.name else { return .none }
        let renamed = Tag(id: tag.id, name: name)
        return .merge(
          .send(.delegate(.tagRenamed(renamed))),
          write { try $0.renameTag(id: tag.id, to: name) })
      }

    case .promptCancelled:
      state.prompt = nil
      return .none

    case .mergeConfirmed:
      guard let merge = state.confirmingMerge else { return .none }
      state.confirmingMerge = nil
      return .merge(
        .send(.delegate(.tagsMerged(source: merge.source, into: merge.target))),
        write { try $0.mergeTag(id: merge.source.id, into: merge.target.id) })

    case .mergeCancelled:
      state.confirmingMerge = nil
      return .none

    case .deleteTagTapped(let tag):
      state.confirmingDelete = tag
      return .none

    case .deleteConfirmed:
      guard let tag = state.confirmingDelete else { return .none }
      state.confirmingDelete = nil
      return .merge(
        .send(.delegate(.tagDeleted(tag.id))),
        write { try $0.deleteTag(id: tag.id) })

    case .deleteCancelled:
      state.confirmingDelete = nil
      return .none

    case .awardsTapped:
      return .send(.delegate(.awardsRequested))

    case .delegate:
      return .none
    }
  }

  /// Stores a change to the device settings (sorts and switches are remembered).
  private func saveSettings(_ change: @escaping @Sendable (inout DeviceSettings) -> Void) -> Effect<
    Action
  > {
    write { db in try db.updateSettings(change) }
  }

  private func write(_ body: @escaping @Sendable (Connection) throws -> Void) -> Effect<Action> {
    .write(database, localizer, failed: Action.failed, body)
  }
}

/// Counts and tags read together, so one observation delivers both.
struct Snapshot: Equatable, Sendable {
  var counts: FilterCounts
  var tags: [TagSummary]
}
