import DocketCore
import DocketFeatures
import DocketSync
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
    // The title whole, wrapped: the list cuts a long one, so here is where it is read (leaving
    // room for the fields below it).
    let title = issue.title.isEmpty ? l10n("issue.untitled") : issue.title
    for line in Paragraph.lines(title, width: inner.width, limit: max(1, inner.height - 7)) {
      buffer.draw(line, x: inner.x, y: y, style: Theme.bold, maxWidth: inner.width)
      y += 1
    }
    y += 1
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
    // A value wraps under itself rather than being cut ("(15 days ago)" whole at 100 columns).
    let valueWidth = max(1, inner.width - labelWidth)
    for (label, value) in fields where y < inner.maxY {
      buffer.draw(label + ":", x: inner.x, y: y, style: Theme.dim)
      for line in Paragraph.lines(value, width: valueWidth, limit: max(1, inner.maxY - y)) {
        buffer.draw(line, x: inner.x + labelWidth, y: y, maxWidth: valueWidth)
        y += 1
      }
    }
    y += 1
    for line in Paragraph.lines(issue.detail, width: inner.width, limit: max(0, inner.maxY - y)) {
      buffer.draw(line, x: inner.x, y: y)
      y += 1
    }
    if detail.historyShown {
      drawHistory(
        &buffer, detail.history, x: inner.x, y: y + 1, width: inner.width, maxY: inner.maxY)
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

  /// The issue's history, newest first, as far as the pane reaches: when and which device on one
  /// line, what changed under it; a value that lost a conflict is marked.
  func drawHistory(
    _ buffer: inout Buffer, _ history: [HistoryEntry], x: Int, y start: Int, width: Int, maxY: Int
  ) {
    var y = start
    guard y < maxY else { return }
    buffer.draw(l10n("tui.history"), x: x, y: y, style: Theme.bold, maxWidth: width)
    y += 1
    if history.isEmpty, y < maxY {
      buffer.draw(l10n("history.empty"), x: x, y: y, style: Theme.dim, maxWidth: width)
      return
    }
    for entry in history.reversed() where y < maxY {
      buffer.draw(
        ISOTime.local(entry.when) + "  " + SyncMessages.device(entry, l10n), x: x, y: y,
        style: Theme.dim, maxWidth: width)
      y += 1
      for line in Paragraph.lines(SyncMessages.change(entry, l10n), width: max(1, width - 2))
      where y < maxY {
        buffer.draw(
          line, x: x + 2, y: y, style: entry.lost ? Theme.error : .plain, maxWidth: width - 2)
        y += 1
      }
    }
  }
}
