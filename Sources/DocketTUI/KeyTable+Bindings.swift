import Terminal

extension KeyTable {
  static let bindings: [KeyBinding] = browsing + modes + form + typing

  private static let panes: Set<KeyBinding.Scope> = [.filters, .list, .detail]

  /// Browsing: keys that work in every pane, then each pane's.
  private static let browsing: [KeyBinding] = [
    KeyBinding(
      scope: .everywhere, commands: [.character("q"): .quit], name: "quit",
      hintIn: [.filters]),
    KeyBinding(
      scope: .always, commands: [.control("c"): .quit], name: "quitNow"),
    KeyBinding(
      scope: .everywhere, commands: [.character("?"): .help], name: "help",
      hintIn: [.list, .detail]),
    KeyBinding(
      scope: .everywhere, commands: [.tab: .nextPane], name: "nextPane",
      hintIn: panes),
    KeyBinding(
      scope: .everywhere, commands: [.backTab: .previousPane],
      name: "previousPane"),
    KeyBinding(
      scope: .everywhere, commands: [.escape: .back], name: "back",
      hintIn: [.detail]),
    KeyBinding(
      scope: .everywhere, commands: [.character("/"): .search], name: "search",
      hintIn: [.list]),
    KeyBinding(
      scope: .everywhere, commands: [.character("n"): .newIssue], name: "newIssue",
      hintIn: [.list]),
    KeyBinding(
      scope: .everywhere, commands: [.character("c"): .showCompleted],
      name: "showCompleted", hintIn: [.filters]),
    KeyBinding(
      scope: .everywhere, commands: [.character("a"): .awards], name: "awards"),
    KeyBinding(
      scope: .everywhere, commands: [.character("R"): .recentlyDeleted], name: "recentlyDeleted"),
    KeyBinding(
      scope: .everywhere, commands: [.character("C"): .conflicts], name: "conflicts"),
    KeyBinding(
      scope: .everywhere, commands: [.character("u"): .undo], name: "undo", hintIn: [.list]),
    KeyBinding(
      scope: .everywhere, commands: [.character("U"): .redo], name: "redo"),
    KeyBinding(
      scope: .everywhere, commands: [.character("S"): .sync], name: "sync"),
    KeyBinding(
      scope: .everywhere, commands: [.character("E"): .externalEditor],
      name: "externalEditor", hintIn: [.detail]),
    KeyBinding(
      scope: .everywhere, commands: [.character("H"): .history], name: "history",
      hintIn: [.detail]),
    KeyBinding(
      scope: .everywhere, commands: [.control("z"): .suspend], name: "suspend"),
    KeyBinding(
      scope: .everywhere, commands: [.control("l"): .redraw], name: "redraw"),

    KeyBinding(
      scope: .list,
      commands: [
        .up: .issueUp, .down: .issueDown, .character("j"): .issueDown, .character("k"): .issueUp,
      ],
      name: "move", hintIn: [.list], hintLabel: "↑↓"),
    KeyBinding(
      scope: .list,
      commands: [.pageUp: .pageUp, .pageDown: .pageDown, .home: .firstIssue, .end: .lastIssue],
      name: "jump"),
    KeyBinding(
      scope: .list, commands: [.enter: .openIssue], name: "open", hintIn: [.list]),
    KeyBinding(
      scope: .list, commands: [.character("x"): .toggleCompleted],
      name: "toggleCompleted", hintIn: [.list]),
    KeyBinding(
      scope: .list, commands: [.character("d"): .deleteIssue], name: "delete",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, commands: [.character("e"): .editIssue], name: "edit",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, commands: [.character("s"): .sortMenu], name: "sort",
      hintIn: [.list]),
    KeyBinding(
      scope: .list, commands: [.character("f"): .showFilters], name: "showFilters"),

    KeyBinding(
      scope: .detail, commands: [.character("e"): .editIssue, .enter: .editIssue], name: "edit",
      hintIn: [.detail], hintLabel: "e"),
    KeyBinding(
      scope: .detail, commands: [.character("x"): .toggleCompleted],
      name: "toggleCompleted", hintIn: [.detail]),
    KeyBinding(
      scope: .detail, commands: [.character("d"): .deleteIssue], name: "delete",
      hintIn: [.detail]),
    KeyBinding(
      scope: .detail,
      commands: [
        .up: .issueUp, .down: .issueDown, .character("j"): .issueDown, .character("k"): .issueUp,
      ],
      name: "moveInList"),

    KeyBinding(
      scope: .filters,
      commands: [
        .up: .filterUp, .down: .filterDown, .character("j"): .filterDown,
        .character("k"): .filterUp,
      ],
      name: "move", hintIn: [.filters], hintLabel: "↑↓"),
    KeyBinding(
      scope: .filters, commands: [.enter: .chooseFilter, .character(" "): .chooseFilter],
      name: "choose",
      hintIn: [.filters], hintLabel: "Enter"),
    KeyBinding(
      scope: .filters, commands: [.character("s"): .tagSortMenu], name: "tagSort",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, commands: [.character("t"): .newTag], name: "newTag",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, commands: [.character("r"): .renameTag], name: "renameTag",
      hintIn: [.filters]),
    KeyBinding(
      scope: .filters, commands: [.character("D"): .deleteTag], name: "deleteTag",
      hintIn: [.filters]),
  ]

  /// The help, the awards, questions and menus: while one shows, it has the keys.
  private static let modes: [KeyBinding] = [
    KeyBinding(
      scope: .help,
      commands: [
        .up: .helpLineUp, .down: .helpLineDown, .character("j"): .helpLineDown,
        .character("k"): .helpLineUp,
      ],
      name: "helpScroll", hintIn: [.help], hintLabel: "↑↓"),
    KeyBinding(
      scope: .help, commands: [.pageUp: .helpPageUp, .pageDown: .helpPageDown], name: "helpPage"),
    KeyBinding(
      scope: .help, commands: [.escape: .closeHelp, .character("q"): .closeHelp],
      name: "close", hintIn: [.help], hintLabel: "Esc"),

    KeyBinding(
      scope: .awards,
      commands: [
        .left: .awardLeft, .right: .awardRight, .up: .awardUp, .down: .awardDown,
        .character("h"): .awardLeft, .character("l"): .awardRight, .character("k"): .awardUp,
        .character("j"): .awardDown,
      ],
      name: "chooseAward", hintIn: [.awards], hintLabel: "← → ↑ ↓"),
    KeyBinding(
      scope: .awards,
      commands: [
        .escape: .closeAwards, .character("q"): .closeAwards, .character("a"): .closeAwards,
        .enter: .closeAwards,
      ],
      name: "close", hintIn: [.awards], hintLabel: "Esc"),

    KeyBinding(
      scope: .deleted,
      commands: [
        .up: .deletedUp, .down: .deletedDown, .character("k"): .deletedUp,
        .character("j"): .deletedDown,
      ],
      name: "chooseDeleted", hintIn: [.deleted], hintLabel: "↑↓"),
    KeyBinding(
      scope: .deleted, commands: [.character("r"): .restoreDeleted, .enter: .restoreDeleted],
      name: "restoreDeleted", hintIn: [.deleted], hintLabel: "r"),
    KeyBinding(
      scope: .deleted, commands: [.character("D"): .purgeDeleted],
      name: "purgeDeleted", hintIn: [.deleted], hintLabel: "D"),
    KeyBinding(
      scope: .deleted,
      commands: [
        .escape: .closeDeleted, .character("q"): .closeDeleted, .character("R"): .closeDeleted,
      ],
      name: "close", hintIn: [.deleted], hintLabel: "Esc"),

    KeyBinding(
      scope: .conflicts,
      commands: [
        .up: .conflictUp, .down: .conflictDown, .character("k"): .conflictUp,
        .character("j"): .conflictDown,
      ],
      name: "chooseConflict", hintIn: [.conflicts], hintLabel: "↑↓"),
    KeyBinding(
      scope: .conflicts, commands: [.character("u"): .useConflict, .enter: .useConflict],
      name: "useConflict", hintIn: [.conflicts], hintLabel: "u"),
    KeyBinding(
      scope: .conflicts, commands: [.character("d"): .dismissConflict],
      name: "dismissConflict", hintIn: [.conflicts], hintLabel: "d"),
    KeyBinding(
      scope: .conflicts,
      commands: [
        .escape: .closeConflicts, .character("q"): .closeConflicts,
        .character("C"): .closeConflicts,
      ],
      name: "close", hintIn: [.conflicts], hintLabel: "Esc"),

    KeyBinding(
      scope: .confirm, commands: [.character("y"): .confirmYes, .enter: .confirmYes],
      name: "yes", hintIn: [.confirm], hintLabel: "Enter"),
    KeyBinding(
      scope: .confirm, commands: [.character("j"): .confirmYes], name: "yesGerman",
      language: "de"),
    KeyBinding(
      scope: .confirm,
      commands: [.character("n"): .confirmNo, .escape: .confirmNo, .character("q"): .confirmNo],
      name: "no", hintIn: [.confirm], hintLabel: "Esc"),

    KeyBinding(
      scope: .sortMenu, commands: [.character("p"): .sortByPriority],
      name: "sortPriority", hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, commands: [.character("d"): .sortByDate], name: "sortDate",
      hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, commands: [.character("t"): .sortByTitle], name: "sortTitle",
      hintIn: [.sortMenu]),
    KeyBinding(
      scope: .sortMenu, commands: [.escape: .closeMenu], name: "close",
      hintIn: [.sortMenu, .tagSortMenu]),
    KeyBinding(
      scope: .tagSortMenu, commands: [.character("n"): .tagSortByName],
      name: "tagSortName", hintIn: [.tagSortMenu]),
    KeyBinding(
      scope: .tagSortMenu, commands: [.character("c"): .tagSortByCount],
      name: "tagSortCount", hintIn: [.tagSortMenu]),
  ]

  /// The edit form: the keys of every field, then each field's own.
  private static let formFields: Set<KeyBinding.Scope> = [
    .form, .formTitle, .formPriority, .formCompleted, .formTags, .formDetail,
  ]
  private static let form: [KeyBinding] = [
    KeyBinding(
      scope: .form, commands: [.tab: .nextField, .down: .nextField],
      name: "nextField", hintIn: formFields, hintLabel: "Tab"),
    KeyBinding(
      scope: .form, commands: [.backTab: .previousField, .up: .previousField], name: "previousField"
    ),
    KeyBinding(
      scope: .form, commands: [.enter: .editFieldOrSave], name: "editOrSave",
      hintIn: [.formTitle, .formDetail]),
    KeyBinding(
      scope: .form, commands: [.control("s"): .saveForm], name: "save",
      hintIn: formFields),
    KeyBinding(
      scope: .form, commands: [.escape: .cancelForm], name: "cancel",
      hintIn: formFields),
    KeyBinding(
      scope: .formPriority, commands: [.left: .priorityLower, .right: .priorityHigher],
      name: "priorityStep",
      hintIn: [.formPriority]),
    KeyBinding(
      scope: .formPriority,
      commands: [
        .character("l"): .priorityLow, .character("m"): .priorityMedium,
        .character("h"): .priorityHigh,
      ],
      name: "priorityPick", hintIn: [.formPriority]),
    KeyBinding(
      scope: .formCompleted,
      commands: [.character(" "): .toggleFormCompleted, .character("x"): .toggleFormCompleted],
      name: "completedToggle", hintIn: [.formCompleted]),
    KeyBinding(
      scope: .formTags, commands: [.left: .previousTag, .right: .nextTag],
      name: "tagStep", hintIn: [.formTags]),
    KeyBinding(
      scope: .formTags, commands: [.character(" "): .toggleTag, .character("x"): .toggleTag],
      name: "tagToggle",
      hintIn: [.formTags]),
    KeyBinding(
      scope: .formTags, commands: [.character("t"): .newTagInForm, .character("+"): .newTagInForm],
      name: "tagNew", hintIn: [.formTags], hintLabel: "t"),
    KeyBinding(
      scope: .formDetail, commands: [.character("E"): .externalEditor],
      name: "externalEditor", hintIn: [.formDetail]),
  ]

  /// Typing into a text input: these keys; every other key edits the text.
  private static let typing: [KeyBinding] = [
    KeyBinding(
      scope: .typing, commands: [.enter: .acceptInput], name: "done",
      hintIn: [.typing, .suggestions]),
    KeyBinding(
      scope: .typing, commands: [.escape: .cancelInput], name: "cancelTyping",
      hintIn: [.typing, .suggestions]),
    KeyBinding(
      scope: .suggestions, commands: [.up: .suggestionUp, .down: .suggestionDown],
      name: "suggestionMove", hintIn: [.suggestions], hintLabel: "↑↓"),
    KeyBinding(
      scope: .suggestions, commands: [.enter: .chooseSuggestion, .tab: .chooseSuggestion],
      name: "suggestionChoose",
      hintIn: [.suggestions], hintLabel: "Tab"),
    KeyBinding(
      scope: .typingTitle, commands: [.enter: .acceptInput], name: "done",
      hintIn: [.typingTitle]),
    KeyBinding(
      scope: .typingDetail, commands: [.tab: .leaveTextField], name: "nextField",
      hintIn: [.typingTitle, .typingDetail]),
    KeyBinding(
      scope: .typingDetail, commands: [.backTab: .returnToPreviousField],
      name: "previousField"),
    KeyBinding(
      scope: .typingDetail, commands: [.control("s"): .saveForm], name: "save",
      hintIn: [.typingTitle, .typingDetail]),
    KeyBinding(
      scope: .typingDetail, commands: [.escape: .cancelForm], name: "cancel",
      hintIn: [.typingTitle, .typingDetail]),
  ]
}
