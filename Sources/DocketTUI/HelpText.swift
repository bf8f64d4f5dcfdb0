import DocketCore
import Localization
import Terminal

/// The help, made from the key table: a block for the keys of everywhere, one for each pane,
/// then one for each mode (the help itself, the awards, questions, menus, the edit form and its
/// fields, typing). Blocks stand side by side where the screen is wide enough.
enum HelpText {
  /// A line of the help, and the headings on it, each drawn bold by itself: where two blocks
  /// stand side by side, a heading in one column leaves the entry beside it plain.
  struct Line: Equatable {
    struct Heading: Equatable {
      var column: Int
      var text: String
    }

    var text: String
    var headings: [Heading] = []
    var heading: Bool { !headings.isEmpty }

    init(_ text: String, heading: Bool = false) {
      self.text = text
      headings = heading ? [Heading(column: 0, text: text)] : []
    }
  }

  /// One block for each scope of the key table: its heading, then each binding's keys and what
  /// they do (wrapped under itself within `width`), in the reader's language.
  static func blocks(l10n: Localizer, width room: Int) -> [[Line]] {
    var blocks: [[Line]] = []
    for scope in KeyBinding.Scope.allCases {
      let bindings = KeyTable.bindings.filter {
        $0.scope == scope && ($0.language == nil || $0.language == l10n.language)
      }
      guard !bindings.isEmpty else { continue }
      // Each binding's keys and what they do; then what any other key does, where it does.
      var rows = bindings.map { (KeyTable.label($0.label) { l10n($0) }, l10n($0.helpKey)) }
      if scope.otherKeys != nil {
        rows.append((l10n("tui.keyName.other"), l10n("tui.key.otherKeysClose")))
      }
      let labelWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
      var block: [Line] = [Line(l10n("tui.keys.\(scope.rawValue)"), heading: true)]
      for (keys, what) in rows {
        let described = Paragraph.lines(what, width: max(10, room - labelWidth - 2))
        for (index, part) in described.enumerated() {
          let label = index == 0 ? keys : ""
          let padding = String(repeating: " ", count: labelWidth - DisplayWidth.of(label) + 2)
          block.append(Line(label + padding + part))
        }
      }
      blocks.append(block)
    }
    return blocks
  }

  /// The lines of the help for a screen of `columns` (headings marked): the blocks in two
  /// columns where two of 36 fit, else one under another (always, for a screen reader, which
  /// reads a line whole).
  static func lines(l10n: Localizer, columns: Int, screenReader: Bool = false) -> [Line] {
    let room = columns - 6
    let twoColumns = !screenReader && room >= 2 * 36 + 3
    let blocks = blocks(l10n: l10n, width: twoColumns ? (room - 3) / 2 : room)
    func width(_ block: [Line]) -> Int { block.map { DisplayWidth.of($0.text) }.max() ?? 0 }
    let blockWidth = blocks.map(width).max() ?? 0
    var lines: [Line] = []
    if twoColumns, room >= 2 * blockWidth + 3 {
      // Two columns, each block going to the shorter one.
      var left: [Line] = []
      var right: [Line] = []
      for block in blocks {
        if left.count <= right.count {
          left += (left.isEmpty ? [] : [Line("")]) + block
        } else {
          right += (right.isEmpty ? [] : [Line("")]) + block
        }
      }
      let leftWidth = width(left)
      for row in 0..<max(left.count, right.count) {
        let first = row < left.count ? left[row] : Line("")
        let second = row < right.count ? right[row] : Line("")
        let padding = String(repeating: " ", count: leftWidth - DisplayWidth.of(first.text) + 3)
        var line = Line(first.text + padding + second.text)
        line.headings =
          first.headings
          + second.headings.map { Line.Heading(column: $0.column + leftWidth + 3, text: $0.text) }
        lines.append(line)
      }
    } else {
      for block in blocks {
        if !lines.isEmpty { lines.append(Line("")) }
        lines += block
      }
    }
    return lines
  }
}

extension ScreenFeature.State {
  /// How far the help scrolls on this screen: to its last page.
  func helpScrollLimit(_ l10n: Localizer) -> Int {
    let lines = HelpText.lines(l10n: l10n, columns: columns, screenReader: screenReader).count
    return max(0, lines - ScreenLayout.helpHeight(rows: rows, screenReader: screenReader))
  }
}
