import DocketFeatures
import Terminal

/// Where each part of the screen is, from the screen's size and state alone: the view draws
/// there, and a click is told what it hit from the same places.
struct ScreenLayout: Equatable {
  var title: Rect
  var body: Rect
  var status: Rect
  var hints: Rect
  /// The panes shown, left to right, each with its whole rectangle (frame included).
  var panes: [Pane]

  struct Pane: Equatable {
    var pane: ScreenFeature.Pane
    var rect: Rect
  }

  init(_ state: ScreenFeature.State) {
    let screen = Rect(x: 0, y: 0, width: state.columns, height: state.rows)
    let rows = Layout.split(screen, .vertical, [.fixed(1), .weight(1), .fixed(1), .fixed(1)])
    (title, body, status, hints) = (rows[0], rows[1], rows[2], rows[3])
    let shown = Self.visiblePanes(state)
    let sizes: [LayoutSize] = shown.map { pane in
      switch pane {
      case .filters:
        return shown.count == 1 ? .weight(1) : .fixed(min(30, max(22, state.columns / 5)))
      case .list: return .weight(3)
      case .detail: return .weight(2)
      }
    }
    panes = zip(shown, Layout.split(body, .horizontal, sizes)).map { Pane(pane: $0, rect: $1) }
  }

  /// Which panes show: all three from 120 columns; from 80 two (the filter pane folds away and
  /// comes back when it has the focus); below 80 the one with the focus. A screen reader reads
  /// line by line, so it gets one pane at a time (Tab moves filter → list → detail).
  static func visiblePanes(_ state: ScreenFeature.State) -> [ScreenFeature.Pane] {
    let focused: ScreenFeature.Pane =
      state.focus == .detail && state.app.detail == nil ? .list : state.focus
    if state.screenReader { return [focused] }
    switch state.paneCount {
    case 3: return [.filters, .list, .detail]
    case 2: return state.focus == .filters ? [.filters, .list] : [.list, .detail]
    default: return [focused]
    }
  }

  /// The area inside a pane's frame (or under its heading, for screen readers).
  static func inner(_ rect: Rect, screenReader: Bool) -> Rect {
    screenReader
      ? Rect(x: rect.x, y: rect.y + 1, width: rect.width - 1, height: rect.height - 1)
      : rect.inset(by: 1)
  }

  /// How many help lines show at once on this screen: the rows between the title bar and the
  /// status and hint bars, less the frame (a heading only, for screen readers).
  static func helpHeight(rows: Int, screenReader: Bool = false) -> Int {
    max(1, rows - 3 - (screenReader ? 1 : 2))
  }

  /// The width of a badge in the awards grid, and how many fit side by side.
  static let awardWidth = 20
  static func awardColumns(width: Int) -> Int { max(1, (width - 4) / awardWidth) }

  /// The rows of badges the awards show inside `inner`: all but the selected award's three lines
  /// and a blank one above them.
  static func awardGridHeight(_ inner: Rect) -> Int { max(1, inner.height - 4) }

  /// The awards' area inside their frame (they cover the body).
  func awardsInner(_ state: ScreenFeature.State) -> Rect {
    Self.inner(body, screenReader: state.screenReader)
  }

  /// The rows of issues of the list pane, where it shows.
  func listRows(_ state: ScreenFeature.State) -> Rect? {
    guard let list = panes.first(where: { $0.pane == .list }) else { return nil }
    return Self.listRows(Self.inner(list.rect, screenReader: state.screenReader), state)
  }

  /// The rows of tags of the filter pane, where it shows.
  func tagRows(_ state: ScreenFeature.State) -> (top: Int, room: Int)? {
    guard let filters = panes.first(where: { $0.pane == .filters }) else { return nil }
    return Self.tagRows(Self.inner(filters.rect, screenReader: state.screenReader), state)
  }

  /// Where the issue rows of the list pane start: under the search line, and under the search's
  /// error when there is one.
  static func listRows(_ inner: Rect, _ state: ScreenFeature.State) -> Rect {
    let top = inner.y + 1 + searchErrorLines(state.app.list.searchError, width: inner.width).count
    return Rect(x: inner.x, y: top, width: inner.width, height: max(0, inner.maxY - top))
  }

  /// The search's error, wrapped to the pane (three lines at most): read whole, not cut.
  static func searchErrorLines(_ error: String?, width: Int) -> [String] {
    guard let error else { return [] }
    return Paragraph.lines(error, width: max(1, width), limit: 3)
  }

  /// The filter pane's rows: the smart filters at the top; a blank line and the tags' heading
  /// (and "no tags yet"); then as many tags as fit above a two-line footer (`tagScroll` says
  /// which).
  static func tagRows(_ inner: Rect, _ state: ScreenFeature.State) -> (top: Int, room: Int) {
    var top = inner.y + ScreenFeature.State.smartFilters.count + 1
    if top < inner.maxY { top += 1 }
    if state.app.sidebar.tags.isEmpty, top < inner.maxY { top += 1 }
    return (top, max(0, inner.maxY - top - 2))
  }

  /// What a click at a cell hits.
  enum Target: Equatable {
    /// A row of the filter pane (an index into `sidebarFilters`).
    case filter(Int)
    /// The filter pane's show-completed switch.
    case showCompleted
    /// The list's search line.
    case search
    /// An issue of the list (an index into its issues).
    case issue(Int)
    /// Anywhere else in a pane.
    case pane(ScreenFeature.Pane)
  }

  func target(x: Int, y: Int, state: ScreenFeature.State) -> Target? {
    guard let hit = panes.first(where: { $0.rect.contains(x: x, y: y) }) else { return nil }
    let inner = Self.inner(hit.rect, screenReader: state.screenReader)
    guard inner.contains(x: x, y: y) else { return .pane(hit.pane) }
    switch hit.pane {
    case .filters:
      let smart = ScreenFeature.State.smartFilters.count
      if y < inner.y + smart { return .filter(y - inner.y) }
      if state.app.sidebar.offersShowCompleted, y == inner.maxY - 1 { return .showCompleted }
      let tags = Self.tagRows(inner, state)
      let shown = state.tagScroll.shown(height: tags.room, count: state.app.sidebar.tags.count)
      if y >= tags.top, y < tags.top + shown.count {
        return .filter(smart + shown.lowerBound + y - tags.top)
      }
    case .list:
      // Too short a pane draws no rows (`drawList`), and has none to click.
      guard inner.height > 2 else { return .pane(.list) }
      if y == inner.y { return .search }
      let rows = Self.listRows(inner, state)
      let index = state.listScroll.first + y - rows.y
      if y >= rows.y, state.app.list.issues.indices.contains(index) { return .issue(index) }
    case .detail:
      break
    }
    return .pane(hit.pane)
  }
}
