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

  /// The scopes current where a binding of `scope` works: its chain, or each pane's for the
  /// keys of everywhere.
  static func chains(of scope: KeyBinding.Scope) -> [[KeyBinding.Scope]] {
    scope == .everywhere ? Self.panes.map(\.keyScope.chain) : [scope.chain]
  }

  /// Every key of the table reaches its command where it works, in each language it works in:
  /// none is shadowed by another binding, and no key is bound twice in a scope.
  @Test(arguments: ["en", "de"])
  func everyBindingDispatchesToItsCommand(language: String) {
    for binding in KeyTable.bindings {
      let works = binding.language == nil || binding.language == language
      for (key, command) in binding.commands {
        for chain in Self.chains(of: binding.scope) {
          let found = KeyTable.command(for: key, in: chain, language: language)
          if works {
            #expect(found == command, "\(key) in \(chain): \(binding.name)")
          } else {
            #expect(found != command, "\(key) in \(chain) works only in \(binding.language!)")
          }
        }
      }
    }
    var seen: [String: String] = [:]
    for binding in KeyTable.bindings where binding.language == nil || binding.language == language {
      for key in binding.commands.keys {
        let place = "\(binding.scope) \(key)"
        #expect(seen[place] == nil, "\(place) is bound by \(seen[place] ?? "") and \(binding.name)")
        seen[place] = binding.name
      }
    }
  }

  /// Keys a scope does not bind: a menu and the help close, everything else does nothing (the
  /// text inputs and the form's text fields take them as text, outside the table).
  @Test func keysOutsideTheTableCloseMenusAndTheHelpAndDoNothingElse() {
    let unbound: [Key] = [.character("Z"), .character("ß"), .function(5), .control("b")]
    for scope in KeyBinding.Scope.allCases {
      for key in unbound {
        let found = KeyTable.command(for: key, in: scope.chain, language: "en")
        switch scope {
        case .help: #expect(found == .closeHelp)
        case .sortMenu, .tagSortMenu: #expect(found == .closeMenu)
        default: #expect(found == nil, "\(key) in \(scope)")
        }
      }
    }
    // `j` answers yes in German only; in English a question waits for y or n.
    #expect(KeyTable.command(for: .character("j"), in: [.confirm], language: "de") == .confirmYes)
    #expect(KeyTable.command(for: .character("j"), in: [.confirm], language: "en") == nil)
  }

  /// The texts of the table are in the catalog (a missing key would show as itself, and pass
  /// unnoticed where only the text is compared).
  @Test func theTablesTextsAreInTheCatalog() {
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
  }

  /// The help lists every binding of the table, its keys and what they do, in both languages and
  /// on wide and narrow screens; the hint bar of each pane names the bindings marked for it.
  @Test(arguments: ["en", "de"])
  func theHelpAndTheHintsComeFromTheTable(language: String) throws {
    let l10n = DocketStrings.localizer(language: language)
    // Read as one text with the spacing evened out (a description wraps under its keys).
    func even(_ text: String) -> String {
      text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
    for columns in [160, 100, 60] {
      let help = HelpText.lines(l10n: l10n, columns: columns).map(\.text)
      let room = columns - 6
      let blocks = HelpText.blocks(l10n: l10n, width: room >= 75 ? (room - 3) / 2 : room)
      // Every binding is in its scope's block, its keys then what they do; keys of another
      // language are not.
      // A block for each scope with bindings, in the table's order of scopes.
      let scoped = KeyBinding.Scope.allCases.filter { scope in
        KeyTable.bindings.contains { $0.scope == scope }
      }
      #expect(blocks.map { $0.first?.text } == scoped.map { l10n("tui.keys.\($0.rawValue)") })
      for (scope, block) in zip(scoped, blocks) {
        let flowing = even(block.map(\.text).joined(separator: "\n"))
        for binding in KeyTable.bindings where binding.scope == scope {
          let label = KeyTable.label(binding.label) { l10n($0) }
          let described = l10n(binding.helpKey)
          #expect(!described.hasPrefix("tui."), "\(binding.helpKey) has no text")
          let entry = even(label + " " + described)
          if binding.language == nil || binding.language == language {
            #expect(flowing.contains(entry), "\(binding.name) missing at \(columns) columns")
          } else {
            #expect(!flowing.contains(entry), "\(binding.name) offered in \(language)")
          }
        }
      }
      // The help is those blocks, whole, side by side or one under another, within the screen.
      let shown = even(help.joined(separator: "\n"))
      for line in blocks.joined() where !line.text.isEmpty {
        #expect(
          help.contains { $0.contains(line.text) }, "\(line.text) not in the help at \(columns)")
      }
      #expect(!shown.isEmpty)
      #expect(help.allSatisfy { DisplayWidth.of($0) <= columns - 4 }, "too wide at \(columns)")
      if columns >= 100 {
        #expect(help.count < blocks.joined().count, "one column at \(columns)")
      }
    }
    let fixture = try ScreenFixture()
    var states: [ScreenFeature.State] = []
    for pane in Self.panes {
      states.append(
        try fixture.state(
          columns: 300, rows: 30, select: "Fix login layout on narrow screens", focus: pane))
    }
    var help = states[1]
    help.mode = .help
    var sortMenu = states[1]
    sortMenu.mode = .sortMenu
    var tagSortMenu = states[0]
    tagSortMenu.mode = .tagSortMenu
    var searching = states[1]
    searching.mode = .typing(.search)
    states += [help, sortMenu, tagSortMenu, searching]
    for state in states {
      let bar = ScreenView(state: state, l10n: l10n, now: snapshotNow).render().lines.last ?? ""
      let hints = KeyTable.hints(for: state.keyScopes, language: language)
      #expect(!hints.isEmpty, "no hints in \(state.keyScopes)")
      for binding in hints {
        let keys = KeyTable.label(binding.hintLabel ?? binding.label) { l10n($0) }
        #expect(bar.contains(keys + " " + l10n(binding.hintKey)), "\(binding.name) in \(bar)")
      }
      // On a narrow screen the bar leaves out whole items, never a piece of one.
      var narrow = state
      narrow.columns = 60
      let short = ScreenView(state: narrow, l10n: l10n, now: snapshotNow).render().lines.last ?? ""
      let shown = hints.map {
        KeyTable.label($0.hintLabel ?? $0.label) { l10n($0) } + " " + l10n($0.hintKey)
      }
      // Whatever fits is a run of whole items from the first, two spaces apart; what does not fit
      // is left out whole (no item cut, none after a gap).
      let items = short.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")
      #expect(!items.isEmpty && items.count <= shown.count)
      #expect(Array(shown.prefix(items.count)) == items, "\(items)")
      if items.count < shown.count {
        #expect(
          DisplayWidth.of(short.trimmingCharacters(in: .whitespaces) + "  " + shown[items.count])
            > 59)
      }
    }
  }

  /// The hint bar names what the keys do where they are pressed: with suggestions open, Enter
  /// takes one (it does not end the search); on a field that is not text, Enter is not "edit".
  @Test func theHintsAreTheKeysThatWorkHere() {
    func names(_ scopes: [KeyBinding.Scope]) -> [String] {
      KeyTable.hints(for: scopes, language: "en").map(\.name)
    }
    #expect(names([.typing]) == ["done", "cancelTyping"])
    #expect(
      names(KeyBinding.Scope.suggestions.chain) == [
        "suggestionMove", "suggestionChoose", "cancelTyping",
      ])
    #expect(
      names(KeyBinding.Scope.formTitle.chain) == ["nextField", "editOrSave", "save", "cancel"])
    #expect(
      names(KeyBinding.Scope.formPriority.chain)
        == ["priorityStep", "priorityPick", "nextField", "save", "cancel"])
    #expect(
      names(KeyBinding.Scope.formDetail.chain)
        == ["externalEditor", "nextField", "editOrSave", "save", "cancel"])
    #expect(names([.confirm]) == ["yes", "no"])
    #expect(names(KeyBinding.Scope.list.chain).first == "move")
  }

  /// Which keys work follows from the state: the mode that has the keyboard, else the pane.
  @Test func theKeysThatWorkFollowFromTheState() throws {
    let fixture = try ScreenFixture()
    var state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    #expect(state.keyScopes == [.everywhere, .detail])
    state.focus = .filters
    #expect(state.keyScopes == [.everywhere, .filters])
    state.focus = .detail
    let issue = state.app.detail?.issue
    state.app.detail?.draft = issue
    for (field, scope) in [
      (ScreenFeature.EditField.title, KeyBinding.Scope.formTitle), (.priority, .formPriority),
      (.completed, .formCompleted), (.tags, .formTags), (.detail, .formDetail),
    ] {
      state.editField = field
      #expect(state.keyScopes == [scope, .form])
    }
    state.mode = .typing(.detail)
    #expect(state.keyScopes == [.typingDetail])
    state.mode = .typing(.title)
    #expect(state.keyScopes == [.typingTitle, .typingDetail])
    // One mode at a time: the menu opened, the typing is over.
    state.mode = .sortMenu
    #expect(state.keyScopes == [.sortMenu])
    state.app.detail?.confirmingDelete = true
    #expect(state.keyScopes == [.confirm], "a question has the keys before a menu")
    state.app.awards = AwardsFeature.State()
    #expect(state.keyScopes == [.awards])
    state.mode = .help
    #expect(state.keyScopes == [.help])
  }
}

extension KeyTableTests {
  /// The help writes a binding's keys from the keys themselves, in the order they are given,
  /// and no binding gives a key twice (the second would be lost).
  @Test func labelsAreMadeFromTheKeys() {
    let move = KeyTable.bindings.first { $0.scope == .list && $0.name == "move" }
    #expect(move?.label == "↑ ↓ j k")
    let save = KeyTable.bindings.first { $0.commands.keys.contains(.control("s")) }
    #expect(save?.label == "Ctrl-S")
    #expect(
      KeyTable.label("Ctrl-S Space", l10n: { $0 == "tui.keyName.ctrl" ? "Strg" : "Leer" })
        == "Strg-S Leer")
    let keys: [Key] = [.backTab, .pageUp, .pageDown, .escape, .character(" "), .function(5)]
    #expect(keys.map(\.name) == ["Shift-Tab", "PgUp", "PgDn", "Esc", "Space", "F5"])
    for binding in KeyTable.bindings {
      #expect(binding.keys.count == binding.commands.count, "\(binding.name)")
    }
  }
}
