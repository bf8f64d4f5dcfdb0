import Database
import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Localization
import Terminal

/// The conflicts overlay.
extension ScreenView {
  /// Each conflict on two lines over the body: the issue and the field, then the value kept and
  /// the value lost, each with its device and when; the selected one in reverse; under them
  /// what `u` and `d` do.
  func drawConflicts(_ buffer: inout Buffer, _ area: Rect, _ view: ConflictsFeature.State) {
    buffer.fill(area, style: .plain)
    let inner = frame(
      &buffer, area,
      title: l10n("filter.conflicts") + (view.loaded ? " · \(view.conflicts.count)" : ""),
      focused: true)
    guard inner.height > 0 else { return }
    if let error = view.errorMessage {
      buffer.draw(error, x: inner.x, y: inner.y, style: Theme.error, maxWidth: inner.width)
      return
    }
    guard view.loaded else { return }
    guard !view.conflicts.isEmpty else {
      buffer.draw(
        l10n("conflicts.empty"), x: inner.x, y: inner.y, style: Theme.dim, maxWidth: inner.width)
      return
    }
    let explains = inner.height >= 5
    let perRow = 2
    let fitting = max(1, ((explains ? inner.height - 2 : inner.height)) / perRow)
    let first = min(
      max(0, view.selected - fitting + 1), max(0, view.conflicts.count - fitting))
    let shown = first..<min(view.conflicts.count, first + fitting)
    for (offset, index) in shown.enumerated() {
      let conflict = view.conflicts[index]
      let y = inner.y + offset * perRow
      let selected = index == view.selected
      let headline =
        conflict.title + " · " + UndoMessages.field(conflict, l10n)
      if selected {
        buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selected)
      }
      buffer.draw(
        headline, x: inner.x, y: y, style: selected ? Theme.selected : .plain,
        maxWidth: inner.width)
      let kept = l10n(
        "tui.conflicts.values",
        .string(UndoMessages.value(conflict.kept, of: conflict, l10n)),
        .string(UndoMessages.device(conflict.keptBy, here: conflict.keptHere, l10n)),
        .string(UndoMessages.value(conflict.lost, of: conflict, l10n)),
        .string(UndoMessages.device(conflict.lostBy, here: conflict.lostHere, l10n)),
        .string(l10n.compact(RowDate(conflict.lostAt, now: now))))
      buffer.draw("  " + kept, x: inner.x, y: y + 1, style: Theme.dim, maxWidth: inner.width)
    }
    buffer.cursor = (inner.x, inner.y + (view.selected - shown.lowerBound) * perRow)
    if explains {
      buffer.draw(
        l10n("tui.conflicts.explain"), x: inner.x, y: inner.maxY - 1, style: Theme.dim,
        maxWidth: inner.width)
    }
  }
}
