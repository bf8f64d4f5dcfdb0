/// `docket help`, `docket help COMMAND`, `docket COMMAND --help`.
struct HelpCommand {
  let context: CommandContext

  func general() {
    let l10n = context.l10n
    var lines = [l10n("help.intro"), "", l10n("help.usage"), "", l10n("help.commands")]
    let width = CommandSpec.all.map(\.name.count).max() ?? 0
    for spec in CommandSpec.all {
      lines.append(
        "  " + spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
          + l10n(spec.summary))
    }
    lines += ["", l10n("help.globalOptions")]
    for option in CommandSpec.globalOptions + [
      OptionSpec(name: "version", kind: .flag, help: "option.version")
    ] {
      lines.append(
        "  " + optionLabel(option).padding(toLength: 18, withPad: " ", startingAt: 0)
          + l10n(option.help))
    }
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
      for sub in spec.subcommands {
        lines.append(
          "  " + sub.usage.padding(toLength: 36, withPad: " ", startingAt: 0) + l10n(sub.summary))
      }
    }
    let options = spec.options + CommandSpec.globalOptions
    lines += ["", l10n("help.options")]
    for option in options {
      lines.append(
        "  " + optionLabel(option).padding(toLength: 26, withPad: " ", startingAt: 0)
          + l10n(option.help))
    }
    if let examples = spec.examples {
      lines +=
        ["", l10n("help.examples")] + l10n(examples).split(separator: "\n").map { "  " + $0 }
    }
    context.console.line(lines.joined(separator: "\n"))
  }

  private func optionLabel(_ option: OptionSpec) -> String {
    var label = option.short.map { "-\($0), " } ?? ""
    label += "--" + option.name
    if case .value(let name) = option.kind { label += " " + name }
    return label
  }
}
