import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The awards overlay.
extension ScreenView {
  /// The awards as a grid of badges, as in the seed: ★ and the name for an unlocked award, ☆
  /// for a locked one (told apart without colour); the selected badge in reverse; under the
  /// grid the selected award's name, description and state (with the count so far while
  /// locked).
  func drawAwards(_ buffer: inout Buffer, _ area: Rect, _ awards: AwardsFeature.State) {
    buffer.fill(area, style: .plain)
    let inner = frame(
      &buffer, area,
      title: l10n("tui.awards") + " · "
        + l10n("awards.summary", .integer(awards.unlockedCount), .integer(awards.awards.count)),
      focused: true)
    let columns = ScreenLayout.awardColumns(width: state.columns)
    let width = ScreenLayout.awardWidth
    // The grid's rows in their window (`awardScroll` keeps the selected badge in view), with an
    // arrow at the frame's edge where rows are hidden.
    let height = ScreenLayout.awardGridHeight(inner)
    let rowCount = (awards.awards.count + columns - 1) / columns
    let shownRows = state.awardScroll.shown(height: height, count: rowCount)
    if shownRows.lowerBound > 0, !plainMode {
      buffer.draw("↑", x: area.maxX - 2, y: area.y, style: Theme.focus)
    }
    if shownRows.upperBound < rowCount, !plainMode {
      buffer.draw("↓", x: area.maxX - 2, y: area.maxY - 1, style: Theme.focus)
    }
    for (index, status) in awards.awards.enumerated() where shownRows.contains(index / columns) {
      let x = inner.x + (index % columns) * width
      let y = inner.y + index / columns - shownRows.lowerBound
      let selected = index == awards.selected
      let badge = (status.unlocked ? "★ " : "☆ ") + l10n.name(of: status.award)
      let style =
        selected
        ? Theme.selected
        : status.unlocked ? Theme.award(status.award.criterion.color) : Theme.dim
      if selected {
        buffer.fill(Rect(x: x, y: y, width: width - 1, height: 1), style: style)
        buffer.cursor = (x, y)
      }
      buffer.draw(badge, x: x, y: y, style: style, maxWidth: width - 2)
    }
    guard awards.awards.indices.contains(awards.selected) else { return }
    let status = awards.awards[awards.selected]
    let count = awards.counts.count(for: status.award.criterion)
    let stateText =
      status.unlocked
      ? l10n("awards.unlocked")
      : l10n(
        "awards.progress", .integer(min(count, status.award.value)), .integer(status.award.value))
    let top = inner.maxY - 3
    buffer.draw(
      l10n.name(of: status.award), x: inner.x, y: top, style: Theme.bold, maxWidth: inner.width)
    buffer.draw(
      l10n.description(of: status.award), x: inner.x, y: top + 1, maxWidth: inner.width)
    buffer.draw(
      (status.unlocked ? "★ " : "☆ ") + stateText, x: inner.x, y: top + 2,
      style: status.unlocked ? Theme.award(status.award.criterion.color) : Theme.dim,
      maxWidth: inner.width)
  }
}
