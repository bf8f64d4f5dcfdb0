import DocketCore
import Localization
import Terminal

/// The help overlay (`HelpText`): scrolled by `helpScroll`, with arrows at the frame's edge
/// where there is more.
extension ScreenView {
  func drawHelp(_ buffer: inout Buffer, _ area: Rect) {
    let lines = HelpText.lines(l10n: l10n, columns: state.columns, screenReader: plainMode)
    let width = min(area.width - 2, (lines.map { DisplayWidth.of($0.text) }.max() ?? 0) + 4)
    // A screen reader reads whole lines: the help takes them whole, nothing of the panes beside it.
    let box = plainMode ? area : area.centred(width: width, height: lines.count + 2)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: l10n("tui.helpTitle"), focused: true)
    let first = min(state.helpScroll, max(0, lines.count - inner.height))
    // A screen reader reads from the cursor: it sits at the help's first line shown.
    buffer.cursor = (inner.x + 1, inner.y)
    for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
      buffer.draw(line.text, x: inner.x + 1, y: inner.y + row, maxWidth: inner.width - 1)
      for heading in line.headings where heading.column < inner.width - 1 {
        buffer.draw(
          heading.text, x: inner.x + 1 + heading.column, y: inner.y + row, style: Theme.bold,
          maxWidth: inner.width - 1 - heading.column)
      }
    }
    // More below, or above: said at the frame's edge.
    if first + inner.height < lines.count, !plainMode {
      buffer.draw("↓", x: box.maxX - 2, y: box.maxY - 1, style: Theme.focus)
    }
    if first > 0, !plainMode { buffer.draw("↑", x: box.maxX - 2, y: box.y, style: Theme.focus) }
  }
}
