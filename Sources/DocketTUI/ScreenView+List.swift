import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The list pane: the search line, the rows, the suggestions and the sort menus.
extension ScreenView {
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
}
