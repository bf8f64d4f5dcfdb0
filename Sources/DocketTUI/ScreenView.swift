import DocketCore
import DocketFeatures
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

  func drawHints(_ buffer: inout Buffer, _ rect: Rect) {
    buffer.fill(rect, style: Theme.bar)
    let text: String
    if state.input != nil {
      text = l10n("tui.hints.typing")
    } else if state.app.detail?.isEditing == true {
      text = l10n("tui.hints.editing")
    } else {
      // Made from the key table: what the focused pane's keys do, then the keys of everywhere.
      text = KeyTable.hints(for: state.focus).map {
        ($0.hintLabel ?? $0.label) + " " + l10n($0.hintKey)
      }.joined(separator: "  ")
    }
    buffer.draw(" " + text, x: rect.x, y: rect.y, style: Theme.bar, maxWidth: rect.width)
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

  func drawFilters(_ buffer: inout Buffer, _ rect: Rect) {
    let inner = frame(&buffer, rect, title: l10n("tui.filters"), focused: state.focus == .filters)
    let sidebar = state.app.sidebar
    var y = inner.y
    func row(_ name: String, count: Int, filter: IssueFilter, index: Int) {
      guard y < inner.maxY else { return }
      let selected = sidebar.selection == filter
      let highlighted = state.focus == .filters && state.sidebarRow == index
      let marker = selected ? "● " : "  "
      let badge = String(count)
      let style = highlighted ? Theme.selected : selected ? Theme.bold : .plain
      if highlighted {
        buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
      }
      buffer.draw(
        marker + name, x: inner.x, y: y, style: style, maxWidth: inner.width - badge.count - 1)
      buffer.draw(badge, x: inner.maxX - badge.count, y: y, style: highlighted ? style : Theme.dim)
      if highlighted { buffer.cursor = (inner.x, y) }
      y += 1
    }
    row(l10n("filter.open"), count: sidebar.count(of: .open), filter: .open, index: 0)
    row(
      l10n("filter.completed"), count: sidebar.count(of: .completed), filter: .completed, index: 1)
    row(l10n("filter.recent"), count: sidebar.count(of: .recent), filter: .recent, index: 2)
    y += 1
    if y < inner.maxY {
      let sortWord = l10n(sidebar.tagSort.field == .name ? "tui.tagSort.name" : "tui.tagSort.count")
      buffer.draw(
        l10n("tui.tags") + " (" + sortWord + ")", x: inner.x, y: y, style: Theme.dim,
        maxWidth: inner.width)
      y += 1
    }
    if sidebar.tags.isEmpty, y < inner.maxY {
      buffer.draw(l10n("tui.noTags"), x: inner.x, y: y, style: Theme.dim, maxWidth: inner.width)
      y += 1
    }
    // Keep the highlighted tag in view when there are more tags than rows.
    let footer = 2
    let room = max(0, inner.maxY - y - footer)
    let first = ScreenLayout.firstShown(selected: state.sidebarRow - 3, height: room)
    for (offset, summary) in sidebar.tags.enumerated().dropFirst(first).prefix(room) {
      row(
        summary.tag.name, count: summary.visibleCount(showCompleted: sidebar.showCompleted),
        filter: .tag(summary.tag.id), index: 3 + offset)
    }
    if state.isTagSortMenuShown { drawTagSortMenu(&buffer, inner) }
    // The switch is shown only where it applies: under Recent and the tags.
    if sidebar.offersShowCompleted {
      let switchText = l10n(
        sidebar.showCompleted ? "tui.showCompleted.on" : "tui.showCompleted.off")
      buffer.draw(
        switchText, x: inner.x, y: inner.maxY - 1, style: Theme.dim, maxWidth: inner.width)
    }
  }

  func drawList(_ buffer: inout Buffer, _ rect: Rect) {
    let list = state.app.list
    let inner = frame(
      &buffer, rect, title: l10n("tui.issues") + " · " + sortName(list.sort),
      focused: state.focus == .list)
    guard inner.height > 2 else { return }
    // The search field: chips, then the text.
    var x = inner.x
    let searching = state.input == .search
    let label = l10n("tui.search") + " "
    x += buffer.draw(label, x: x, y: inner.y, style: Theme.dim, maxWidth: inner.width)
    for chip in list.search.chips {
      x += buffer.draw(
        "[" + chip + "]", x: x, y: inner.y, style: Theme.chip, maxWidth: inner.maxX - x)
      x += 1
    }
    let text = searching ? state.field : TextField(list.search.text, cursor: 0)
    let visible = text.visible(width: max(1, inner.maxX - x))
    buffer.draw(
      visible.text, x: x, y: inner.y, style: searching ? Theme.bold : .plain,
      maxWidth: inner.maxX - x)
    if searching { buffer.cursor = (x + visible.cursorColumn, inner.y) }
    if let error = list.searchError {
      buffer.draw(error, x: inner.x, y: inner.y + 1, style: Theme.error, maxWidth: inner.width)
    }
    let listArea = ScreenLayout.listRows(inner, state)
    if list.issues.isEmpty {
      if list.hasLoaded {
        let empty =
          list.query.isEmpty && list.filter == .open
            && state.app.sidebar.counts.open + state.app.sidebar.counts.completed == 0
          ? "tui.empty.none" : "tui.empty.noMatch"
        buffer.draw(
          l10n(empty), x: listArea.x + 1, y: listArea.y + 1, style: Theme.dim,
          maxWidth: listArea.width - 1)
      }
    } else {
      drawRows(&buffer, listArea, list)
    }
    if searching, !list.suggestions.isEmpty {
      drawSuggestions(
        &buffer,
        Rect(
          x: inner.x + label.count, y: inner.y + 1, width: min(32, inner.width - label.count),
          height: inner.height - 1))
    }
    if state.isSortMenuShown { drawSortMenu(&buffer, inner) }
  }

  func drawRows(_ buffer: inout Buffer, _ area: Rect, _ list: IssueListFeature.State) {
    let selectedIndex = list.issues.firstIndex { $0.id == list.selection } ?? 0
    let first = ScreenLayout.firstShown(selected: selectedIndex, height: area.height)
    let visible = list.issues.enumerated().dropFirst(first).prefix(area.height)
    // Dates as they will be shown; read aloud, they need more room than compact ones, so their
    // column is as wide as the longest shown (the title gives way; a third of the pane at most).
    let times = visible.map { row -> String in
      let rowDate = RowDate(row.element.lastActivity, now: now)
      return state.screenReader ? l10n.spoken(rowDate) : l10n.compact(rowDate)
    }
    let timeWidth =
      state.screenReader
      ? min(max(12, (times.map { DisplayWidth.of($0) }.max() ?? 0) + 1), area.width / 3) : 12
    let showExtras = area.width >= 50
    // One tag column for every row shown, as wide as the widest tags need (a quarter of the pane
    // at most), so that titles, tags and dates line up whatever each row holds.
    let tagColumn =
      showExtras
      ? min(
        visible.map {
          DisplayWidth.of(SafeText.sanitized($0.element.tags.map(\.name).joined(separator: ", ")))
        }
        .max().map { $0 == 0 ? 0 : $0 + 1 } ?? 0, area.width / 4) : 0
    for ((offset, issue), time) in zip(visible, times) {
      let y = area.y + offset - first
      let selected = issue.id == list.selection
      let style =
        selected ? (state.focus == .list ? Theme.selected : Theme.selectedUnfocused) : .plain
      if selected { buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: style) }
      let symbol = Self.prioritySymbol(issue.priority) + (issue.completed ? "✓" : "○")
      var x = area.x
      x += buffer.draw(
        symbol + " ", x: x, y: y, style: selected ? style : Theme.priority(issue.priority))
      let tags = issue.tags.map(\.name).joined(separator: ", ")
      let right = showExtras ? timeWidth : 0
      let tagWidth = tagColumn
      let title = issue.title.isEmpty ? l10n("issue.untitled") : issue.title
      buffer.draw(
        title, x: x, y: y, style: issue.completed && !selected ? Theme.dim : style,
        maxWidth: area.maxX - x - right - tagWidth - 1)
      if tagWidth > 0, !tags.isEmpty {
        buffer.draw(
          tags, x: area.maxX - right - tagWidth, y: y, style: selected ? style : Theme.dim,
          maxWidth: tagWidth - 1)
      }
      if showExtras {
        buffer.draw(
          time, x: area.maxX - timeWidth, y: y, style: selected ? style : Theme.dim,
          maxWidth: timeWidth)
      }
      if selected, state.focus == .list, state.input == nil { buffer.cursor = (area.x, y) }
    }
  }

  func drawSuggestions(_ buffer: inout Buffer, _ rect: Rect) {
    let list = state.app.list
    let shown = list.suggestions.prefix(max(0, rect.height - 2))
    let box = Rect(x: rect.x, y: rect.y, width: rect.width, height: shown.count + 2)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: l10n("tui.suggestions"), focused: true)
    for (index, suggestion) in shown.enumerated() {
      let highlighted = index == list.highlightedSuggestion
      let kind: String
      switch suggestion.kind {
      case .tag: kind = l10n("tui.suggestion.tag")
      case .priority: kind = l10n("tui.suggestion.priority")
      case .status: kind = l10n("tui.suggestion.status")
      }
      let style = highlighted ? Theme.selected : .plain
      buffer.fill(Rect(x: inner.x, y: inner.y + index, width: inner.width, height: 1), style: style)
      buffer.draw(
        suggestion.label + "  " + kind, x: inner.x, y: inner.y + index, style: style,
        maxWidth: inner.width)
    }
  }

  /// The full date and time, and how long ago it was ("2026-11-28 14:03 (2 days ago)").
  func fullDate(_ date: Date) -> String {
    LocalTime.minutes(date) + " (" + l10n.relativeTime(date, now: now) + ")"
  }

  /// The filter pane's tag sort menu.
  func drawTagSortMenu(_ buffer: inout Buffer, _ inner: Rect) {
    let options: [(String, TagSort.Field)] = [("n", .name), ("c", .count)]
    let width = min(inner.width, 22)
    let box = Rect(x: inner.x, y: inner.y + 4, width: width, height: options.count + 2)
    buffer.fill(box, style: .plain)
    let area = frame(&buffer, box, title: l10n("tui.sortBy"), focused: true)
    let sort = state.app.sidebar.tagSort
    for (index, (key, field)) in options.enumerated() {
      let current = sort.field == field
      let arrow = current ? (sort.ascending ? " ↑" : " ↓") : ""
      let name = l10n(field == .name ? "tui.tagSortField.name" : "tui.tagSortField.count")
      buffer.draw(
        "\(key)  " + name + arrow, x: area.x, y: area.y + index,
        style: current ? Theme.bold : .plain, maxWidth: area.width)
    }
  }

  func drawSortMenu(_ buffer: inout Buffer, _ inner: Rect) {
    let options: [(String, IssueSort.Field)] = [("p", .priority), ("d", .date), ("t", .title)]
    let box = Rect(x: inner.maxX - 26, y: inner.y + 1, width: 26, height: options.count + 2)
    buffer.fill(box, style: .plain)
    let area = frame(&buffer, box, title: l10n("tui.sortBy"), focused: true)
    for (index, (key, field)) in options.enumerated() {
      let current = state.app.list.sort.field == field
      let arrow = current ? (state.app.list.sort.ascending ? " ↑" : " ↓") : ""
      buffer.draw(
        "\(key)  " + sortFieldName(field) + arrow, x: area.x, y: area.y + index,
        style: current ? Theme.bold : .plain, maxWidth: area.width)
    }
  }

  func drawDetail(_ buffer: inout Buffer, _ rect: Rect) {
    let inner = frame(&buffer, rect, title: l10n("tui.detail"), focused: state.focus == .detail)
    guard let detail = state.app.detail else {
      buffer.draw(
        l10n("tui.noSelection"), x: inner.x + 1, y: inner.y + 1, style: Theme.dim,
        maxWidth: inner.width - 1)
      return
    }
    if let draft = detail.draft {
      drawEditForm(&buffer, inner, detail, draft)
      return
    }
    let issue = detail.issue
    var y = inner.y
    buffer.draw(
      issue.title.isEmpty ? l10n("issue.untitled") : issue.title, x: inner.x, y: y,
      style: Theme.bold, maxWidth: inner.width)
    y += 2
    let fields: [(String, String)] = [
      (
        l10n("show.priority"),
        Self.prioritySymbol(issue.priority) + " " + l10n.name(of: issue.priority)
      ),
      (
        l10n("show.status"),
        (issue.completed ? "✓ " : "○ ")
          + l10n.name(of: issue.completed ? SearchQuery.Status.completed : .open)
      ),
      (
        l10n("show.tags"),
        issue.tags.isEmpty ? l10n("show.noTags") : issue.tags.map(\.name).joined(separator: ", ")
      ),
      (l10n("show.created"), fullDate(issue.created)),
      (
        l10n("show.modified"),
        issue.modified.map(fullDate) ?? l10n("show.never")
      ),
    ]
    let labelWidth = (fields.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2
    for (label, value) in fields where y < inner.maxY {
      buffer.draw(label + ":", x: inner.x, y: y, style: Theme.dim)
      buffer.draw(value, x: inner.x + labelWidth, y: y, maxWidth: inner.width - labelWidth)
      y += 1
    }
    y += 1
    for line in Self.wrap(issue.detail, width: inner.width) where y < inner.maxY {
      buffer.draw(line, x: inner.x, y: y)
      y += 1
    }
    if detail.confirmingDelete {
      let question = l10n("tui.confirmDelete")
      buffer.fill(
        Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1), style: Theme.error)
      buffer.draw(
        question, x: inner.x, y: inner.maxY - 1, style: Theme.error, maxWidth: inner.width)
      buffer.cursor = (inner.x, inner.maxY - 1)
    } else if state.focus == .detail {
      buffer.cursor = (inner.x, inner.y)
    }
  }

  func drawEditForm(
    _ buffer: inout Buffer, _ inner: Rect, _ detail: DetailFeature.State, _ draft: Issue
  ) {
    var y = inner.y
    let labels: [ScreenFeature.EditField: String] = [
      .title: l10n("tui.field.title"), .priority: l10n("show.priority"),
      .completed: l10n("tui.field.completed"),
      .tags: l10n("show.tags"), .detail: l10n("tui.field.detail"),
    ]
    let labelWidth = (labels.values.map { DisplayWidth.of($0) }.max() ?? 0) + 2
    for field in ScreenFeature.EditField.allCases where y < inner.maxY {
      let focused = state.editField == field
      buffer.draw(
        (focused ? "▸ " : "  ") + labels[field]! + ":", x: inner.x, y: y,
        style: focused ? Theme.bold : Theme.dim)
      let x = inner.x + labelWidth + 2
      let width = inner.maxX - x
      switch field {
      case .title:
        let typing = state.input == .title
        let value = typing ? state.field : TextField(draft.title, cursor: 0)
        let shown = value.visible(width: max(1, width))
        buffer.draw(
          shown.text, x: x, y: y, style: typing ? Theme.underline : .plain, maxWidth: width)
        if typing || focused { buffer.cursor = (x + (typing ? shown.cursorColumn : 0), y) }
      case .detail:
        // Several lines, below the label, to the bottom of the pane.
        let typing = state.input == .detail
        let area = typing ? state.area : TextArea(draft.detail, cursor: 0)
        let height = max(1, inner.maxY - y - 1 - (detail.newTagName == nil ? 0 : 2))
        let shown = area.visible(width: max(1, inner.width - 2), height: height)
        for (offset, line) in shown.lines.enumerated() {
          buffer.draw(
            line, x: inner.x + 2, y: y + 1 + offset, style: typing ? Theme.underline : .plain,
            maxWidth: inner.width - 2)
        }
        if typing || focused {
          buffer.cursor = (
            inner.x + 2 + (typing ? shown.cursor.x : 0), y + 1 + (typing ? shown.cursor.y : 0)
          )
        }
        y += shown.lines.count
      case .priority:
        var px = x
        for priority in Priority.allCases {
          let chosen = draft.priority == priority
          px += buffer.draw(
            (chosen ? "(•) " : "( ) ") + l10n.name(of: priority), x: px, y: y,
            style: chosen ? Theme.bold : .plain, maxWidth: inner.maxX - px)
          px += 2
        }
        if focused { buffer.cursor = (x, y) }
      case .completed:
        buffer.draw(
          draft.completed ? "[x] " + l10n("tui.yes") : "[ ] " + l10n("tui.no"), x: x, y: y,
          maxWidth: width)
        if focused { buffer.cursor = (x, y) }
      case .tags:
        var tx = x
        var ty = y
        for (index, chip) in detail.tagChips.enumerated() {
          let label = (chip.assigned ? "[x] " : "[ ] ") + chip.tag.name
          let chipWidth = DisplayWidth.of(label)
          if tx + chipWidth > inner.maxX, tx > x {
            ty += 1
            tx = x
          }
          guard ty < inner.maxY - 1 else { break }
          let highlighted = focused && index == state.tagChip
          buffer.draw(
            label, x: tx, y: ty,
            style: highlighted ? Theme.selected : chip.assigned ? Theme.chip : .plain,
            maxWidth: inner.maxX - tx)
          if highlighted { buffer.cursor = (tx, ty) }
          tx += chipWidth + 2
        }
        if detail.tagChips.isEmpty {
          buffer.draw(l10n("tui.noTagsYet"), x: x, y: y, style: Theme.dim, maxWidth: width)
        }
        y = ty
      }
      y += 1
    }
    if let name = detail.newTagName, y < inner.maxY {
      let field = state.input == .newTagName ? state.field : TextField(name)
      let label = l10n("tui.newTag") + " "
      buffer.draw(label, x: inner.x, y: y + 1, style: Theme.bold)
      let shown = field.visible(width: max(1, inner.width - label.count))
      buffer.draw(shown.text, x: inner.x + label.count, y: y + 1, style: Theme.underline)
      buffer.cursor = (inner.x + label.count + shown.cursorColumn, y + 1)
    }
  }

  // MARK: Overlays

  func drawOverlays(_ buffer: inout Buffer, _ area: Rect) {
    if let prompt = state.app.sidebar.prompt { drawPrompt(&buffer, area, prompt) }
    if let tag = state.app.sidebar.confirmingDelete {
      let summary = state.app.sidebar.tags.first { $0.id == tag.id }
      drawDialog(
        &buffer, area, title: l10n("tui.deleteTag"),
        lines: [l10n("tui.confirmDeleteTag", .string(tag.name), .integer(summary?.total ?? 0))])
    }
    if let awards = state.app.awards { drawAwards(&buffer, area, awards) }
    if state.helpShown { drawHelp(&buffer, area) }
  }

  func drawPrompt(_ buffer: inout Buffer, _ area: Rect, _ prompt: SidebarFeature.TagPrompt) {
    let title: String
    switch prompt.purpose {
    case .create: title = l10n("tui.newTagTitle")
    case .rename(let tag): title = l10n("tui.renameTagTitle", .string(tag.name))
    }
    let width = min(area.width - 2, 50)
    let box = Rect(
      x: area.x + (area.width - width) / 2, y: area.y + area.height / 3, width: width,
      height: prompt.errorMessage == nil ? 3 : 4)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: title, focused: true)
    let field = state.input == .tagName ? state.field : TextField(prompt.text)
    let shown = field.visible(width: max(1, inner.width))
    buffer.draw(shown.text, x: inner.x, y: inner.y, style: Theme.underline, maxWidth: inner.width)
    buffer.cursor = (inner.x + shown.cursorColumn, inner.y)
    if let error = prompt.errorMessage {
      buffer.draw(error, x: inner.x, y: inner.y + 1, style: Theme.error, maxWidth: inner.width)
    }
  }

  func drawDialog(_ buffer: inout Buffer, _ area: Rect, title: String, lines: [String]) {
    let width = min(area.width - 2, max(30, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4))
    let box = Rect(
      x: area.x + (area.width - width) / 2, y: area.y + area.height / 3, width: width,
      height: lines.count + 2)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: title, focused: true)
    for (index, line) in lines.enumerated() {
      buffer.draw(line, x: inner.x, y: inner.y + index, maxWidth: inner.width)
    }
    buffer.cursor = (inner.x, inner.y)
  }

  func drawAwards(_ buffer: inout Buffer, _ area: Rect, _ awards: AwardsFeature.State) {
    let box = area
    buffer.fill(box, style: .plain)
    let inner = frame(
      &buffer, box,
      title: l10n("tui.awards") + " · "
        + l10n("awards.summary", .integer(awards.unlockedCount), .integer(awards.awards.count)),
      focused: true)
    let columns = inner.width >= 90 ? 2 : 1
    let columnWidth = inner.width / columns
    let perColumn = Int((Double(awards.awards.count) / Double(columns)).rounded(.up))
    for (index, status) in awards.awards.enumerated() {
      let column = index / perColumn
      let y = inner.y + index % perColumn
      guard y < inner.maxY else { continue }
      let x = inner.x + column * columnWidth
      let mark = status.unlocked ? "★ " : "· "
      let text =
        mark + l10n.name(of: status.award) + " — " + l10n.description(of: status.award)
        + (status.unlocked ? "" : " (" + l10n("awards.locked") + ")")
      buffer.draw(
        text, x: x, y: y,
        style: status.unlocked ? Theme.award(status.award.criterion.color) : Theme.dim,
        maxWidth: columnWidth - 1)
    }
  }

  // MARK: Words

  func filterName(_ filter: IssueFilter) -> String {
    if case .tag(let id) = filter {
      return state.app.sidebar.tags.first { $0.id == id }?.tag.name ?? l10n("tui.tag")
    }
    return l10n.name(ofSmartFilter: filter) ?? ""
  }

  func sortName(_ sort: IssueSort) -> String {
    sortFieldName(sort.field) + (sort.ascending ? " ↑" : " ↓")
  }

  func sortFieldName(_ field: IssueSort.Field) -> String {
    switch field {
    case .priority: return l10n("tui.sort.priority")
    case .date: return l10n("tui.sort.date")
    case .title: return l10n("tui.sort.title")
    }
  }

  static func prioritySymbol(_ priority: Priority) -> String {
    switch priority {
    case .high: return "▲"
    case .medium: return "■"
    case .low: return "▽"
    }
  }

  /// Lines of at most `width` columns, broken at spaces where possible.
  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = line.isEmpty ? String(word) : line + " " + word
        if DisplayWidth.of(candidate) <= width {
          line = candidate
        } else {
          if !line.isEmpty { lines.append(line) }
          var rest = String(word)
          while DisplayWidth.of(rest) > width {
            let cut = DisplayWidth.truncate(rest, to: width + 1).dropLast()
            lines.append(String(cut))
            rest = String(rest.dropFirst(cut.count))
          }
          line = rest
        }
      }
      lines.append(line)
    }
    return lines
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
