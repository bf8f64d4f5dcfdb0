import DocketCore
import Localization
import Terminal

/// The help overlay, made from the key table: a block for the keys of everywhere and one for each
/// pane, every binding's keys and what they do; then the edit form's keys. Blocks stand side by
/// side where the screen is wide enough; a help longer than the screen scrolls (↑ ↓ PgUp PgDn),
/// and any other key closes it.
extension ScreenView {
  /// The lines of the help for a screen of `columns` (headings marked).
  static func helpLines(l10n: Localizer, columns: Int) -> [(text: String, heading: Bool)] {
    typealias Line = (text: String, heading: Bool)
    let room = columns - 6
    var blocks: [[Line]] = []
    for scope in KeyBinding.Scope.allCases {
      let bindings = KeyTable.bindings.filter { $0.scope == scope }
      guard !bindings.isEmpty else { continue }
      let labelWidth = bindings.map { DisplayWidth.of($0.label) }.max() ?? 0
      var block: [Line] = [(l10n("tui.keys.\(scope.rawValue)"), true)]
      for binding in bindings {
        // What a key does wraps under itself where the screen is narrow.
        let described = Paragraph.lines(
          l10n(binding.helpKey), width: max(10, room - labelWidth - 2))
        for (index, part) in described.enumerated() {
          let label = index == 0 ? binding.label : ""
          block.append(
            (
              label + String(repeating: " ", count: labelWidth - DisplayWidth.of(label)) + "  "
                + part, false
            ))
        }
      }
      blocks.append(block)
    }
    func width(_ block: [Line]) -> Int { block.map { DisplayWidth.of($0.text) }.max() ?? 0 }
    let blockWidth = blocks.map(width).max() ?? 0
    var lines: [Line] = []
    if room >= 2 * blockWidth + 3 {
      // Two columns, each block going to the shorter one.
      var left: [Line] = []
      var right: [Line] = []
      for block in blocks {
        if left.count <= right.count {
          left += (left.isEmpty ? [] : [("", false)]) + block
        } else {
          right += (right.isEmpty ? [] : [("", false)]) + block
        }
      }
      let leftWidth = width(left)
      for row in 0..<max(left.count, right.count) {
        let first: Line = row < left.count ? left[row] : ("", false)
        let second: Line = row < right.count ? right[row] : ("", false)
        let padding = String(repeating: " ", count: leftWidth - DisplayWidth.of(first.text) + 3)
        lines.append((first.text + padding + second.text, first.heading || second.heading))
      }
    } else {
      for block in blocks {
        if !lines.isEmpty { lines.append(("", false)) }
        lines += block
      }
    }
    lines.append(("", false))
    let textWidth = max(20, min(room, lines.map { DisplayWidth.of($0.text) }.max() ?? 0))
    for line in Paragraph.lines(l10n("tui.keys.form"), width: textWidth) {
      lines.append((line, false))
    }
    return lines
  }

  /// How many help lines show at once on this screen: the rows between the title bar and the
  /// status and hint bars, less the frame (a heading only, for screen readers).
  static func helpHeight(rows: Int, screenReader: Bool = false) -> Int {
    max(1, rows - 3 - (screenReader ? 1 : 2))
  }

  func drawHelp(_ buffer: inout Buffer, _ area: Rect) {
    let lines = Self.helpLines(l10n: l10n, columns: state.columns)
    let width = min(area.width - 2, (lines.map { DisplayWidth.of($0.text) }.max() ?? 0) + 4)
    // A screen reader reads whole lines: the help takes them whole, nothing of the panes beside it.
    let box = plainMode ? area : area.centred(width: width, height: lines.count + 2)
    buffer.fill(box, style: .plain)
    let inner = frame(&buffer, box, title: l10n("tui.helpTitle"), focused: true)
    let first = min(state.helpScroll, max(0, lines.count - inner.height))
    // A screen reader reads from the cursor: it sits at the help's first line shown.
    buffer.cursor = (inner.x + 1, inner.y)
    for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
      buffer.draw(
        line.text, x: inner.x + 1, y: inner.y + row, style: line.heading ? Theme.bold : .plain,
        maxWidth: inner.width - 1)
    }
    // More below, or above: said at the frame's edge.
    if first + inner.height < lines.count, !plainMode {
      buffer.draw("↓", x: box.maxX - 2, y: box.maxY - 1, style: Theme.focus)
    }
    if first > 0, !plainMode { buffer.draw("↑", x: box.maxX - 2, y: box.y, style: Theme.focus) }
  }
}
