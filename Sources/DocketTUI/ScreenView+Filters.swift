import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The filter pane: the smart filters with their counts, the tags, the show-completed switch.
extension ScreenView {
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
    for (index, filter) in ScreenFeature.State.smartFilters.enumerated() {
      row(filterName(filter), count: sidebar.count(of: filter), filter: filter, index: index)
    }
    // Conflicts, only while there are some, on the line that otherwise stays blank: C opens
    // them.
    if sidebar.counts.conflicts > 0, y < inner.maxY {
      let badge = String(sidebar.counts.conflicts)
      buffer.draw(
        "  " + l10n("tui.conflicts.entry"), x: inner.x, y: y, style: Theme.warning,
        maxWidth: inner.width - badge.count - 1)
      buffer.draw(badge, x: inner.maxX - badge.count, y: y, style: Theme.warning)
    }
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
    // The tags in their window (`tagScroll` keeps the highlighted one in view).
    let tagRows = ScreenLayout.tagRows(inner, state)
    y = tagRows.top
    let smart = ScreenFeature.State.smartFilters.count
    for index in state.tagScroll.shown(height: tagRows.room, count: sidebar.tags.count) {
      let summary = sidebar.tags[index]
      row(
        summary.tag.name, count: summary.visibleCount(showCompleted: sidebar.showCompleted),
        filter: .tag(summary.tag.id), index: smart + index)
    }
    if state.mode == .tagSortMenu { drawTagSortMenu(&buffer, inner) }
    // The switch is shown only where it applies: under Recent and the tags.
    if sidebar.offersShowCompleted {
      let switchText = l10n(
        sidebar.showCompleted ? "tui.showCompleted.on" : "tui.showCompleted.off")
      buffer.draw(
        switchText, x: inner.x, y: inner.maxY - 1, style: Theme.dim, maxWidth: inner.width)
    }
  }
}
