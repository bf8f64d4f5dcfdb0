/// `docket help`, `docket help COMMAND`, `docket COMMAND --help`.
struct HelpCommand {
  let context: CommandContext

  func general() {
    let l10n = context.l10n
    var lines = [l10n("help.intro"), "", l10n("help.usage"), "", l10n("help.commands")]
    let nameWidth = CommandSpec.all.map(\.name.count).max() ?? 0
    lines += HelpLayout.rows(
      CommandSpec.all.map { ($0.name, l10n($0.summary)) }, column: nameWidth + 4, width: width)
    lines += ["", l10n("help.globalOptions")]
    let options =
      CommandSpec.globalOptions + [OptionSpec(name: "version", kind: .flag, help: "option.version")]
    lines += HelpLayout.rows(
      options.map { (optionLabel($0), l10n($0.help)) }, column: 20, width: width)
    lines += ["", l10n("help.appOptions")]
    lines += HelpLayout.rows(
      CommandSpec.appOptions.map { (optionLabel($0), l10n($0.help)) }, column: 20, width: width)
    lines += ["", l10n("help.more", .string(context.databasePath))]
    context.console.line(lines.joined(separator: "\n"))
  }

  func command(_ path: [String]) throws {
    guard let name = path.first else { return general() }
    guard var spec = CommandSpec.named(name) else {
      throw CommandFailure.usage(
        UsageText.message(
          for: .unknownCommand(
            name, suggestion: Suggestion.nearest(name, among: CommandSpec.commandNames)),
          context.l10n))
    }
    if path.count > 1, let sub = spec.subcommands.first(where: { $0.name == path[1] }) {
      spec = sub
    }
    let l10n = context.l10n
    var lines = [l10n(spec.summary), "", l10n("help.usageLabel") + " " + spec.usage]
    if !spec.subcommands.isEmpty {
      lines += ["", l10n("help.subcommands")]
      lines += HelpLayout.rows(
        spec.subcommands.map { ($0.usage, l10n($0.summary)) }, column: 28, width: width)
    }
    let options = spec.allOptions
    lines += ["", l10n("help.options")]
    lines += HelpLayout.rows(
      options.map { (optionLabel($0), l10n($0.help)) }, column: 28, width: width)
    if let examples = spec.examples {
      lines +=
        ["", l10n("help.examples")] + l10n(examples).split(separator: "\n").map { "  " + $0 }
    }
    context.console.line(lines.joined(separator: "\n"))
  }

  /// The terminal's width, or 80 columns when the help is not shown on a terminal.
  private var width: Int { context.console.width ?? 80 }

  private func optionLabel(_ option: OptionSpec) -> String {
    var label = option.short.map { "-\($0), " } ?? ""
    label += "--" + option.name
    if case .value(let name) = option.kind { label += " " + name }
    return label
  }
}
