import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The edit form in the detail pane: a row for each field, the focused one marked.
extension ScreenView {
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
          shown.text, x: x, y: y,
          style: typing ? (value.selected ? Theme.selected : Theme.underline) : .plain,
          maxWidth: width)
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
}
