import Composable
import DocketFeatures
import Terminal

/// The mouse: a click selects what it lands on (a filter, an issue, the show-completed switch,
/// the search line, a pane), a click on the selected issue opens it, and the wheel moves through
/// the pane under the pointer. Everything a click does, a key does too.
extension ScreenFeature {
  /// Rows the wheel moves at a notch.
  static let wheelStep = 3

  func mouse(_ event: MouseEvent, _ state: inout State) -> Effect<Action> {
    // A click closes the help, as any key does; other overlays, prompts and the edit form take
    // only keys.
    if state.mode == .help {
      if case .press = event.kind {
        state.mode = .browsing
        state.helpScroll = 0
      }
      return .none
    }
    guard state.app.awards == nil, state.app.deleted == nil, state.app.conflicts == nil,
      state.app.sidebar.confirmingDelete == nil,
      state.app.sidebar.confirmingMerge == nil,
      state.app.detail?.confirmingDelete != true, state.mode == .browsing,
      state.app.detail?.isEditing != true
    else { return .none }
    let layout = ScreenLayout(state)
    guard let target = layout.target(x: event.x, y: event.y, state: state) else { return .none }
    switch event.kind {
    case .wheelUp, .wheelDown:
      let step = event.kind == .wheelDown ? Self.wheelStep : -Self.wheelStep
      switch target {
      case .filter, .showCompleted, .pane(.filters):
        // The filter pane takes the focus, so its highlight shows where the wheel moves it.
        let filters = state.sidebarFilters
        state.focus = .filters
        state.sidebarRow = min(max(state.sidebarRow + step, 0), max(filters.count - 1, 0))
        return .none
      case .pane(.detail):
        // The detail does not scroll, and the wheel does not change the issue being read.
        return .none
      default:
        return moveSelection(by: step, &state)
      }
    case .press(button: 0):
      return click(target, &state)
    case .press, .release:
      return .none
    }
  }

  private func click(_ target: ScreenLayout.Target, _ state: inout State) -> Effect<Action> {
    switch target {
    case .filter(let row):
      guard state.sidebarFilters.indices.contains(row) else { return .none }
      state.focus = .filters
      state.sidebarRow = row
      return perform(.chooseFilter, &state)
    case .showCompleted:
      return .send(.app(.sidebar(.showCompletedToggled)))
    case .search:
      return handle(.character("/"), &state)
    case .issue(let index):
      let issues = state.app.list.issues
      guard issues.indices.contains(index) else { return .none }
      if issues[index].id == state.app.list.selection, state.app.detail != nil {
        state.focus = .detail
        return .none
      }
      state.focus = .list
      return select(index, &state)
    case .pane(let pane):
      state.focus = pane == .detail && state.app.detail == nil ? .list : pane
      return .none
    }
  }

  /// Moves the list's selection by `delta` rows, loading more when it reaches the last loaded.
  private func moveSelection(by delta: Int, _ state: inout State) -> Effect<Action> {
    let list = state.app.list
    guard !list.issues.isEmpty else { return .none }
    // Without a selection the wheel starts at the top.
    guard let current = list.issues.firstIndex(where: { $0.id == list.selection }) else {
      return select(0, &state)
    }
    return select(min(max(current + delta, 0), list.issues.count - 1), &state)
  }

  private func select(_ index: Int, _ state: inout State) -> Effect<Action> {
    let list = state.app.list
    let tapped = Effect<Action>.send(.app(.list(.issueTapped(list.issues[index].id))))
    if index == list.issues.count - 1, list.issues.count < list.total {
      return .merge(tapped, .send(.app(.list(.loadMore))))
    }
    return tapped
  }
}
