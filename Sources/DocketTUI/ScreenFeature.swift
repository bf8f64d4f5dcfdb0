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
    /// The passphrase of an encrypted remote, shown as dots.
    case passphrase
  }

  /// What has the keys besides the panes and the features' own modes (the awards, a question,
  /// the edit form): one at a time, so that no two can be open at once.
  public enum Mode: Equatable, Sendable {
    case browsing
    case help
    /// The list's sort menu.
    case sortMenu
    /// The filter pane's tag sort menu: name or count, the current one again flips it.
    case tagSortMenu
    case typing(Input)
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
    public var mode: Mode = .browsing
    /// The person's editor has the detail: another `E` waits until it is back.
    public var isInExternalEditor = false
    /// How far the help is scrolled, in lines.
    public var helpScroll = 0
    /// What the keys type into, while they type.
    public var input: Input? {
      if case .typing(let input) = mode { return input }
      return nil
    }
    /// The text of the input being typed, with its cursor.
    public var field = TextField()
    /// The passphrase prompt was closed with Esc: it opens again with `S`.
    public var passphrasePutOff = false

    /// Something over the panes, or a question, has the keys: a prompt does not open over it.
    var hasOverlayOrQuestion: Bool {
      app.awards != nil || app.deleted != nil || app.conflicts != nil
        || app.sidebar.prompt != nil || app.sidebar.confirmingDelete != nil
        || app.sidebar.confirmingMerge != nil || app.detail?.confirmingDelete == true
        || app.detail?.isEditing == true
    }
    /// The detail being typed in the edit form (several lines).
    public var area = TextArea()
    public var editField: EditField = .title
    /// The highlighted row of the filter pane: the smart filters, then the tags.
    public var sidebarRow = 0
    /// The windows of the list and of the filter pane's tags (which rows show).
    public var listScroll = ScrollState()
    public var tagScroll = ScrollState()
    public var awardScroll = ScrollState()
    public var tagChip = 0
    /// The last thing that happened, in words (screen readers read the status line).
    public var announcement: String?
    public var screenReader: Bool
    public var wantsQuit = false
    /// `q` was pressed while the editor had the detail: quit once its result is in.
    public var quitsWhenEditorReturns = false
    /// `S` was pressed: the sync's result is said when it comes (a sync that runs by itself,
    /// every minute, is not).
    public var announcesSync = false

    public init(app: AppFeature.State, columns: Int, rows: Int, screenReader: Bool = false) {
      self.app = app
      self.columns = columns
      self.rows = rows
      self.screenReader = screenReader
    }

    /// How many panes show: three from 120 columns, two from 80, else one; one at a time for a
    /// screen reader, which reads line by line.
    public var paneCount: Int { screenReader ? 1 : columns >= 120 ? 3 : columns >= 80 ? 2 : 1 }

    /// The filters above the tags in the filter pane.
    static let smartFilters: [IssueFilter] = [.open, .completed, .recent]

    /// The filters in the order the filter pane lists them.
    public var sidebarFilters: [IssueFilter] {
      Self.smartFilters + app.sidebar.tags.map { .tag($0.tag.id) }
    }

    /// The tag of the filter pane's highlighted row, when it is a tag.
    var highlightedTag: Tag? {
      let index = sidebarRow - Self.smartFilters.count
      return app.sidebar.tags.indices.contains(index) ? app.sidebar.tags[index].tag : nil
    }

    /// Moves the list's and the tags' windows the least that keeps the selection in view (after
    /// every action: a new page, a resize, a moved selection).
    mutating func keepSelectionsInView() {
      let layout = ScreenLayout(self)
      if let rows = layout.listRows(self) {
        let selected = app.list.issues.firstIndex { $0.id == app.list.selection }
        listScroll.reveal(selected, height: rows.height, count: app.list.issues.count)
      }
      if let awards = app.awards {
        let columns = ScreenLayout.awardColumns(width: columns)
        awardScroll.reveal(
          awards.selected / columns,
          height: ScreenLayout.awardGridHeight(layout.awardsInner(self)),
          count: (awards.awards.count + columns - 1) / columns)
      }
      if let tags = layout.tagRows(self) {
        let highlighted = sidebarRow - Self.smartFilters.count
        tagScroll.reveal(
          highlighted >= 0 ? highlighted : nil, height: tags.room, count: app.sidebar.tags.count)
      }
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
        // The help may be shorter at the new size: it stays within its last page.
        state.helpScroll = min(state.helpScroll, state.helpScrollLimit(localizer))
        return .none
      case .key(let key):
        return handle(key, &state)
      case .editorFinished(let edited, let original, let issue):
        state.isInExternalEditor = false
        let announcement = state.announcement
        // A quit asked for while the editor ran comes after its result is in.
        defer { if state.quitsWhenEditorReturns { state.wantsQuit = true } }
        // A changed detail is put in the form and saved, or left in the form being edited; only
        // into the issue it came from (the selection may have moved meanwhile).
        guard let edited, edited != original, let detail = state.app.detail,
          detail.issue.id == issue
        else { return .none }
        // Applied here and now, in one step: the save's write is queued before anything else
        // (a quit) can happen.
        var steps: [DetailFeature.Action] = [.detailChanged(edited)]
        if !detail.isEditing { steps = [.editTapped] + steps + [.saveTapped] }
        let effects = steps.map { reduce(into: &state, action: .app(.detail($0))) }
        // The form's text area, if open, shows the editor's text.
        if state.input == .detail { state.area = TextArea(edited) }
        // The save says itself when it lands; the steps on the way say nothing.
        state.announcement = announcement
        return .merge(effects)
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
    Reduce { state, _ in
      state.keepSelectionsInView()
      return .none
    }
  }

  // MARK: Keys

  func handle(_ key: Key, _ state: inout State) -> Effect<Action> {
    if state.isInExternalEditor {
      // The editor's text is on its way: keys wait for it, but a quit is kept for after.
      if KeyTable.command(for: key, in: [.everywhere], language: localizer.language) == .quit {
        state.quitsWhenEditorReturns = true
      }
      return .none
    }
    // What the status line said was about the last action: the next one clears it (and says
    // its own, if it has something to say). A question stays said until it is answered.
    if state.app.detail?.confirmingDelete != true { state.announcement = nil }
    if case .mouse(let event) = key { return mouse(event, &state) }
    if let command = KeyTable.command(
      for: key, in: state.keyScopes, language: localizer.language)
    {
      return perform(command, &state)
    }
    // What the table leaves is text: typed into the input, or into the form's text field under
    // the cursor (typing there starts editing it).
    if let input = state.input { return type(key, into: input, &state) }
    if state.app.detail?.isEditing == true { return startTyping(key, &state) }
    return .none
  }

  // MARK: Following the features

  /// Keeps the screen's own state true to the features' (a prompt that closed, a detail that
  /// went away).
  private func followApp(_ state: inout State) {
    if state.input == .tagName, state.app.sidebar.prompt == nil { state.mode = .browsing }
    if state.input == .newTagName, state.app.detail?.newTagName == nil { state.mode = .browsing }
    // A name refused (taken, empty) keeps its prompt open, and the keyboard with it.
    if state.input == nil, let prompt = state.app.sidebar.prompt {
      state.mode = .typing(.tagName)
      state.field = TextField(prompt.text)
    }
    if state.input == nil, let name = state.app.detail?.newTagName {
      state.mode = .typing(.newTagName)
      state.field = TextField(name)
    }
    if state.input == .title || state.input == .detail, state.app.detail?.isEditing != true {
      state.mode = .browsing
    }
    if state.app.detail == nil, state.focus == .detail { state.focus = .list }
    // An encrypted remote this device has no key for asks for its passphrase, once: Esc puts
    // it off until `S`.
    let sync = state.app.sync
    if state.input == .passphrase, !sync.needsPassphrase {
      state.mode = .browsing
      state.field = TextField()
    }
    if sync.needsPassphrase, !state.passphrasePutOff, state.mode == .browsing,
      !state.hasOverlayOrQuestion
    {
      state.mode = .typing(.passphrase)
      state.field = TextField()
    }
    state.sidebarRow = min(state.sidebarRow, max(0, state.sidebarFilters.count - 1))
  }
}
