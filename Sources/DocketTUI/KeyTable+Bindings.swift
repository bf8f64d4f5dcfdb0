import Terminal

extension KeyTable {
  static let bindings: [KeyBinding] = browsing + modes + form + typing

  private static let panes: Set<KeyBinding.Scope> = [.filters, .list, .detail]

  /// Browsing: keys that work in every pane, then each pane's.
  private static let browsing: [KeyBinding] = [
    KeyBinding(
      scope: .everywhere, label: "q", commands: [.character("q"): .quit], name: "quit",
      hintIn: [.filters]),
    KeyBinding(
      scope: .always, label: "Ctrl-C", commands: [.control("c"): .quit], name: "quitNow"),
    KeyBinding(
      scope: .everywhere, label: "?", commands: [.character("?"): .help], name: "help",
      hintIn: [.list, .detail]),
    KeyBinding(
      scope: .everywhere, label: "Tab", commands: [.tab: .nextPane], name: "nextPane",
      hintIn: panes),
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
      scope: .everywhere, label: "H", commands: [.character("H"): .history], name: "history",
      hintIn: [.detail]),
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

  /// The help, the awards, questions and menus: while one shows, it has the keys.
  private static let modes: [KeyBinding] = [
    KeyBinding(
      scope: .help, label: "↑ ↓ j k",
      commands: [
        .down: .helpLineDown, .character("j"): .helpLineDown, .up: .helpLineUp,
        .character("k"): .helpLineUp,
      ],
      name: "helpScroll", hintIn: [.help], hintLabel: "↑↓"),
    KeyBinding(
      scope: .help, label: "PgUp PgDn",
      commands: [.pageDown: .helpPageDown, .pageUp: .helpPageUp], name: "helpPage"),
    KeyBinding(
      scope: .help, label: "Esc q", commands: [.escape: .closeHelp, .character("q"): .closeHelp],
      name: "close", hintIn: [.help], hintLabel: "Esc"),

    KeyBinding(
      scope: .awards, label: "← → ↑ ↓ h l k j",
      commands: [
        .left: .awardLeft, .character("h"): .awardLeft, .right: .awardRight,
        .character("l"): .awardRight, .up: .awardUp, .character("k"): .awardUp,
        .down: .awardDown, .character("j"): .awardDown,
      ],
      name: "chooseAward", hintIn: [.awards], hintLabel: "← → ↑ ↓"),
    KeyBinding(
      scope: .awards, label: "Esc q a Enter",
      commands: [
        .escape: .closeAwards, .character("q"): .closeAwards, .character("a"): .closeAwards,
        .enter: .closeAwards,
      ],
      name: "close", hintIn: [.awards], hintLabel: "Esc"),

    KeyBinding(
      scope: .confirm, label: "y Enter",
      commands: [.character("y"): .confirmYes, .enter: .confirmYes],
      name: "yes", hintIn: [.confirm], hintLabel: "Enter"),
    KeyBinding(
      scope: .confirm, label: "j", commands: [.character("j"): .confirmYes], name: "yesGerman",
      language: "de"),
    KeyBinding(
      scope: .confirm, label: "n Esc q",
      commands: [.character("n"): .confirmNo, .escape: .confirmNo, .character("q"): .confirmNo],
      name: "no", hintIn: [.confirm], hintLabel: "Esc"),

    KeyBinding(
      scope: .sortMenu, label: "p", commands: [.character("p"): .sortByPriority],
      name: "sortPriority", hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, label: "d", commands: [.character("d"): .sortByDate], name: "sortDate",
      hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, label: "t", commands: [.character("t"): .sortByTitle], name: "sortTitle",
      hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, label: "Esc", commands: [.escape: .closeMenu], name: "close",
      hintIn: [.sortMenu, .tagSortMenu]),
    KeyBinding(
      scope: .tagSortMenu, label: "n", commands: [.character("n"): .tagSortByName],
      name: "tagSortName", hintIn: [.tagSortMenu]),
    KeyBinding(
      scope: .tagSortMenu, label: "c", commands: [.character("c"): .tagSortByCount],
      name: "tagSortCount", hintIn: [.tagSortMenu]),
  ]

  /// The edit form: the keys of every field, then each field's own.
  private static let formFields: Set<KeyBinding.Scope> = [
    .form, .formTitle, .formPriority, .formCompleted, .formTags, .formDetail,
  ]
  private static let form: [KeyBinding] = [
    KeyBinding(
      scope: .form, label: "Tab ↓", commands: [.tab: .nextField, .down: .nextField],
      name: "nextField", hintIn: formFields, hintLabel: "Tab"),
    KeyBinding(
      scope: .form, label: "Shift-Tab ↑",
      commands: [.backTab: .previousField, .up: .previousField], name: "previousField"),
    KeyBinding(
      scope: .form, label: "Enter", commands: [.enter: .editFieldOrSave], name: "editOrSave",
      hintIn: [.formTitle, .formDetail]),
    KeyBinding(
      scope: .form, label: "Ctrl-S", commands: [.control("s"): .saveForm], name: "save",
      hintIn: formFields),
    KeyBinding(
      scope: .form, label: "Esc", commands: [.escape: .cancelForm], name: "cancel",
      hintIn: formFields),
    KeyBinding(
      scope: .formPriority, label: "← →",
      commands: [.left: .priorityLower, .right: .priorityHigher], name: "priorityStep",
      hintIn: [.formPriority]),
    KeyBinding(
      scope: .formPriority, label: "l m h",
      commands: [
        .character("l"): .priorityLow, .character("m"): .priorityMedium,
        .character("h"): .priorityHigh,
      ],
      name: "priorityPick", hintIn: [.formPriority]),
    KeyBinding(
      scope: .formCompleted, label: "Space x",
      commands: [.character(" "): .toggleFormCompleted, .character("x"): .toggleFormCompleted],
      name: "completedToggle", hintIn: [.formCompleted]),
    KeyBinding(
      scope: .formTags, label: "← →", commands: [.left: .previousTag, .right: .nextTag],
      name: "tagStep", hintIn: [.formTags]),
    KeyBinding(
      scope: .formTags, label: "Space x",
      commands: [.character(" "): .toggleTag, .character("x"): .toggleTag], name: "tagToggle",
      hintIn: [.formTags]),
    KeyBinding(
      scope: .formTags, label: "t +",
      commands: [.character("t"): .newTagInForm, .character("+"): .newTagInForm],
      name: "tagNew", hintIn: [.formTags], hintLabel: "t"),
    KeyBinding(
      scope: .formDetail, label: "E", commands: [.character("E"): .externalEditor],
      name: "externalEditor", hintIn: [.formDetail]),
  ]

  /// Typing into a text input: these keys; every other key edits the text.
  private static let typing: [KeyBinding] = [
    KeyBinding(
      scope: .typing, label: "Enter", commands: [.enter: .acceptInput], name: "done",
      hintIn: [.typing, .suggestions]),
    KeyBinding(
      scope: .typing, label: "Esc", commands: [.escape: .cancelInput], name: "cancelTyping",
      hintIn: [.typing, .suggestions]),
    KeyBinding(
      scope: .suggestions, label: "↑ ↓", commands: [.down: .suggestionDown, .up: .suggestionUp],
      name: "suggestionMove", hintIn: [.suggestions], hintLabel: "↑↓"),
    KeyBinding(
      scope: .suggestions, label: "Enter Tab",
      commands: [.enter: .chooseSuggestion, .tab: .chooseSuggestion], name: "suggestionChoose",
      hintIn: [.suggestions], hintLabel: "Tab"),
    KeyBinding(
      scope: .typingTitle, label: "Enter", commands: [.enter: .acceptInput], name: "done",
      hintIn: [.typingTitle]),
    KeyBinding(
      scope: .typingDetail, label: "Tab", commands: [.tab: .leaveTextField], name: "nextField",
      hintIn: [.typingTitle, .typingDetail]),
    KeyBinding(
      scope: .typingDetail, label: "Shift-Tab", commands: [.backTab: .returnToPreviousField],
      name: "previousField"),
    KeyBinding(
      scope: .typingDetail, label: "Ctrl-S", commands: [.control("s"): .saveForm], name: "save",
      hintIn: [.typingTitle, .typingDetail]),
    KeyBinding(
      scope: .typingDetail, label: "Esc", commands: [.escape: .cancelForm], name: "cancel",
      hintIn: [.typingTitle, .typingDetail]),
  ]
}
