import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// What shows over the panes: prompts, questions and the awards.
extension ScreenView {
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
}
