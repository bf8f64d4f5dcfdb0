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

  /// The encrypted remote's passphrase: what it is for, the typing shown as dots, and why the
  /// last one did not open it.
  func drawPassphrase(_ buffer: inout Buffer, _ area: Rect) {
    let sync = state.app.sync
    let note = sync.isUnlocking ? l10n("tui.passphrase.opening") : l10n("tui.passphrase.note")
    let width = min(area.width - 2, max(40, min(70, DisplayWidth.of(note) + 4)))
    let height = sync.passphraseError == nil ? 4 : 5
    let box = overlayBox(area.centred(width: width, height: height, third: true), in: area)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: l10n("tui.passphrase.title"), focused: true)
    buffer.draw(note, x: inner.x, y: inner.y, style: Theme.dim, maxWidth: inner.width)
    let label = l10n("tui.passphrase.label")
    let labelWidth = min(DisplayWidth.of(label), inner.width / 2)
    buffer.draw(label, x: inner.x, y: inner.y + 1, style: Theme.bold, maxWidth: labelWidth)
    let fieldWidth = max(1, inner.width - labelWidth)
    let dots = String(repeating: "•", count: min(state.field.text.count, fieldWidth - 1))
    buffer.draw(
      dots + String(repeating: " ", count: max(0, fieldWidth - dots.count)),
      x: inner.x + labelWidth,
      y: inner.y + 1, style: Theme.underline, maxWidth: fieldWidth)
    buffer.cursor = (inner.x + labelWidth + dots.count, inner.y + 1)
    if let error = sync.passphraseError {
      buffer.draw(error, x: inner.x, y: inner.y + 2, style: Theme.error, maxWidth: inner.width)
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
