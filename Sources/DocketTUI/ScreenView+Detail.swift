import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The detail pane and its edit form.
extension ScreenView {
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
    for line in Paragraph.lines(issue.detail, width: inner.width) where y < inner.maxY {
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
}
