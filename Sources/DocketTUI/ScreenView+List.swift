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
    let errorLines = ScreenLayout.searchErrorLines(list.searchError, width: inner.width)
    for (offset, line) in errorLines.enumerated() {
      buffer.draw(
        line, x: inner.x, y: inner.y + 1 + offset, style: Theme.error, maxWidth: inner.width)
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
    if state.mode == .sortMenu { drawSortMenu(&buffer, inner) }
  }

  /// The issues in a table: priority and state, the title (what the others leave), the tags (as
  /// wide as the widest shown, a quarter of the pane at most) and the date of last activity.
  func drawRows(_ buffer: inout Buffer, _ area: Rect, _ list: IssueListFeature.State) {
    let shown = state.listScroll.shown(height: area.height, count: list.issues.count)
    let issues = list.issues[shown]
    let showExtras = area.width >= 50
    if state.screenReader {
      drawSpokenRows(&buffer, area, list, shown: shown, showExtras: showExtras)
      return
    }
    let rows = issues.map { issue -> [Table.Cell] in
      let rowDate = RowDate(issue.lastActivity, now: now)
      return [
        Table.Cell(
          Self.prioritySymbol(issue.priority) + (issue.completed ? "✓" : "○"),
          Theme.priority(issue.priority)),
        Table.Cell(
          issue.title.isEmpty ? l10n("issue.untitled") : issue.title,
          issue.completed ? Theme.dim : .plain),
        Table.Cell(issue.tags.map(\.name).joined(separator: ", "), Theme.dim),
        Table.Cell(
          l10n.compact(rowDate), Theme.dim),
      ]
    }
    // A narrow pane shows the titles alone.
    let columns: [Table.Width] = [
      .fixed(2), .rest, .fit(max: showExtras ? area.width / 4 - 1 : 0),
      showExtras ? .fixed(11) : .fixed(0),
    ]
    drawIssueTable(&buffer, area, list, shown: shown, rows: rows, columns: columns)
  }

  /// The rows for a screen reader, which reads a line from its start: the title first, then
  /// the priority and the status in words (it reads "▲○" as symbols, or not at all), the tags
  /// and the date as said aloud.
  func drawSpokenRows(
    _ buffer: inout Buffer, _ area: Rect, _ list: IssueListFeature.State, shown: Range<Int>,
    showExtras: Bool
  ) {
    let issues = list.issues[shown]
    let rows = issues.map { issue -> [Table.Cell] in
      let state = l10n(
        "tui.reader.row.state", .string(l10n.name(of: issue.priority)),
        .string(l10n(issue.completed ? "tui.reader.completed" : "tui.reader.open")))
      return [
        Table.Cell(
          issue.title.isEmpty ? l10n("issue.untitled") : issue.title,
          issue.completed ? Theme.dim : .plain),
        Table.Cell(state, Theme.priority(issue.priority)),
        Table.Cell(
          issue.tags.isEmpty
            ? ""
            : l10n(
              "tui.reader.row.tags",
              .string(
                issue.tags.map(\.name).joined(separator: ", "))), Theme.dim),
        Table.Cell(l10n.spoken(RowDate(issue.lastActivity, now: now)), Theme.dim),
      ]
    }
    // Dates read aloud need more room than compact ones: as wide as the longest shown, a third
    // of the pane at most.
    let columns: [Table.Width] = [
      .rest, .fit(max: area.width / 3),
      .fit(max: showExtras ? area.width / 4 - 1 : 0),
      showExtras ? .fit(max: area.width / 3) : .fixed(0),
    ]
    drawIssueTable(&buffer, area, list, shown: shown, rows: rows, columns: columns)
  }

  /// The rows of `shown` in `columns`, the selected one highlighted, the cursor on it.
  func drawIssueTable(
    _ buffer: inout Buffer, _ area: Rect, _ list: IssueListFeature.State, shown: Range<Int>,
    rows: [[Table.Cell]], columns: [Table.Width]
  ) {
    let issues = list.issues[shown]
    let widths = Table.widths(columns, rows: rows, width: area.width)
    Table.draw(&buffer, area, widths: widths, rows: rows) { row in
      guard issues[shown.lowerBound + row].id == list.selection else { return nil }
      return state.focus == .list ? Theme.selected : Theme.selectedUnfocused
    }
    if state.focus == .list, state.input == nil,
      let selected = issues.firstIndex(where: { $0.id == list.selection })
    {
      buffer.cursor = (area.x, area.y + selected - shown.lowerBound)
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
}
