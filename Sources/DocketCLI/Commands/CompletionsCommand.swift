/// `docket completions bash|zsh|fish`: a completion script made from the command table.
struct CompletionsCommand {
  let context: CommandContext

  func run() throws {
    let shell = context.arguments.arguments[0]
    switch shell {
    case "bash": context.console.write(Self.bash())
    case "zsh": context.console.write(Self.zsh())
    case "fish": context.console.write(Self.fish())
    default:
      throw CommandFailure.usage(
        UsageText.message(
          for: .badValue(option: "completions", value: shell, allowed: "bash, zsh, fish"),
          context.l10n))
    }
  }

  static func options(of spec: CommandSpec) -> [String] {
    (spec.options + CommandSpec.globalOptions).map { "--" + $0.name }
  }

  static func bash() -> String {
    var cases = ""
    for spec in CommandSpec.all {
      if spec.subcommands.isEmpty {
        let words = (options(of: spec) + spec.argumentChoices).joined(separator: " ")
        cases += "    \(spec.name)) words=\"\(words)\" ;;\n"
      } else {
        cases +=
          "    \(spec.name))\n      if [ \"$COMP_CWORD\" -eq 2 ]; then words=\"\(spec.subcommands.map(\.name).joined(separator: " "))\"\n"
        cases += "      else case \"${COMP_WORDS[2]}\" in\n"
        for sub in spec.subcommands {
          cases += "        \(sub.name)) words=\"\(options(of: sub).joined(separator: " "))\" ;;\n"
        }
        cases += "      esac; fi ;;\n"
      }
    }
    return """
      # bash completion for docket. Load it with: source <(docket completions bash)
      _docket() {
        local current="${COMP_WORDS[COMP_CWORD]}" words=""
        if [ "$COMP_CWORD" -eq 1 ]; then
          words="\(CommandSpec.commandNames.joined(separator: " ")) --help --version"
        else
          case "${COMP_WORDS[1]}" in
      \(cases)    esac
        fi
        case "${COMP_WORDS[COMP_CWORD-1]}" in
          --priority|-p) words="low medium high" ;;
          --filter|-f) words="open completed recent all" ;;
          --sort|-s) words="priority date title name count" ;;
          --lang) words="en de" ;;
          --db) COMPREPLY=($(compgen -f -- "$current")); return ;;
        esac
        COMPREPLY=($(compgen -W "$words" -- "$current"))
      }
      complete -F _docket docket

      """
  }

  static func zsh() -> String {
    var lines = [
      "#compdef docket",
      "# zsh completion for docket. Put it on $fpath as _docket, or: source <(docket completions zsh)",
      "_docket() {", "  local -a commands", "  commands=(",
    ]
    for spec in CommandSpec.all {
      lines.append("    '\(spec.name):\(spec.usage.replacingOccurrences(of: "'", with: ""))'")
    }
    lines += [
      "  )", "  if (( CURRENT == 2 )); then", "    _describe 'command' commands", "    return",
      "  fi",
      "  case $words[2] in",
    ]
    for spec in CommandSpec.all {
      let words =
        spec.subcommands.isEmpty
        ? options(of: spec) + spec.argumentChoices : spec.subcommands.map(\.name) + ["--help"]
      lines.append("    \(spec.name)) compadd -- \(words.joined(separator: " ")) ;;")
    }
    lines += ["  esac", "}", "compdef _docket docket 2>/dev/null || _docket \"$@\"", ""]
    return lines.joined(separator: "\n")
  }

  static func fish() -> String {
    var lines = [
      "# fish completion for docket. Load it with: docket completions fish | source",
      "complete -c docket -f",
    ]
    let commands = CommandSpec.commandNames.joined(separator: " ")
    for spec in CommandSpec.all {
      let usage = spec.usage.replacingOccurrences(of: "'", with: "")
      lines.append(
        "complete -c docket -n 'not __fish_seen_subcommand_from \(commands)' -a \(spec.name) -d '\(usage)'"
      )
      for sub in spec.subcommands {
        lines.append(
          "complete -c docket -n '__fish_seen_subcommand_from \(spec.name)' -a \(sub.name)")
      }
      for option in spec.options + CommandSpec.globalOptions {
        var line =
          "complete -c docket -n '__fish_seen_subcommand_from \(spec.name)' -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        if !option.choices.isEmpty { line += " -x -a '\(option.choices.joined(separator: " "))'" }
        if option.name == "db" { line += " -r -F" }
        lines.append(line)
      }
      if !spec.argumentChoices.isEmpty {
        lines.append(
          "complete -c docket -n '__fish_seen_subcommand_from \(spec.name)' -a '\(spec.argumentChoices.joined(separator: " "))'"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
