import Composable
import DocketCore
import DocketFeatures
import Terminal

/// What each command of the key table does (`KeyTable`).
extension ScreenFeature {
  func perform(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    switch command {
    case .quit:
      state.wantsQuit = true
    case .help:
      state.mode = .help
    case .nextPane:
      moveFocus(by: 1, &state)
    case .previousPane:
      moveFocus(by: -1, &state)
    case .search:
      state.focus = .list
      state.mode = .typing(.search)
      state.field = TextField(state.app.list.search.text)
    case .newIssue:
      return .send(.app(.list(.newIssueTapped)))
    case .awards:
      return .send(.app(.sidebar(.awardsTapped)))
    case .recentlyDeleted:
      return .send(.app(.deletedRequested))
    case .conflicts:
      // From an issue's detail, that issue's; elsewhere every issue's.
      let issue = state.focus == .detail ? state.app.detail?.issue.id : nil
      return .send(.app(.conflictsRequested(issue: issue)))
    case .undo:
      return .send(.app(.undoRequested(redo: false)))
    case .redo:
      return .send(.app(.undoRequested(redo: true)))
    case .showCompleted:
      guard state.app.sidebar.offersShowCompleted else {
        state.announcement = localizer("tui.showCompleted.notHere")
        return .none
      }
      return .send(.app(.sidebar(.showCompletedToggled)))
    case .sync:
      // A remote still waiting for its passphrase asks for it again at once; the sync runs too,
      // and opens the remote if the passphrase was given elsewhere meanwhile.
      state.passphrasePutOff = false
      state.announcesSync = true
      return .send(.app(.sync(.syncTapped)))
    case .history:
      guard state.app.detail != nil else {
        state.announcement = localizer("tui.history.noIssue")
        return .none
      }
      return .send(.app(.detail(.historyToggled)))
    case .back:
      // Back: from the detail or the filters to the list (on one pane, as on a phone).
      if state.focus != .list { state.focus = .list }
    case .suspend, .redraw:
      // The terminal's own business: the app that owns it does these (`TerminalApp`).
      break
    case .externalEditor:
      guard let detail = state.app.detail, !state.isInExternalEditor else { return .none }
      state.isInExternalEditor = true
      let original = detail.draft?.detail ?? detail.issue.detail
      let issue = detail.issue.id
      let editor = externalEditor
      return .run { send in
        let edited = await editor.edit(original)
        await send(.editorFinished(edited, original: original, issue: issue))
      }
    case .filterDown, .filterUp, .chooseFilter, .tagSortMenu, .newTag, .renameTag, .deleteTag:
      return performInFilters(command, &state)
    case .issueDown, .issueUp, .pageDown, .pageUp, .firstIssue, .lastIssue:
      return moveInList(command, &state)
    case .openIssue:
      guard state.app.detail != nil else { return .none }
      state.focus = .detail
    case .toggleCompleted:
      guard state.app.detail != nil else { return .none }
      return .send(.app(.detail(.toggleCompletedTapped)))
    case .deleteIssue:
      if state.focus == .detail { return .send(.app(.detail(.deleteTapped))) }
      return .send(.app(.list(.deleteTapped)))
    case .editIssue:
      guard state.app.detail != nil else { return .none }
      state.focus = .detail
      state.editField = .title
      return .send(.app(.detail(.editTapped)))
    case .sortMenu:
      state.mode = .sortMenu
    case .showFilters:
      if state.paneCount < 3 { state.focus = .filters }
    case .helpLineDown, .helpLineUp, .helpPageDown, .helpPageUp, .closeHelp, .awardLeft,
      .awardRight, .awardUp, .awardDown, .closeAwards, .deletedUp, .deletedDown,
      .restoreDeleted, .purgeDeleted, .closeDeleted, .conflictUp, .conflictDown, .useConflict,
      .dismissConflict, .closeConflicts, .confirmYes, .confirmNo, .sortByPriority,
      .sortByDate, .sortByTitle, .tagSortByName, .tagSortByCount, .closeMenu:
      return performInOverlay(command, &state)
    case .saveForm, .cancelForm, .nextField, .previousField, .editFieldOrSave, .priorityLower,
      .priorityHigher, .priorityLow, .priorityMedium, .priorityHigh, .toggleFormCompleted,
      .previousTag, .nextTag, .toggleTag, .newTagInForm, .leaveTextField, .returnToPreviousField:
      return performInForm(command, &state)
    case .acceptInput, .cancelInput, .suggestionDown, .suggestionUp, .chooseSuggestion:
      return performInInput(command, &state)
    }
    return .none
  }

  private func moveFocus(by step: Int, _ state: inout State) {
    var panes = Pane.allCases
    if state.app.detail == nil { panes.removeAll { $0 == .detail } }
    let index = panes.firstIndex(of: state.focus) ?? 0
    state.focus = panes[(index + step + panes.count) % panes.count]
  }

  private func performInFilters(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    let filters = state.sidebarFilters
    let highlightedTag = state.highlightedTag
    switch command {
    case .filterDown:
      state.sidebarRow = min(state.sidebarRow + 1, filters.count - 1)
    case .filterUp:
      state.sidebarRow = max(state.sidebarRow - 1, 0)
    case .chooseFilter:
      guard filters.indices.contains(state.sidebarRow) else { return .none }
      if state.paneCount < 3 { state.focus = .list }
      return .send(.app(.sidebar(.filterTapped(filters[state.sidebarRow]))))
    case .tagSortMenu:
      state.mode = .tagSortMenu
    case .newTag:
      state.mode = .typing(.tagName)
      state.field = TextField()
      return .send(.app(.sidebar(.newTagTapped)))
    case .renameTag:
      guard let tag = highlightedTag else { return .none }
      state.mode = .typing(.tagName)
      state.field = TextField(tag.name)
      return .send(.app(.sidebar(.renameTagTapped(tag))))
    case .deleteTag:
      guard let tag = highlightedTag else { return .none }
      return .send(.app(.sidebar(.deleteTagTapped(tag))))
    default:
      break
    }
    return .none
  }

  /// Moves the selection of the list (from the detail too, which gives the list the keyboard).
  private func moveInList(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    state.focus = .list
    let issues = state.app.list.issues
    guard !issues.isEmpty else { return .none }
    let current = issues.firstIndex { $0.id == state.app.list.selection }
    let page = max(1, ScreenLayout(state).listRows(state)?.height ?? state.rows - 6)
    let base = current ?? 0
    let target: Int
    switch command {
    case .issueDown: target = current.map { min($0 + 1, issues.count - 1) } ?? 0
    case .issueUp: target = current.map { max($0 - 1, 0) } ?? 0
    case .pageDown: target = min(base + page, issues.count - 1)
    case .pageUp: target = max(base - page, 0)
    case .firstIssue: target = 0
    default: target = issues.count - 1
    }
    let tapped = Effect<Action>.send(.app(.list(.issueTapped(issues[target].id))))
    // Reaching the last loaded issue with a key loads the next page.
    if command == .issueDown, target == issues.count - 1, issues.count < state.app.list.total {
      return .merge(tapped, .send(.app(.list(.loadMore))))
    }
    return tapped
  }
}
