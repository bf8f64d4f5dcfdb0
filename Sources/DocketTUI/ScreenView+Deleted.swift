import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Localization
import Terminal

/// The Recently deleted overlay.
extension ScreenView {
  /// The issues deleted in the last 30 days in a table over the body: priority, title, when and
  /// on which device each was deleted, the selected one in reverse; under them what `r` does.
  func drawDeleted(_ buffer: inout Buffer, _ area: Rect, _ deleted: DeletedFeature.State) {
    buffer.fill(area, style: .plain)
    let inner = frame(
      &buffer, area,
      title: l10n("filter.deleted") + (deleted.loaded ? " · \(deleted.issues.count)" : ""),
      focused: true)
    guard inner.height > 0 else { return }
    if let error = deleted.errorMessage {
      buffer.draw(error, x: inner.x, y: inner.y, style: Theme.error, maxWidth: inner.width)
      return
    }
    guard deleted.loaded else { return }
    guard !deleted.issues.isEmpty else {
      buffer.draw(
        l10n("list.deleted.empty"), x: inner.x, y: inner.y, style: Theme.dim,
        maxWidth: inner.width)
      return
    }
    // The rows above a blank line and the line that says what happens to them (left out where
    // the rows would have no room).
    let explains = inner.height >= 4
    let height = max(1, explains ? inner.height - 2 : inner.height)
    let first = min(
      max(0, deleted.selected - height + 1), max(0, deleted.issues.count - height))
    let shown = first..<min(deleted.issues.count, first + height)
    let rows = deleted.issues[shown].map { issue -> [Table.Cell] in
      let by =
        issue.deletedHere || issue.deletedBy.isEmpty
        ? l10n("deleted.byThisDevice") : issue.deletedBy
      let when = l10n.compact(RowDate(issue.deleted, now: now))
      if state.screenReader {
        // Read from the start of the line: the title, then the rest in words.
        return [
          Table.Cell(issue.title),
          Table.Cell(l10n.name(of: issue.priority), Theme.priority(issue.priority)),
          Table.Cell(l10n("tui.deleted.when", .string(when), .string(by)), Theme.dim),
        ]
      }
      return [
        Table.Cell(Self.prioritySymbol(issue.priority), Theme.priority(issue.priority)),
        Table.Cell(issue.title),
        Table.Cell(l10n("tui.deleted.when", .string(when), .string(by)), Theme.dim),
      ]
    }
    let columns: [Table.Width] =
      state.screenReader
      ? [.rest, .fit(max: 10), .fit(max: inner.width / 2)]
      : [.fixed(1), .rest, .fit(max: inner.width / 2)]
    let area = Rect(x: inner.x, y: inner.y, width: inner.width, height: shown.count)
    let widths = Table.widths(columns, rows: rows, width: area.width)
    Table.draw(&buffer, area, widths: widths, rows: rows) { row in
      shown.lowerBound + row == deleted.selected ? Theme.selected : nil
    }
    buffer.cursor = (inner.x, inner.y + deleted.selected - shown.lowerBound)
    if explains {
      buffer.draw(
        l10n("tui.deleted.explain"), x: inner.x, y: inner.maxY - 1, style: Theme.dim,
        maxWidth: inner.width)
    }
  }
}
