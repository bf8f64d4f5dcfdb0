import Terminal

/// What a key does. Every key of the terminal app reaches one of these through the key table,
/// except the characters typed into a text input (which are the text).
enum KeyCommand: Equatable, Sendable {
  // Browsing the panes.
  case quit, help, nextPane, previousPane, search, newIssue, awards, showCompleted, sync, back
  case recentlyDeleted, undo, redo, conflicts
  case suspend, redraw
  case filterDown, filterUp, chooseFilter, tagSortMenu, newTag, renameTag, deleteTag
  case issueDown, issueUp, pageDown, pageUp, firstIssue, lastIssue, openIssue
  case toggleCompleted, deleteIssue, editIssue, sortMenu, showFilters, externalEditor, history
  // The help, the awards, questions and menus.
  case helpLineDown, helpLineUp, helpPageDown, helpPageUp, closeHelp
  case awardLeft, awardRight, awardUp, awardDown, closeAwards
  case deletedUp, deletedDown, restoreDeleted, purgeDeleted, closeDeleted
  case conflictUp, conflictDown, useConflict, dismissConflict, closeConflicts
  case confirmYes, confirmNo
  case sortByPriority, sortByDate, sortByTitle, tagSortByName, tagSortByCount, closeMenu
  // The edit form.
  case saveForm, cancelForm, nextField, previousField, editFieldOrSave
  case priorityLower, priorityHigher, priorityLow, priorityMedium, priorityHigh
  case toggleFormCompleted, previousTag, nextTag, toggleTag, newTagInForm
  // Typing.
  case acceptInput, cancelInput, suggestionDown, suggestionUp, chooseSuggestion
  case leaveTextField, returnToPreviousField
}

/// One line of the key table: its keys, where they work, what each does, and how help and the
/// hint bar name it (catalog keys: `tui.key.NAME` for help, `tui.hint.NAME` for the hint bar).
struct KeyBinding: Equatable, Sendable {
  /// Where keys work: a pane while browsing, or a mode that takes the keys while it lasts.
  enum Scope: String, Equatable, Sendable, CaseIterable {
    case everywhere, list, detail, filters
    case help, awards, deleted, conflicts, confirm, sortMenu, tagSortMenu
    case form, formTitle, formPriority, formCompleted, formTags, formDetail
    case typing, suggestions, typingTitle, typingDetail
    /// Keys that work whatever else has the keys (Ctrl-C quits, even while typing).
    case always

    /// The scopes asked in turn when this one is current: a pane after the keys of everywhere,
    /// a field of the form before the form's own keys, the suggestions before the typing keys.
    var chain: [Scope] {
      switch self {
      case .list, .detail, .filters: [.everywhere, self]
      case .formTitle, .formPriority, .formCompleted, .formTags, .formDetail: [self, .form]
      case .suggestions: [self, .typing]
      case .typingTitle: [self, .typingDetail]
      default: [self]
      }
    }

    /// What any key the scope does not bind does (a menu or the help closes at any other key).
    var otherKeys: KeyCommand? {
      switch self {
      case .help: .closeHelp
      case .sortMenu, .tagSortMenu: .closeMenu
      default: nil
      }
    }
  }

  var scope: Scope
  var commands: [Key: KeyCommand]
  /// The keys in the order the help writes them.
  var keys: [Key]
  var name: String
  /// The scopes whose hint bar shows it, and how the bar writes its keys (shorter than `label`).
  var hintIn: Set<Scope> = []
  var hintLabel: String?
  /// Only in this language (a German `j` for "ja" answers a question).
  var language: String?

  /// `commands` are given in the order the help writes their keys.
  init(
    scope: Scope, commands: KeyValuePairs<Key, KeyCommand>, name: String,
    hintIn: Set<Scope> = [], hintLabel: String? = nil, language: String? = nil
  ) {
    self.scope = scope
    self.commands = Dictionary(commands.map { ($0.key, $0.value) }) { first, _ in first }
    keys = commands.map(\.key)
    self.name = name
    self.hintIn = hintIn
    self.hintLabel = hintLabel
    self.language = language
  }

  /// How the keys are written ("↑ ↓ j k"), made from the keys; `Ctrl-`, `Shift-` and `Space` are
  /// said in the reader's language (`KeyTable.label`).
  var label: String { keys.map(\.name).joined(separator: " ") }

  var helpKey: String { "tui.key.\(name)" }
  var hintKey: String { "tui.hint.\(name)" }
}

/// Every binding of the terminal app, in one table (`KeyTable.bindings`): the reducer dispatches
/// through it, and the help overlay and the hint bar are made from it, so a binding added there
/// shows up everywhere.
enum KeyTable {
  /// The command of `key` where `scopes` are current (the first that binds it wins), or what the
  /// first scope does with other keys.
  static func command(for key: Key, in scopes: [KeyBinding.Scope], language: String) -> KeyCommand?
  {
    for scope in scopes + [.always] {
      for binding in bindings where binding.scope == scope {
        if binding.language == nil || binding.language == language,
          let command = binding.commands[key]
        {
          return command
        }
      }
    }
    return scopes.first?.otherKeys
  }

  /// The hint bar where `scopes` are current: each scope's own bindings marked for it, then those
  /// of other scopes marked for it (the keys of everywhere a pane names), in table order. A
  /// binding whose keys all do something else here (Enter takes a suggestion rather than ending
  /// the search) is left out.
  static func hints(for scopes: [KeyBinding.Scope], language: String) -> [KeyBinding] {
    var hints: [KeyBinding] = []
    for scope in scopes where scope != .everywhere {
      let marked = bindings.filter { binding in
        binding.hintIn.contains(scope)
          && (binding.language == nil || binding.language == language)
          && binding.commands.contains { key, command in
            Self.command(for: key, in: scopes, language: language) == command
          }
      }
      for binding in marked.filter({ $0.scope == scope }) + marked.filter({ $0.scope != scope })
      where !hints.contains(binding) {
        hints.append(binding)
      }
    }
    return hints
  }

  /// How a binding's keys are written for the reader: "Ctrl-S" is "Strg-S" in German.
  static func label(_ label: String, l10n: (String) -> String) -> String {
    label.replacingOccurrences(of: "Ctrl-", with: l10n("tui.keyName.ctrl") + "-")
      .replacingOccurrences(of: "Shift-", with: l10n("tui.keyName.shift") + "-")
      .replacingOccurrences(of: "Space", with: l10n("tui.keyName.space"))
  }
}

extension ScreenFeature.State {
  /// The scopes whose keys work now, the first asked first: the mode that has the keys (help,
  /// awards, a question, a menu, typing, the edit form), or the focused pane.
  var keyScopes: [KeyBinding.Scope] {
    // The passphrase has every key while it is typed: nothing beneath it acts on a letter.
    if input == .passphrase { return [.typing] }
    if mode == .help { return [.help] }
    if app.awards != nil { return [.awards] }
    if app.deleted?.confirmingPurge != nil { return [.confirm] }
    if app.deleted != nil { return [.deleted] }
    if app.conflicts != nil { return [.conflicts] }
    if app.sidebar.confirmingDelete != nil || app.sidebar.confirmingMerge != nil
      || app.detail?.confirmingDelete == true
    {
      return [.confirm]
    }
    if let input {
      switch input {
      case .detail: return [.typingDetail]
      case .title: return KeyBinding.Scope.typingTitle.chain
      case .search where !app.list.suggestions.isEmpty: return KeyBinding.Scope.suggestions.chain
      default: return [.typing]
      }
    }
    if mode == .sortMenu { return [.sortMenu] }
    if mode == .tagSortMenu { return [.tagSortMenu] }
    if app.detail?.isEditing == true {
      switch editField {
      case .title: return KeyBinding.Scope.formTitle.chain
      case .priority: return KeyBinding.Scope.formPriority.chain
      case .completed: return KeyBinding.Scope.formCompleted.chain
      case .tags: return KeyBinding.Scope.formTags.chain
      case .detail: return KeyBinding.Scope.formDetail.chain
      }
    }
    return focus.keyScope.chain
  }
}

extension ScreenFeature.Pane {
  /// The scope of the keys of this pane.
  var keyScope: KeyBinding.Scope {
    switch self {
    case .filters: .filters
    case .list: .list
    case .detail: .detail
    }
  }
}

extension Key {
  /// How the help writes the key: "↑", "Ctrl-S", "Space", "x".
  var name: String {
    switch self {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .control(let character): "Ctrl-" + character.uppercased()
    case .alt(let character): "Alt-" + String(character)
    case .enter: "Enter"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .backspace: "Backspace"
    case .escape: "Esc"
    case .delete: "Delete"
    case .insert: "Insert"
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .function(let number): "F\(number)"
    case .paste: "Paste"
    case .mouse: "Mouse"
    case .unknown: "?"
    }
  }
}
