import Terminal

/// What a key does while the panes are browsed (text input, the edit form, menus and questions
/// take keys of their own first).
enum KeyCommand: Equatable, Sendable {
  case quit, help, nextPane, previousPane, search, newIssue, awards, showCompleted, sync, back
  case suspend, redraw
  case filterDown, filterUp, chooseFilter, tagSortMenu, newTag, renameTag, deleteTag
  case issueDown, issueUp, pageDown, pageUp, firstIssue, lastIssue, openIssue
  case toggleCompleted, deleteIssue, editIssue, sortMenu, showFilters, externalEditor
}

/// One line of the key table: its keys, where they work, what each does, and how help and the
/// hint bar name it (catalog keys: `tui.key.NAME` for help, `tui.hint.NAME` for the hint bar).
struct KeyBinding: Equatable, Sendable {
  enum Scope: String, Equatable, Sendable, CaseIterable {
    case everywhere, list, detail, filters
  }

  var scope: Scope
  /// How the keys are written ("↑ ↓ j k").
  var label: String
  var commands: [Key: KeyCommand]
  var name: String
  /// The panes whose hint bar shows it, and how the bar writes its keys (shorter than `label`).
  var hintIn: Set<ScreenFeature.Pane> = []
  var hintLabel: String?

  var helpKey: String { "tui.key.\(name)" }
  var hintKey: String { "tui.hint.\(name)" }
}

/// Every binding of the terminal app, in one table: the reducer dispatches through it, and the
/// help overlay and the hint bar are made from it, so a binding added here shows up everywhere.
enum KeyTable {
  static let bindings: [KeyBinding] = [
    KeyBinding(
      scope: .everywhere, label: "q", commands: [.character("q"): .quit, .control("c"): .quit],
      name: "quit", hintIn: [.filters]),
    KeyBinding(
      scope: .everywhere, label: "?", commands: [.character("?"): .help], name: "help",
      hintIn: [.list, .detail]),
    KeyBinding(
      scope: .everywhere, label: "Tab", commands: [.tab: .nextPane], name: "nextPane",
      hintIn: [.filters, .list, .detail]),
    KeyBinding(
      scope: .everywhere, label: "Shift-Tab", commands: [.backTab: .previousPane],
      name: "previousPane"),
    KeyBinding(
      scope: .everywhere, label: "Esc", commands: [.escape: .back], name: "back",
      hintIn: [.detail]),
    KeyBinding(
      scope: .everywhere, label: "/", commands: [.character("/"): .search], name: "search",
      hintIn: [.list]),
    KeyBinding(
      scope: .everywhere, label: "n", commands: [.character("n"): .newIssue], name: "newIssue",
      hintIn: [.list]),
    KeyBinding(
      scope: .everywhere, label: "c", commands: [.character("c"): .showCompleted],
      name: "showCompleted", hintIn: [.filters]),
    KeyBinding(
      scope: .everywhere, label: "a", commands: [.character("a"): .awards], name: "awards"),
    KeyBinding(
      scope: .everywhere, label: "S", commands: [.character("S"): .sync], name: "sync"),
    KeyBinding(
      scope: .everywhere, label: "E", commands: [.character("E"): .externalEditor],
      name: "externalEditor", hintIn: [.detail]),
    KeyBinding(
      scope: .everywhere, label: "Ctrl-Z", commands: [.control("z"): .suspend], name: "suspend"),
    KeyBinding(
      scope: .everywhere, label: "Ctrl-L", commands: [.control("l"): .redraw], name: "redraw"),

    KeyBinding(
      scope: .list, label: "↑ ↓ j k",
      commands: [
        .down: .issueDown, .character("j"): .issueDown, .up: .issueUp, .character("k"): .issueUp,
      ],
      name: "move", hintIn: [.list], hintLabel: "↑↓"),
    KeyBinding(
      scope: .list, label: "PgUp PgDn Home End",
      commands: [.pageUp: .pageUp, .pageDown: .pageDown, .home: .firstIssue, .end: .lastIssue],
      name: "jump"),
    KeyBinding(
      scope: .list, label: "Enter", commands: [.enter: .openIssue], name: "open", hintIn: [.list]),
    KeyBinding(
      scope: .list, label: "x", commands: [.character("x"): .toggleCompleted],
      name: "toggleCompleted", hintIn: [.list]),
    KeyBinding(
      scope: .list, label: "d", commands: [.character("d"): .deleteIssue], name: "delete",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, label: "e", commands: [.character("e"): .editIssue], name: "edit",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, label: "s", commands: [.character("s"): .sortMenu], name: "sort",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, label: "f", commands: [.character("f"): .showFilters], name: "showFilters"),

    KeyBinding(
      scope: .detail, label: "e Enter",
      commands: [.character("e"): .editIssue, .enter: .editIssue], name: "edit",
      hintIn: [.detail], hintLabel: "e"),
    KeyBinding(
      scope: .detail, label: "x", commands: [.character("x"): .toggleCompleted],
      name: "toggleCompleted", hintIn: [.detail]),
    KeyBinding(
      scope: .detail, label: "d", commands: [.character("d"): .deleteIssue], name: "delete",
      hintIn: [.detail]),
    KeyBinding(
      scope: .detail, label: "↑ ↓ j k",
      commands: [
        .down: .issueDown, .character("j"): .issueDown, .up: .issueUp, .character("k"): .issueUp,
      ],
      name: "moveInList"),

    KeyBinding(
      scope: .filters, label: "↑ ↓ j k",
      commands: [
        .down: .filterDown, .character("j"): .filterDown, .up: .filterUp,
        .character("k"): .filterUp,
      ],
      name: "move", hintIn: [.filters], hintLabel: "↑↓"),
    KeyBinding(
      scope: .filters, label: "Enter Space",
      commands: [.enter: .chooseFilter, .character(" "): .chooseFilter], name: "choose",
      hintIn: [.filters], hintLabel: "Enter"),
    KeyBinding(
      scope: .filters, label: "s", commands: [.character("s"): .tagSortMenu], name: "tagSort",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, label: "t", commands: [.character("t"): .newTag], name: "newTag",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, label: "r", commands: [.character("r"): .renameTag], name: "renameTag",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, label: "D", commands: [.character("D"): .deleteTag], name: "deleteTag",
      hintIn: [.filters]),
  ]

  /// The command of `key` with `focus`: the keys that work everywhere first, then the pane's.
  static func command(for key: Key, focus: ScreenFeature.Pane) -> KeyCommand? {
    let pane: KeyBinding.Scope =
      switch focus {
      case .filters: .filters
      case .list: .list
      case .detail: .detail
      }
    for scope in [KeyBinding.Scope.everywhere, pane] {
      for binding in bindings where binding.scope == scope {
        if let command = binding.commands[key] { return command }
      }
    }
    return nil
  }

  /// The hint bar of a pane: its bindings first, then those that work everywhere, in table order.
  static func hints(for pane: ScreenFeature.Pane) -> [KeyBinding] {
    let own = bindings.filter { $0.scope != .everywhere && $0.hintIn.contains(pane) }
    let everywhere = bindings.filter { $0.scope == .everywhere && $0.hintIn.contains(pane) }
    return own + everywhere
  }
}
