import DocketCore
import Localization
import Terminal

/// What a command accepts: its options and its arguments. The parser, the help text and the
/// shell completions are all made from these.
struct OptionSpec: Sendable {
  enum Kind: Sendable {
    /// A switch: `--json`.
    case flag
    /// Takes a value: `--priority high`, `--priority=high`.
    case value(name: String)
  }

  var name: String
  var short: Character?
  var kind: Kind
  var repeatable = false
  /// Catalog key of the one-line help.
  var help: String
  /// Values offered by shell completion.
  var choices: [String] = []
  /// Whether the parser refuses any value but `choices` (read ignoring case), or, where
  /// `admits` is given, any value it refuses (`--priority h` is high).
  var onlyChoices = false
  var admits: (@Sendable (String) -> Bool)?
  /// What shell completion offers for the value, where it is not `choices`.
  var values: CompletedValues?

  /// What shell completion offers after this option.
  var completion: CompletedValues {
    if let values { return values }
    return choices.isEmpty ? .nothing : .choices(choices)
  }

  var takesValue: Bool {
    if case .value = kind { return true }
    return false
  }
}

/// What shell completion offers for a value or an argument.
enum CompletedValues: Equatable, Sendable {
  case nothing
  case choices([String])
  /// File and folder names.
  case files
  /// The database's tag names.
  case tags
  /// Tag names, each also with `+` and `-` before it (`edit --tag`).
  case tagChanges
  /// The filters, and `tag:` with each tag name.
  case filter
}

struct CommandSpec: Sendable {
  var name: String
  /// Catalog key of the one-line summary.
  var summary: String
  var usage: String
  var options: [OptionSpec] = []
  var subcommands: [CommandSpec] = []
  /// How many words are required, and the most allowed (nil: any number).
  var minimumArguments = 0
  var maximumArguments: Int? = 0
  /// Words starting with `-` that are not options are arguments (search words such as
  /// `-tag:Bug`), not errors.
  var dashWordsAreArguments = false
  /// Catalog key of examples shown in the command's help.
  var examples: String?
  /// With subcommands, the command alone does something too (`docket device` shows the device).
  var runsAlone = false
  /// Values offered by shell completion for the arguments.
  var argumentChoices: [String] = []
  /// What shell completion offers for the arguments, where it is not `argumentChoices`.
  var argumentValues: CompletedValues?
  /// What the command does; nil for one that only holds subcommands (`docket tag`).
  var run: (@Sendable (CommandContext) throws -> Void)?

  var argumentCompletion: CompletedValues {
    if let argumentValues { return argumentValues }
    return argumentChoices.isEmpty ? .nothing : .choices(argumentChoices)
  }

  /// The options this command takes: its own and every command's; with no command (the
  /// terminal app), the app's too.
  var allOptions: [OptionSpec] {
    options + CommandSpec.globalOptions + (name.isEmpty ? CommandSpec.appOptions : [])
  }

  func option(named name: String) -> OptionSpec? {
    allOptions.first { $0.name == name }
  }

  func option(short: Character) -> OptionSpec? {
    allOptions.first { $0.short == short }
  }

  /// Options every command takes.
  static let globalOptions: [OptionSpec] = [
    OptionSpec(name: "db", kind: .value(name: "PATH"), help: "option.db", values: .files),
    OptionSpec(
      name: "lang", kind: .value(name: DocketStrings.supportedLanguages.joined(separator: "|")),
      help: "option.lang", choices: DocketStrings.supportedLanguages, onlyChoices: true,
      admits: { LanguageDetection.match($0, in: DocketStrings.supportedLanguages) != nil }),
    OptionSpec(name: "help", short: "h", kind: .flag, help: "option.help"),
  ]

  /// Options of the terminal app (`docket` with no command), which no command takes.
  static let appOptions: [OptionSpec] = [
    OptionSpec(name: "screen-reader", kind: .flag, help: "option.screenReader"),
    OptionSpec(name: "no-mouse", kind: .flag, help: "option.noMouse"),
    OptionSpec(
      name: "theme",
      kind: .value(name: Palette.Theme.allCases.map(\.rawValue).joined(separator: "|")),
      help: "option.theme", choices: Palette.Theme.allCases.map(\.rawValue), onlyChoices: true),
  ]

  static let json = OptionSpec(name: "json", kind: .flag, help: "option.json")
  static let passphraseFile = OptionSpec(
    name: "passphrase-file", kind: .value(name: "FILE"), help: "option.passphraseFile",
    values: .files)
  static let detail = OptionSpec(
    name: "detail", short: "d", kind: .value(name: "TEXT"), help: "option.detail")
  static let priority = OptionSpec(
    name: "priority", short: "p", kind: .value(name: "low|medium|high"), help: "option.priority",
    choices: ["low", "medium", "high"], onlyChoices: true, admits: { Priority(name: $0) != nil })
  static let yes = OptionSpec(name: "yes", short: "y", kind: .flag, help: "option.yes")
}

extension CommandSpec {
  /// Every command of Docket, in the order help lists them, with what each does: the parser,
  /// the help, the manual, the completions and the dispatch are all made from this list.
  static let all: [CommandSpec] = {
    let commands = allButHelp
    return commands + [
      CommandSpec(
        name: "help", summary: "command.help.summary", usage: "docket help [COMMAND]",
        maximumArguments: 2, argumentChoices: commands.map(\.name) + ["help"],
        run: { try HelpCommand(context: $0).command($0.arguments.arguments) })
    ]
  }()

  private static let allButHelp: [CommandSpec] = [
    CommandSpec(
      name: "add", summary: "command.add.summary",
      usage:
        "docket add TITLE [--detail TEXT] [--priority low|medium|high] [--tag NAME]... [--completed]",
      options: [
        detail, priority,
        OptionSpec(
          name: "tag", short: "t", kind: .value(name: "NAME"), repeatable: true,
          help: "option.tag.add", values: .tags),
        OptionSpec(name: "completed", kind: .flag, help: "option.completed"),
        json,
      ],
      minimumArguments: 1, maximumArguments: nil, examples: "command.add.examples",
      run: { try AddCommand(context: $0).run() }),
    CommandSpec(
      name: "list", summary: "command.list.summary",
      usage:
        "docket list [QUERY...] [--filter open|completed|recent|all|deleted|tag:NAME] [--sort priority|date|title] [--asc|--desc] [--remember] [--show-completed|--hide-completed] [--limit N]",
      options: [
        OptionSpec(
          name: "filter", short: "f", kind: .value(name: "FILTER"), help: "option.filter",
          choices: ["open", "completed", "recent", "all", "deleted", "conflicts"], values: .filter),
        OptionSpec(
          name: "sort", short: "s", kind: .value(name: "priority|date|title"), help: "option.sort",
          choices: IssueSort.Field.allCases.map(\.rawValue), onlyChoices: true),
        OptionSpec(name: "asc", kind: .flag, help: "option.asc"),
        OptionSpec(name: "desc", kind: .flag, help: "option.desc"),
        OptionSpec(name: "remember", kind: .flag, help: "option.remember"),
        OptionSpec(name: "show-completed", kind: .flag, help: "option.showCompleted"),
        OptionSpec(name: "hide-completed", kind: .flag, help: "option.hideCompleted"),
        OptionSpec(name: "limit", short: "n", kind: .value(name: "N"), help: "option.limit"),
        json,
      ],
      maximumArguments: nil, dashWordsAreArguments: true, examples: "command.list.examples",
      run: { try ListCommand(context: $0).run() }),
    CommandSpec(
      name: "show", summary: "command.show.summary", usage: "docket show REF", options: [json],
      minimumArguments: 1, maximumArguments: 1, examples: "command.show.examples",
      run: { try ShowCommand(context: $0).run() }),
    CommandSpec(
      name: "edit", summary: "command.edit.summary",
      usage: "docket edit REF [--title T] [--detail D] [--priority P] [--tag NAME|+NAME|-NAME]...",
      options: [
        OptionSpec(name: "title", kind: .value(name: "TEXT"), help: "option.title"),
        detail, priority,
        OptionSpec(
          name: "tag", short: "t", kind: .value(name: "[+|-]NAME"), repeatable: true,
          help: "option.tag.edit", values: .tagChanges),
        json,
      ],
      minimumArguments: 1, maximumArguments: 1, examples: "command.edit.examples",
      run: { try EditCommand(context: $0).run() }),
    CommandSpec(
      name: "close", summary: "command.close.summary", usage: "docket close REF...",
      options: [json], minimumArguments: 1, maximumArguments: nil,
      run: { try CompletionCommand(context: $0, completed: true).run() }),
    CommandSpec(
      name: "reopen", summary: "command.reopen.summary", usage: "docket reopen REF...",
      options: [json], minimumArguments: 1, maximumArguments: nil,
      run: { try CompletionCommand(context: $0, completed: false).run() }),
    CommandSpec(
      name: "delete", summary: "command.delete.summary",
      usage: "docket delete REF... [--now] [--yes]",
      options: [OptionSpec(name: "now", kind: .flag, help: "option.deleteNow"), yes],
      minimumArguments: 1, maximumArguments: nil,
      run: { try DeleteCommand(context: $0).run() }),
    CommandSpec(
      name: "restore", summary: "command.restore.summary", usage: "docket restore REF...",
      options: [json], minimumArguments: 1, maximumArguments: nil,
      examples: "command.restore.examples",
      run: { try RestoreCommand(context: $0).run() }),
    CommandSpec(
      name: "undo", summary: "command.undo.summary", usage: "docket undo [--list] [--json]",
      options: [OptionSpec(name: "list", short: "l", kind: .flag, help: "option.undoList"), json],
      examples: "command.undo.examples",
      run: { try UndoCommand(context: $0, redo: false).run() }),
    CommandSpec(
      name: "redo", summary: "command.redo.summary", usage: "docket redo [--list] [--json]",
      options: [OptionSpec(name: "list", short: "l", kind: .flag, help: "option.undoList"), json],
      run: { try UndoCommand(context: $0, redo: true).run() }),
    CommandSpec(
      name: "conflicts", summary: "command.conflicts.summary",
      usage: "docket conflicts [use ID | dismiss ID|--all] [--json]",
      options: [json],
      subcommands: [
        CommandSpec(
          name: "use", summary: "command.conflicts.use.summary", usage: "docket conflicts use ID",
          options: [json], minimumArguments: 1, maximumArguments: 1,
          run: { try ConflictsCommand(context: $0).use() }),
        CommandSpec(
          name: "dismiss", summary: "command.conflicts.dismiss.summary",
          usage: "docket conflicts dismiss ID|--all",
          options: [OptionSpec(name: "all", kind: .flag, help: "option.dismissAll"), json],
          maximumArguments: 1,
          run: { try ConflictsCommand(context: $0).dismiss() }),
      ],
      examples: "command.conflicts.examples", runsAlone: true,
      run: { try ConflictsCommand(context: $0).list() }),
    CommandSpec(
      name: "tag", summary: "command.tag.summary", usage: "docket tag list|add|rename|delete",
      subcommands: [
        CommandSpec(
          name: "list", summary: "command.tag.list.summary",
          usage: "docket tag list [--sort name|count] [--asc|--desc] [--remember]",
          options: [
            OptionSpec(
              name: "sort", short: "s", kind: .value(name: "name|count"), help: "option.tagSort",
              choices: TagSort.Field.allCases.map(\.rawValue), onlyChoices: true),
            OptionSpec(name: "asc", kind: .flag, help: "option.asc"),
            OptionSpec(name: "desc", kind: .flag, help: "option.desc"),
            OptionSpec(name: "remember", kind: .flag, help: "option.remember"),
            json,
          ], run: { try TagCommands(context: $0).list() }),
        CommandSpec(
          name: "add", summary: "command.tag.add.summary", usage: "docket tag add NAME",
          options: [json], minimumArguments: 1, maximumArguments: nil,
          run: { try TagCommands(context: $0).add() }),
        CommandSpec(
          name: "rename", summary: "command.tag.rename.summary",
          usage: "docket tag rename OLD NEW [--merge]",
          options: [OptionSpec(name: "merge", kind: .flag, help: "option.merge"), json],
          minimumArguments: 2, maximumArguments: 2, argumentValues: .tags,
          run: { try TagCommands(context: $0).rename() }),
        CommandSpec(
          name: "delete", summary: "command.tag.delete.summary",
          usage: "docket tag delete NAME [--yes]",
          options: [yes], minimumArguments: 1, maximumArguments: 1, argumentValues: .tags,
          run: { try TagCommands(context: $0).delete() }),
      ]),
    CommandSpec(
      name: "awards", summary: "command.awards.summary", usage: "docket awards", options: [json],
      run: { try AwardsCommand(context: $0).run() }),
    CommandSpec(
      name: "device", summary: "command.device.summary", usage: "docket device [name NAME]",
      options: [json],
      subcommands: [
        CommandSpec(
          name: "name", summary: "command.device.name.summary", usage: "docket device name NAME",
          options: [json], minimumArguments: 1, maximumArguments: nil,
          run: { try DeviceCommand(context: $0).name() })
      ], runsAlone: true, run: { try DeviceCommand(context: $0).show() }),
    CommandSpec(
      name: "sample-data", summary: "command.sample.summary", usage: "docket sample-data",
      run: { try SampleDataCommand(context: $0).run() }),
    CommandSpec(
      name: "sync", summary: "command.sync.summary",
      usage: "docket sync [--passphrase-file FILE] [--json]",
      options: [passphraseFile, json], examples: "command.sync.examples",
      run: { try SyncCommands(context: $0).sync() }),
    CommandSpec(
      name: "remote", summary: "command.remote.summary",
      usage:
        "docket remote set PATH|URL [--encrypt] | docket remote show | docket remote remove | docket remote encrypt | docket remote passphrase",
      options: [json],
      subcommands: [
        CommandSpec(
          name: "set", summary: "command.remote.set.summary",
          usage: "docket remote set PATH|URL [--space NAME] [--encrypt] [--passphrase-file FILE]",
          options: [
            OptionSpec(name: "space", kind: .value(name: "NAME"), help: "option.space"),
            OptionSpec(name: "encrypt", kind: .flag, help: "option.encrypt"), passphraseFile,
            json,
          ], minimumArguments: 1, maximumArguments: nil, argumentValues: .files,
          run: { try SyncCommands(context: $0).setRemote() }),
        CommandSpec(
          name: "encrypt", summary: "command.remote.encrypt.summary",
          usage: "docket remote encrypt [--passphrase-file FILE]",
          options: [passphraseFile, json],
          run: { try EncryptionCommands(context: $0).encrypt() }),
        CommandSpec(
          name: "passphrase", summary: "command.remote.passphrase.summary",
          usage: "docket remote passphrase [--passphrase-file FILE] [--new-passphrase-file FILE]",
          options: [
            passphraseFile,
            OptionSpec(
              name: "new-passphrase-file", kind: .value(name: "FILE"),
              help: "option.newPassphraseFile", values: .files),
            json,
          ],
          run: { try EncryptionCommands(context: $0).changePassphrase() }),
        CommandSpec(
          name: "show", summary: "command.remote.show.summary", usage: "docket remote show",
          options: [json], run: { try SyncCommands(context: $0).showRemote() }),
        CommandSpec(
          name: "remove", summary: "command.remote.remove.summary", usage: "docket remote remove",
          options: [json], run: { try SyncCommands(context: $0).removeRemote() }),
      ], runsAlone: true, run: { try SyncCommands(context: $0).showRemote() }),
    CommandSpec(
      name: "history", summary: "command.history.summary", usage: "docket history REF [--json]",
      options: [json], minimumArguments: 1, maximumArguments: 1,
      run: { try SyncCommands(context: $0).history() }),
    CommandSpec(
      name: "import", summary: "command.import.summary",
      usage:
        "docket import FILE|- [--format docket|taskwarrior|github] [--dry-run] [--restore-deleted]",
      options: [
        OptionSpec(
          name: "format", short: "f", kind: .value(name: "FORMAT"), help: "option.importFormat",
          choices: ["docket", "taskwarrior", "github"], onlyChoices: true),
        OptionSpec(name: "repo", kind: .value(name: "OWNER/NAME"), help: "option.repo"),
        OptionSpec(name: "dry-run", kind: .flag, help: "option.dryRun"),
        OptionSpec(name: "restore-deleted", kind: .flag, help: "option.restoreDeleted"),
        json,
      ],
      minimumArguments: 1, maximumArguments: 1, examples: "command.import.examples",
      argumentValues: .files, run: { try ImportCommand(context: $0).run() }),
    CommandSpec(
      name: "export", summary: "command.export.summary",
      usage: "docket export [--format docket|taskwarrior|csv] [-o FILE]",
      options: [
        OptionSpec(
          name: "format", short: "f", kind: .value(name: "FORMAT"), help: "option.exportFormat",
          choices: ["docket", "taskwarrior", "csv"], onlyChoices: true),
        OptionSpec(
          name: "output", short: "o", kind: .value(name: "FILE"), help: "option.output",
          values: .files),
      ],
      examples: "command.export.examples", run: { try ExportCommand(context: $0).run() }),
    CommandSpec(
      name: "serve", summary: "command.serve.summary",
      usage:
        "docket serve [--bind ADDRESS] [--port N] [--read-only] [--tls-cert FILE --tls-key FILE]",
      options: [
        OptionSpec(name: "bind", kind: .value(name: "ADDRESS"), help: "option.bind"),
        OptionSpec(name: "port", short: "p", kind: .value(name: "N"), help: "option.port"),
        OptionSpec(name: "read-only", kind: .flag, help: "option.readOnly"),
        OptionSpec(
          name: "tls-cert", kind: .value(name: "FILE"), help: "option.tlsCert", values: .files),
        OptionSpec(
          name: "tls-key", kind: .value(name: "FILE"), help: "option.tlsKey", values: .files),
        OptionSpec(
          name: "allow-host", kind: .value(name: "NAME"), repeatable: true,
          help: "option.allowHost"),
        OptionSpec(name: "public-url", kind: .value(name: "URL"), help: "option.publicURL"),
      ],
      examples: "command.serve.examples", run: { try ServeCommand(context: $0).run() }),
    CommandSpec(
      name: "browsers", summary: "command.browsers.summary",
      usage: "docket browsers [revoke NAME|ID|--all]", options: [json],
      subcommands: [
        CommandSpec(
          name: "revoke", summary: "command.browsers.revoke.summary",
          usage: "docket browsers revoke NAME|ID|--all",
          options: [OptionSpec(name: "all", kind: .flag, help: "option.allBrowsers"), json],
          maximumArguments: nil, run: { try BrowsersCommand(context: $0).revoke() })
      ], runsAlone: true, run: { try BrowsersCommand(context: $0).list() }),
    CommandSpec(
      name: "completions", summary: "command.completions.summary",
      usage: "docket completions bash|zsh|fish",
      minimumArguments: 1, maximumArguments: 1, argumentChoices: ["bash", "zsh", "fish"],
      run: { try CompletionsCommand(context: $0).run() }),
    CommandSpec(
      name: "manual", summary: "command.manual.summary", usage: "docket manual [--lang en|de]",
      run: { ManualCommand(context: $0).run() }),
  ]

  static var commandNames: [String] { all.map(\.name) }

  static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

  /// The command at `path` (`["tag", "add"]`), nil when there is none.
  static func at(_ path: [String]) -> CommandSpec? {
    guard let first = path.first, var spec = named(first) else { return nil }
    for name in path.dropFirst() {
      guard let sub = spec.subcommands.first(where: { $0.name == name }) else { return nil }
      spec = sub
    }
    return spec
  }
}
