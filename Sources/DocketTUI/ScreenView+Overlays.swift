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
    let box = overlayBox(
      area.centred(width: width, height: prompt.errorMessage == nil ? 3 : 4, third: true), in: area)
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
    let box = overlayBox(area.centred(width: width, height: lines.count + 2, third: true), in: area)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: title, focused: true)
    for (index, line) in lines.enumerated() {
      buffer.draw(line, x: inner.x, y: inner.y + index, maxWidth: inner.width)
    }
    buffer.cursor = (inner.x, inner.y)
  }

  /// A box over the panes; for a screen reader, which reads whole lines, as wide as the screen.
  func overlayBox(_ box: Rect, in area: Rect) -> Rect {
    plainMode ? Rect(x: area.x, y: box.y, width: area.width, height: box.height) : box
  }

  /// The width of a badge in the awards grid, and how many fit side by side.
  static let awardWidth = 20
  static func awardColumns(width: Int) -> Int { max(1, (width - 4) / awardWidth) }

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
    let columns = Self.awardColumns(width: state.columns)
    let width = Self.awardWidth
    for (index, status) in awards.awards.enumerated() {
      let x = inner.x + (index % columns) * width
      let y = inner.y + index / columns
      guard y < inner.maxY - 4 else { break }
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
