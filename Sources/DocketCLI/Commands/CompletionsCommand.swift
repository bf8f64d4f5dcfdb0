import Database
import DocketCore
import Foundation
import Terminal

/// `docket completions bash|zsh|fish`: a completion script made from the command table. Each
/// command offers its own options, each option its own values (a file name after `-o`, a tag
/// name after `--tag`, `tag:` and a name after `--filter`), and `docket completions tags` is
/// what the scripts call for the tag names of the database the command line names.
struct CompletionsCommand {
  let context: CommandContext

  func run() throws {
    let shell = context.arguments.arguments[0].lowercased()
    switch shell {
    case "bash": context.console.write(Self.bash())
    case "zsh": context.console.write(Self.zsh())
    case "fish": context.console.write(Self.fish())
    case "tags":
      // The scripts' own call: the names, one a line, made safe for a terminal. A tab never
      // makes a database: where there is none, there are no names.
      guard FileManager.default.fileExists(atPath: context.databasePath) else { return }
      // Nor does it bring an older one up to date (on a large database, far longer than a tab
      // may take): a database not at this version's schema offers no names.
      // (Read through an ordinary connection: a migration another process made may still be in
      // the write-ahead log.)
      let version = try? Connection(path: context.databasePath).fetchOne(
        "PRAGMA user_version", as: Int.self)
      guard version == Schema.migrator.latestVersion else { return }
      let names = try context.database().read { try $0.fetchTags().map(\.name) }
      for name in names { context.console.line(SafeText.sanitized(name)) }
    default:
      throw CommandFailure.usage(
        UsageText.message(
          for: .badValue(option: "completions", value: shell, allowed: "bash, zsh, fish"),
          context.l10n))
    }
  }

  /// Every command and subcommand, by its words (`list`, `tag rename`).
  static var paths: [(words: String, spec: CommandSpec)] {
    CommandSpec.all.flatMap { spec in
      [(spec.name, spec)] + spec.subcommands.map { ("\(spec.name) \($0.name)", $0) }
    }
  }

  static func options(of spec: CommandSpec) -> [String] {
    spec.allOptions.map { "--" + $0.name }
  }

  /// The shell function call that offers `values` (bash).
  static func bashReply(_ values: CompletedValues) -> String? {
    switch values {
    case .nothing: return nil
    case .choices(let words): return "_docket_words '\(words.joined(separator: " "))'"
    case .files: return "_docket_files"
    case .tags: return "_docket_tags ''"
    case .tagChanges: return "_docket_tags '' + -"
    case .filter: return "_docket_words 'open completed recent all'; _docket_tags tag:"
    }
  }

  static func bash() -> String {
    var values = ""
    var arguments = ""
    var optionLists = ""
    let beforeCommand = [("", CommandSpec(name: "", summary: "", usage: ""))]
    for (words, spec) in beforeCommand + paths {
      // What follows each option that takes a value.
      for option in spec.allOptions where option.takesValue {
        guard let reply = bashReply(option.completion) else { continue }
        let names = ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
        let patterns = names.map { "\"\(words)|\($0)\"" }.joined(separator: "|")
        values += "      \(patterns)) \(reply); return ;;\n"
      }
      if words.isEmpty { continue }
      if !spec.subcommands.isEmpty {
        let subs = spec.subcommands.map(\.name).joined(separator: " ")
        arguments += "      \"\(words)\") _docket_words '\(subs)' ;;\n"
      } else if let reply = bashReply(spec.argumentCompletion) {
        arguments += "      \"\(words)\") \(reply) ;;\n"
      }
      optionLists +=
        "      \"\(words)\") _docket_words '\(options(of: spec).joined(separator: " "))' ;;\n"
    }
    let withSubcommands = CommandSpec.all.filter { !$0.subcommands.isEmpty }.map(\.name)
    let globalsWithValues = (CommandSpec.globalOptions + CommandSpec.appOptions).filter(
      \.takesValue
    ).map { "--" + $0.name }
    return """
      # bash completion for docket. Load it with: source <(docket completions bash)
      # The same function serves zsh, through bashcompinit (docket completions zsh).
      _docket_words() {
        local word
        for word in $1; do
          [[ "$word" == "$_docket_current"* ]] && COMPREPLY+=("$word")
        done
      }
      _docket_files() {
        local file files
        if [[ -n "$ZSH_VERSION" ]]; then
          # zsh's bash layer finds no files under a folder: its own pattern does (a leading ~
          # taken as the home folder).
          local start="$_docket_current"
          [[ "$start" == "~/"* ]] && start="$HOME/${start#"~/"}"
          for file in "$start"*; do
            [[ -e "$file" ]] || continue
            [[ -d "$file" ]] && file="$file/"
            # Offered as typed, under ~/, for zsh to match it against the word.
            [[ "$start" != "$_docket_current" ]] && file="~/${file#"$HOME/"}"
            COMPREPLY+=("$file")
          done
          return
        fi
        type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
        files="$(compgen -f -- "$_docket_current")"
        [[ -z "$files" ]] && return
        while IFS= read -r file; do
          COMPREPLY+=("$file")
        done <<< "$files"
      }
      # Tag names from the database the command line names, each after the prefixes given.
      _docket_tags() {
        local name prefix prefixes=("${@}") cut=""
        # The shell replaces only what follows the last ":" of the word (tag:Bu).
        [[ "$COMP_WORDBREAKS" == *:* && "$_docket_current" == *:* ]] && cut="${_docket_current%"${_docket_current##*:}"}"
        local names
        names="$(command docket "${_docket_dbflag[@]}" completions tags 2>/dev/null)"
        [[ -z "$names" ]] && return
        while IFS= read -r name; do
          for prefix in "${prefixes[@]}"; do
            if [[ "$prefix$name" == "$_docket_current"* ]]; then
              local full="$prefix$name"
              COMPREPLY+=("$(printf '%q' "${full#"$cut"}")")
            fi
          done
        done <<< "$names"
      }
      _docket() {
        COMPREPLY=()
        # Written for bash and for zsh's bash layer alike (arrays from 0, words split here, and
        # no variable named path, which zsh ties to PATH).
        local line="${COMP_LINE:0:$COMP_POINT}" index=1 at="" previous="" subcommand=0
        local IFS=$' \t\n'
        set -f
        local words=($line)
        set +f
        _docket_current=""
        if [[ "$line" != *[[:space:]] && ${#words[@]} -gt 0 ]]; then
          _docket_current="${words[${#words[@]}-1]}"
          words=("${words[@]:0:${#words[@]}-1}")
        fi
        _docket_db=""
        # The command (and subcommand) words, past options and the values of global ones.
        while (( index < ${#words[@]} )); do
          local word="${words[index]}"
          case "$word" in
            \(globalsWithValues.joined(separator: "|")))
              [[ "$word" == --db ]] && _docket_db="${words[index+1]}"
              # The value as typed, its quotes and a leading ~ taken as the shell would.
              _docket_db="${_docket_db//\\'/}"; _docket_db="${_docket_db//\\"/}"
              [[ "$_docket_db" == "~/"* ]] && _docket_db="$HOME/${_docket_db#"~/"}"
              (( index += 2 )); continue ;;
            --db=*) _docket_db="${word#--db=}" ;;
            -*) ;;
            *)
              if [[ -z "$at" ]]; then
                at="$word"
                case "$word" in \(withSubcommands.joined(separator: "|"))) subcommand=1 ;; esac
              elif (( subcommand == 1 )); then
                at="$at $word"; subcommand=2
              fi ;;
          esac
          (( index += 1 ))
        done
        _docket_dbflag=()
        [[ -n "$_docket_db" ]] && _docket_dbflag=(--db "$_docket_db")
        (( ${#words[@]} > 1 )) && previous="${words[${#words[@]}-1]}"
        if [[ "$_docket_current" == --*=* ]]; then
          # --sort=ti: the value after the =.
          previous="${_docket_current%%=*}"; _docket_current="${_docket_current#*=}"
        fi
        case "$at|$previous" in
      \(values)      *"|--db") _docket_files; return ;;
        esac
        if [[ -z "$at" ]]; then
          _docket_words '\(CommandSpec.commandNames.joined(separator: " ")) --help --version \(globalsWithValues.joined(separator: " "))'
        elif [[ "$_docket_current" == -* ]]; then
          case "$at" in
      \(optionLists)      esac
        else
          case "$at" in
      \(arguments)      esac
        fi
      }
      complete -F _docket docket

      """
  }

  /// zsh runs the bash function through its bash completion layer, so both offer the same.
  static func zsh() -> String {
    """
    #compdef docket
    # zsh completion for docket. Put it on $fpath as _docket, or: source <(docket completions zsh)
    autoload -U +X bashcompinit && bashcompinit

    """ + bash()
  }

  /// The fish call that offers `values`, for `-a`, and whether file names are offered instead.
  static func fishValues(_ values: CompletedValues) -> (arguments: String?, files: Bool) {
    switch values {
    case .nothing: return (nil, false)
    case .choices(let words): return ("'\(words.joined(separator: " "))'", false)
    case .files: return (nil, true)
    case .tags: return ("'(__docket_tags)'", false)
    case .tagChanges: return ("'(__docket_tags) (__docket_tags +) (__docket_tags -)'", false)
    case .filter: return ("'open completed recent all (__docket_tags tag:)'", false)
    }
  }

  static func fish() -> String {
    var lines = [
      "# fish completion for docket. Load it with: docket completions fish | source",
      "complete -c docket -f",
      "# The command and subcommand words, past options and the values of global ones.",
      "function __docket_words",
      "    set -l words (commandline -opc)",
      "    set -e words[1]",
      "    set -l skip 0",
      "    for word in $words",
      "        if test $skip = 1",
      "            set skip 0",
      "            continue",
      "        end",
      "        switch $word",
      "            case "
        + (CommandSpec.globalOptions + CommandSpec.appOptions).filter(\.takesValue).map {
          "--" + $0.name
        }.joined(separator: " "),
      "                set skip 1",
      "            case '-*'",
      "            case '*'",
      "                echo $word",
      "        end",
      "    end",
      "end",
      "# Whether the command line is at the command (and subcommand) given, and no further.",
      "function __docket_at",
      "    set -l words (__docket_words)",
      "    for index in (seq (count $argv))",
      "        test \"$words[$index]\" = \"$argv[$index]\"; or return 1",
      "    end",
      "    set -l subcommands "
        + CommandSpec.all.filter { !$0.subcommands.isEmpty }.map(\.name)
        .joined(separator: " "),
      "    if test (count $argv) -eq 1; and contains -- \"$argv[1]\" $subcommands",
      "        test (count $words) -eq 1; or return 1",
      "    end",
      "end",
      "# The tag names of the database the command line names, each after the prefix given.",
      "function __docket_tags",
      "    set -l words (commandline -opc)",
      "    set -l db",
      "    for index in (seq (count $words))",
      "        if test \"$words[$index]\" = --db; and set -q words[(math $index + 1)]",
      "            set db --db $words[(math $index + 1)]",
      "        else if string match -q -- '--db=*' $words[$index]",
      "            set db --db (string replace -- '--db=' '' $words[$index])",
      "        end",
      "    end",
      "    for name in (command docket $db completions tags 2>/dev/null)",
      "        echo \"$argv[1]$name\"",
      "    end",
      "end",
      "complete -c docket -n 'test (count (__docket_words)) -eq 0' -l help -l version",
    ]
    for option in CommandSpec.globalOptions + CommandSpec.appOptions {
      lines.append(fishOption(option, condition: "test (count (__docket_words)) -eq 0"))
    }
    for spec in CommandSpec.all {
      let usage = spec.usage.replacingOccurrences(of: "'", with: "")
      lines.append(
        "complete -c docket -n 'test (count (__docket_words)) -eq 0' -a \(spec.name) -d '\(usage)'"
      )
      for sub in spec.subcommands {
        let subUsage = sub.usage.replacingOccurrences(of: "'", with: "")
        lines.append(
          "complete -c docket -n '__docket_at \(spec.name); and test (count (__docket_words)) -eq 1' -a \(sub.name) -d '\(subUsage)'"
        )
      }
    }
    for (words, spec) in paths {
      let condition = "__docket_at \(words)"
      for option in spec.allOptions {
        lines.append(fishOption(option, condition: condition))
      }
      guard spec.subcommands.isEmpty else { continue }
      let (arguments, files) = fishValues(spec.argumentCompletion)
      if let arguments {
        lines.append("complete -c docket -n '\(condition)' -a \(arguments)")
      } else if files {
        lines.append("complete -c docket -n '\(condition)' -F")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func fishOption(_ option: OptionSpec, condition: String) -> String {
    var line = "complete -c docket -n '\(condition)' -l \(option.name)"
    if let short = option.short { line += " -s \(short)" }
    if option.takesValue {
      let (arguments, files) = fishValues(option.completion)
      if let arguments {
        line += " -x -a \(arguments)"
      } else if files {
        line += " -r -F"
      } else {
        line += " -x"
      }
    }
    return line
  }
}
