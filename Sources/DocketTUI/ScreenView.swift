import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Localization
import Terminal

/// Draws the screen from the state: a pure function, so what is on screen follows from state
/// and every state can be checked as text.
public struct ScreenView {
  let state: ScreenFeature.State
  let l10n: Localizer
  let now: Date

  public init(state: ScreenFeature.State, l10n: Localizer, now: Date) {
    self.state = state
    self.l10n = l10n
    self.now = now
  }

  var plainMode: Bool { state.screenReader }

  public func render() -> Buffer {
    var buffer = Buffer(width: state.columns, height: state.rows)
    guard state.columns >= 20, state.rows >= 6 else {
      buffer.draw(l10n("tui.tooSmall"), x: 0, y: 0)
      return buffer
    }
    let layout = ScreenLayout(state)
    drawTitle(&buffer, layout.title)
    for shown in layout.panes {
      switch shown.pane {
      case .filters: drawFilters(&buffer, shown.rect)
      case .list: drawList(&buffer, shown.rect)
      case .detail: drawDetail(&buffer, shown.rect)
      }
    }
    drawStatus(&buffer, layout.status)
    drawHints(&buffer, layout.hints)
    drawOverlays(&buffer, layout.body)
    // The cursor stands where text is typed. A screen reader follows it, so in that mode it
    // also sits on the focused item; otherwise it would only blink on the selected row.
    if !plainMode, state.input == nil { buffer.cursor = nil }
    return buffer
  }

  // MARK: Bars

  func drawTitle(_ buffer: inout Buffer, _ rect: Rect) {
    buffer.fill(rect, style: Theme.bar)
    let filter = filterName(state.app.list.filter)
    let count = state.app.list.total
    let limit = max(IssueListFeature.countLimit, state.app.list.limit)
    let counted =
      count > limit
      ? l10n("tui.issueCountMore", .integer(limit)) : l10n("tui.issueCount", .integer(count))
    let text = "Docket · \(filter) · " + counted
    buffer.draw(" " + text, x: rect.x, y: rect.y, style: Theme.bar, maxWidth: rect.width)
    let help = l10n("tui.helpHint")
    if rect.width > DisplayWidth.of(text) + DisplayWidth.of(help) + 4 {
      buffer.draw(help + " ", x: rect.maxX - DisplayWidth.of(help) - 1, y: rect.y, style: Theme.bar)
    }
  }

  func drawStatus(_ buffer: inout Buffer, _ rect: Rect) {
    var rect = rect
    if let sync = syncStatus {
      // Sync's state on the right: syncing, when it last synced, or why it failed.
      let width = min(DisplayWidth.of(sync.text) + 1, rect.width / 2)
      buffer.draw(
        sync.text, x: rect.maxX - width, y: rect.y, style: sync.isError ? Theme.error : Theme.dim,
        maxWidth: width)
      rect.width -= width + 1
    }
    let message =
      state.app.list.errorMessage ?? state.app.detail?.errorMessage ?? state.app.sidebar
      .errorMessage
      ?? state.announcement
    guard let message else { return }
    let isError =
      message == state.app.list.errorMessage || message == state.app.detail?.errorMessage
      || message == state.app.sidebar.errorMessage
    buffer.draw(
      " " + message, x: rect.x, y: rect.y, style: isError ? Theme.error : Theme.dim,
      maxWidth: rect.width)
  }

  /// What the status line says of sync, when a remote is set or a sync was asked for.
  var syncStatus: (text: String, isError: Bool)? {
    let sync = state.app.sync
    if sync.isSyncing { return (l10n("tui.sync.syncing"), false) }
    // Without a remote there is nothing to show: `S` then says how to set one, once.
    guard sync.remote != nil else { return nil }
    if let problem = sync.liveProblem {
      return (l10n("tui.sync.unreachable", .string(problem)), true)
    }
    if sync.needsPassphrase { return (l10n("tui.sync.needsPassphrase"), true) }
    if let error = sync.lastError { return (l10n("tui.sync.failed", .string(error)), true) }
    guard let last = sync.lastSync else { return (l10n("tui.sync.never"), false) }
    // The time alone today; the date too on another day.
    let when = LocalTime.minutes(last)
    let today = when.prefix(10) == LocalTime.minutes(now).prefix(10)
    var synced = l10n("tui.sync.synced", .string(today ? LocalTime.clock(last) : when))
    if sync.isEncrypted { synced += " · " + l10n("tui.sync.encrypted") }
    // What the last sync had to say besides (a clock that is wrong, changes held back, this
    // database become a new device), as a warning after it.
    if let report = sync.lastReport, let note = SyncMessages.notes(report, l10n).first {
      return (synced + " · " + note, true)
    }
    return (synced, false)
  }

  /// Whether the issue `x` acts on now (the detail's, else the list's selected) is completed.
  var selectedIssueIsCompleted: Bool {
    if state.focus == .detail, let issue = state.app.detail?.issue { return issue.completed }
    let list = state.app.list
    return list.issues.first { $0.id == list.selection }?.completed ?? false
  }

  /// The hint bar, made from the key table: what the keys that work now do, the mode's or the
  /// focused pane's first. Items that do not fit are left out whole, never cut.
  func drawHints(_ buffer: inout Buffer, _ rect: Rect) {
    buffer.fill(rect, style: Theme.bar)
    var text = ""
    for binding in KeyTable.hints(for: state.keyScopes, language: l10n.language) {
      let keys = KeyTable.label(binding.hintLabel ?? binding.label) { l10n($0) }
      var hint = l10n(binding.hintKey)
      // `x` on a completed issue (the Completed list's, say) reopens it, and says so.
      if binding.name == "toggleCompleted", selectedIssueIsCompleted {
        hint = l10n("tui.hint.reopen")
      }
      let item = (text.isEmpty ? " " : "  ") + keys + " " + hint
      guard DisplayWidth.of(text + item) <= rect.width else { break }
      text += item
    }
    buffer.draw(text, x: rect.x, y: rect.y, style: Theme.bar, maxWidth: rect.width)
  }

  // MARK: Panes

  /// A pane's frame (or, for screen readers, a plain heading) and the area inside it.
  func frame(_ buffer: inout Buffer, _ rect: Rect, title: String, focused: Bool) -> Rect {
    if plainMode {
      buffer.draw(
        (focused ? "> " : "") + title, x: rect.x, y: rect.y, style: focused ? Theme.bold : .plain)
      return ScreenLayout.inner(rect, screenReader: true)
    }
    buffer.drawBox(
      rect, style: focused ? Theme.focus : Theme.dim, title: title,
      titleStyle: focused ? Theme.focusTitle : Theme.dim)
    return ScreenLayout.inner(rect, screenReader: false)
  }

  // MARK: Words

  func filterName(_ filter: IssueFilter) -> String {
    l10n.filterName(filter, tags: state.app.sidebar.tags.map(\.tag))
  }

  func sortName(_ sort: IssueSort) -> String { l10n.sortName(sort) }

  func sortFieldName(_ field: IssueSort.Field) -> String { l10n.sortFieldName(field) }

  static func prioritySymbol(_ priority: Priority) -> String {
    switch priority {
    case .high: return "▲"
    case .medium: return "■"
    case .low: return "▽"
    }
  }
}

/// The app's colours and emphasis. Nothing is told by colour alone: every coloured thing is also
/// a word or a symbol.
enum Theme {
  static let bar = CellStyle(attributes: .reverse)
  static let dim = CellStyle(attributes: .dim)
  static let bold = CellStyle(attributes: .bold)
  static let underline = CellStyle(attributes: .underline)
  static let focus = CellStyle(foreground: .cyan)
  static let focusTitle = CellStyle(foreground: .cyan, attributes: .bold)
  static let selected = CellStyle(attributes: .reverse)
  static let selectedUnfocused = CellStyle(attributes: [.reverse, .dim])
  static let chip = CellStyle(foreground: .cyan)
  static let error = CellStyle(foreground: .red, attributes: .bold)
  /// Something to look at (conflicts): yellow, and always named in words.
  static let warning = CellStyle(foreground: .yellow, attributes: .bold)

  static func priority(_ priority: Priority) -> CellStyle {
    switch priority {
    case .high: return CellStyle(foreground: .red)
    case .medium: return CellStyle(foreground: .yellow)
    case .low: return CellStyle(attributes: .dim)
    }
  }

  static func award(_ color: AwardColor) -> CellStyle {
    switch color {
    case .blue: return CellStyle(foreground: .blue, attributes: .bold)
    case .green: return CellStyle(foreground: .green, attributes: .bold)
    case .purple: return CellStyle(foreground: .magenta, attributes: .bold)
    }
  }
}
