import Composable
import DocketCore
import DocketFeatures
import Foundation
import Terminal

/// The terminal app's own state over Docket's features: the screen's size, which pane has the
/// keyboard, the help overlay, the text being typed, announcements. Keys become the features'
/// actions here; drawing is `ScreenView`, a function of this state.
public struct ScreenFeature: Reducer {
  public enum Pane: Equatable, Sendable, CaseIterable {
    case filters, list, detail
  }

  /// What a key types into, when it types.
  public enum Input: Equatable, Sendable {
    case search
    case tagName
    case newTagName
    case title
    case detail
  }

  /// The fields of the edit form, in Tab order.
  public enum EditField: Equatable, Sendable, CaseIterable {
    case title, priority, completed, tags, detail
  }

  public struct State: Equatable, Sendable {
    public var app: AppFeature.State
    public var columns: Int
    public var rows: Int
    public var focus: Pane = .list
    public var helpShown = false
    /// The person's editor has the detail: another `E` waits until it is back.
    public var isInExternalEditor = false
    /// How far the help is scrolled, in lines.
    public var helpScroll = 0
    public var input: Input?
    /// The text of the input being typed, with its cursor.
    public var field = TextField()
    /// The detail being typed in the edit form (several lines).
    public var area = TextArea()
    public var editField: EditField = .title
    /// The highlighted row of the filter pane: the smart filters, then the tags.
    public var sidebarRow = 0
    public var tagChip = 0
    public var isSortMenuShown = false
    /// The filter pane's tag sort menu: name or count, the current one again flips it.
    public var isTagSortMenuShown = false
    /// The last thing that happened, in words (screen readers read the status line).
    public var announcement: String?
    public var screenReader: Bool
    public var wantsQuit = false

    public init(app: AppFeature.State, columns: Int, rows: Int, screenReader: Bool = false) {
      self.app = app
      self.columns = columns
      self.rows = rows
      self.screenReader = screenReader
    }

    /// How many panes show: three from 120 columns, two from 80, else one; one at a time for a
    /// screen reader, which reads line by line.
    public var paneCount: Int { screenReader ? 1 : columns >= 120 ? 3 : columns >= 80 ? 2 : 1 }

    /// The filters in the order the filter pane lists them.
    public var sidebarFilters: [IssueFilter] {
      [.open, .completed, .recent] + app.sidebar.tags.map { .tag($0.tag.id) }
    }
  }

  public enum Action: Equatable, Sendable {
    case app(AppFeature.Action)
    case key(Key)
    case resized(columns: Int, rows: Int)
    /// The editor ended: the detail of `issue` as edited (nil when it did not end well), and as
    /// it was.
    case editorFinished(String?, original: String, issue: UUID)

    static let appCase = ActionCase(embed: Action.app) {
      if case .app(let action) = $0 { action } else { nil }
    }
  }

  @Dependency(\.localizer) var localizer
  @Dependency(\.externalEditor) var externalEditor

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.app, action: Action.appCase) { AppFeature() }
    Reduce { state, action in
      switch action {
      case .resized(let columns, let rows):
        state.columns = columns
        state.rows = rows
        return .none
      case .key(let key):
        return handle(key, &state)
      case .editorFinished(let edited, let original, let issue):
        state.isInExternalEditor = false
        // A changed detail is put in the form and saved, or left in the form being edited; only
        // into the issue it came from (the selection may have moved meanwhile).
        guard let edited, edited != original, let detail = state.app.detail,
          detail.issue.id == issue
        else { return .none }
        let changed = Effect<Action>.send(.app(.detail(.detailChanged(edited))))
        if detail.isEditing { return changed }
        return .concatenate(
          .send(.app(.detail(.editTapped))), changed, .send(.app(.detail(.saveTapped))))
      case .app(let appAction):
        announce(appAction, &state)
        if case .list(.delegate(.newIssueRequested)) = appAction, state.app.detail?.isNew == true {
          // The root has made the new issue: its form has the keyboard, at the title.
          state.focus = .detail
          state.editField = .title
        }
        followApp(&state)
        return .none
      }
    }
  }

  // MARK: Keys

  func handle(_ key: Key, _ state: inout State) -> Effect<Action> {
    if case .mouse(let event) = key { return mouse(event, &state) }
    if state.helpShown {
      // ↑ ↓ and the page keys scroll a help longer than the screen; any other key closes it.
      let lines = ScreenView.helpLines(l10n: localizer, columns: state.columns).count
      let page = ScreenView.helpHeight(rows: state.rows, screenReader: state.screenReader)
      let most = max(0, lines - page)
      switch key {
      case .down, .character("j"): state.helpScroll = min(state.helpScroll + 1, most)
      case .up, .character("k"): state.helpScroll = max(state.helpScroll - 1, 0)
      case .pageDown: state.helpScroll = min(state.helpScroll + page, most)
      case .pageUp: state.helpScroll = max(state.helpScroll - page, 0)
      default:
        state.helpShown = false
        state.helpScroll = 0
      }
      return .none
    }
    if state.app.awards != nil {
      // Arrows (and h j k l) move through the grid; Esc, q, a and Enter close it.
      let columns = ScreenView.awardColumns(width: state.columns)
      switch key {
      case .escape, .character("q"), .character("a"), .enter:
        return .send(.app(.awards(.closeTapped)))
      case .left, .character("h"): return .send(.app(.awards(.selectionMoved(by: -1))))
      case .right, .character("l"): return .send(.app(.awards(.selectionMoved(by: 1))))
      case .up, .character("k"): return .send(.app(.awards(.selectionMoved(by: -columns))))
      case .down, .character("j"): return .send(.app(.awards(.selectionMoved(by: columns))))
      default: return .none
      }
    }
    if state.app.sidebar.confirmingDelete != nil {
      return confirm(
        key, yes: .app(.sidebar(.deleteConfirmed)), no: .app(.sidebar(.deleteCancelled)))
    }
    if state.app.detail?.confirmingDelete == true {
      return confirm(key, yes: .app(.detail(.deleteConfirmed)), no: .app(.detail(.deleteCancelled)))
    }
    if let input = state.input { return type(key, into: input, &state) }
    if state.isSortMenuShown { return chooseSort(key, &state) }
    if state.isTagSortMenuShown { return chooseTagSort(key, &state) }
    if state.app.detail?.isEditing == true {
      // The detail may be written in the editor from the form too; what it gives stays in the
      // form, to be saved with the rest.
      if key == .character("E"), state.editField == .detail {
        return perform(.externalEditor, &state)
      }
      return editForm(key, &state)
    }

    guard let command = KeyTable.command(for: key, focus: state.focus) else { return .none }
    return perform(command, &state)
  }

  private func confirm(_ key: Key, yes: Action, no: Action) -> Effect<Action> {
    switch key {
    case .character("y"), .character("j"), .enter: return .send(yes)
    case .character("n"), .escape, .character("q"): return .send(no)
    default: return .none
    }
  }

  /// `n` name, `c` count; the field already in use flips its direction.
  private func chooseTagSort(_ key: Key, _ state: inout State) -> Effect<Action> {
    state.isTagSortMenuShown = false
    switch key {
    case .character("n"): return .send(.app(.sidebar(.tagSortChosen(.name))))
    case .character("c"): return .send(.app(.sidebar(.tagSortChosen(.count))))
    default: return .none
    }
  }

  private func chooseSort(_ key: Key, _ state: inout State) -> Effect<Action> {
    state.isSortMenuShown = false
    switch key {
    case .character("p"): return .send(.app(.list(.sortChosen(.priority))))
    case .character("d"): return .send(.app(.list(.sortChosen(.date))))
    case .character("t"): return .send(.app(.list(.sortChosen(.title))))
    default: return .none
    }
  }

  // MARK: Following the features

  /// Keeps the screen's own state true to the features' (a prompt that closed, a detail that
  /// went away).
  private func followApp(_ state: inout State) {
    if state.input == .tagName, state.app.sidebar.prompt == nil { state.input = nil }
    if state.input == .newTagName, state.app.detail?.newTagName == nil { state.input = nil }
    if state.input == .title || state.input == .detail, state.app.detail?.isEditing != true {
      state.input = nil
    }
    if state.app.detail == nil, state.focus == .detail { state.focus = .list }
    state.sidebarRow = min(state.sidebarRow, max(0, state.sidebarFilters.count - 1))
  }

  /// Every change a person makes is said in words on the status line.
  private func announce(_ action: AppFeature.Action, _ state: inout State) {
    switch action {
    case .detail(.delegate(.completionChanged(let issue))):
      state.announcement = localizer(
        issue.completed ? "tui.announce.closed" : "tui.announce.reopened", .string(issue.title))
    case .detail(.delegate(.deleted)):
      state.announcement = localizer("tui.announce.deleted")
    case .detail(.delegate(.saved(let issue))):
      state.announcement = localizer("tui.announce.saved", .string(issue.title))
    case .detail(.delegate(.discarded)):
      state.announcement = localizer("tui.announce.discarded")
    case .detail(.overwroteChangesMadeElsewhere(let fields)):
      let names = fields.map { localizer($0.nameKey) }.joined(separator: ", ")
      state.announcement = localizer("tui.announce.overwritten", .string(names))
    case .sidebar(.delegate(.tagCreated(let tag))), .detail(.delegate(.tagCreated(let tag))):
      state.announcement = localizer("tui.announce.tagCreated", .string(tag.name))
    case .sidebar(.delegate(.tagDeleted)):
      state.announcement = localizer("tui.announce.tagDeleted")
    case .sidebar(.delegate(.filterChanged)):
      state.announcement = nil
    case .list(.failed(let message)), .sidebar(.failed(let message)), .detail(.failed(let message)):
      state.announcement = message
    default:
      break
    }
  }
}
