import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

@Suite struct KeyTableTests {
  static let panes: [ScreenFeature.Pane] = [.filters, .list, .detail]

  /// Every key of the table reaches its command in its panes: none is shadowed by another
  /// binding, and no key is bound twice where it works.
  @Test func everyBindingDispatchesToItsCommand() {
    for binding in KeyTable.bindings {
      let panes: [ScreenFeature.Pane] =
        switch binding.scope {
        case .everywhere: Self.panes
        case .filters: [.filters]
        case .list: [.list]
        case .detail: [.detail]
        }
      for (key, command) in binding.commands {
        for pane in panes {
          #expect(
            KeyTable.command(for: key, focus: pane) == command, "\(key) in \(pane): \(binding.name)"
          )
        }
      }
    }
    // Their texts are in the catalog (a missing key would show as itself, and pass unnoticed
    // where only the text is compared).
    let entries = DocketStrings.catalog.entries
    for binding in KeyTable.bindings {
      #expect(entries[binding.helpKey] != nil, "\(binding.helpKey) is not in the catalog")
      if !binding.hintIn.isEmpty {
        #expect(entries[binding.hintKey] != nil, "\(binding.hintKey) is not in the catalog")
      }
    }
    for scope in KeyBinding.Scope.allCases {
      #expect(entries["tui.keys.\(scope.rawValue)"] != nil)
    }
    var seen: [String: String] = [:]
    for binding in KeyTable.bindings {
      for key in binding.commands.keys {
        let place = "\(binding.scope) \(key)"
        #expect(seen[place] == nil, "\(place) is bound by \(seen[place] ?? "") and \(binding.name)")
        seen[place] = binding.name
      }
    }
  }

  /// The help lists every binding of the table, its keys and what they do, in both languages and
  /// on wide and narrow screens; the hint bar of each pane names the bindings marked for it.
  @Test(arguments: ["en", "de"])
  func theHelpAndTheHintsComeFromTheTable(language: String) throws {
    let l10n = DocketStrings.localizer(language: language)
    for columns in [160, 100, 60] {
      let help = ScreenView.helpLines(l10n: l10n, columns: columns).map(\.text)
      let text = help.joined(separator: "\n")
      // Read as one text with the spacing evened out (narrow screens wrap a description under
      // its keys).
      func even(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
      }
      let flowing = even(text)
      for binding in KeyTable.bindings {
        let described = l10n(binding.helpKey)
        #expect(!described.hasPrefix("tui."), "\(binding.helpKey) has no text")
        if columns >= 100 {
          #expect(
            help.contains { $0.contains(binding.label) && $0.contains(described) },
            "\(binding.name) missing from the help at \(columns) columns")
        } else {
          #expect(
            flowing.contains(even(binding.label + " " + described)),
            "\(binding.name) missing from the help at \(columns) columns")
        }
      }
      for scope in KeyBinding.Scope.allCases {
        #expect(text.contains(l10n("tui.keys.\(scope.rawValue)")))
      }
      #expect(help.allSatisfy { DisplayWidth.of($0) <= columns - 4 }, "too wide at \(columns)")
    }
    let fixture = try ScreenFixture()
    for pane in Self.panes {
      let state = try fixture.state(
        columns: 300, rows: 30, select: "Fix login layout on narrow screens", focus: pane)
      let bar = ScreenView(state: state, l10n: l10n, now: snapshotNow).render().lines.last ?? ""
      for binding in KeyTable.hints(for: pane) {
        #expect(bar.contains((binding.hintLabel ?? binding.label) + " " + l10n(binding.hintKey)))
      }
      #expect(!KeyTable.hints(for: pane).isEmpty)
    }
  }
}
