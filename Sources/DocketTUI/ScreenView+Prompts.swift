import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// Prompts and questions over the panes: a one-line text field, and a dialog of lines.
extension ScreenView {
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
}
