/// A command line understood: which command, its options and its words.
struct ParsedArguments: Equatable {
  /// `["tag", "rename"]`.
  var path: [String] = []
  /// Values by option name, in the order given; a switch has one empty value per use.
  var options: [String: [String]] = [:]
  var arguments: [String] = []

  func has(_ option: String) -> Bool { options[option] != nil }
  func value(_ option: String) -> String? { options[option]?.last }
  func values(_ option: String) -> [String] { options[option] ?? [] }
}

/// What was wrong with a command line. Every case is exit status 2.
enum UsageError: Error, Equatable {
  case unknownCommand(String, suggestion: String?)
  case unknownSubcommand(command: String, String, suggestion: String?)
  case missingSubcommand(command: String)
  case unknownOption(String, command: String, suggestion: String?)
  case missingValue(option: String)
  case unexpectedValue(option: String)
  case repeatedOption(String)
  case missingArgument(command: String, usage: String)
  case tooManyArguments(command: String, usage: String)
  case badValue(option: String, value: String, allowed: String)
  case conflictingOptions(String, String)
  /// A word that starts with `-` and holds a space (`-dash title`), which would read as a short
  /// option with the rest joined as its value: a text meant as an argument, for after `--`.
  case dashText(String, command: String)
  /// The same word where its first letter is an option that takes a value (`-dash title`,
  /// `-t"needs review"`): either reading is likely, so both are named.
  /// `takesText`: whether the command takes a text that could start with `-` (`add`'s title);
  /// where it does not (`edit REF`), only the option's reading is named.
  case dashTextOrValue(
    String, command: String, option: String, value: String, takesText: Bool = true)
}

/// Docket's own argument parser (no package can be fetched, and this one knows Docket's search
/// words): subcommands, long and short options, `--name value` and `--name=value` (a value may
/// start with `-`), repeated options, `--` to end options, and words starting with `-` taken as
/// search words where a command allows it.
enum ArgumentParser {
  static func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var remaining = words[...]
    // Options given before the command (`docket --db x list`) count as the command's.
    var early: [String] = []
    while let first = remaining.first, first.hasPrefix("-"), first != "-", first != "--" {
      early.append(first)
      remaining = remaining.dropFirst()
      let name = first.hasPrefix("--") ? String(first.dropFirst(2).prefix { $0 != "=" }) : ""
      if !first.contains("="),
        let option = (CommandSpec.globalOptions + CommandSpec.appOptions).first(where: {
          $0.name == name
        }),
        option.takesValue, let value = remaining.first
      {
        early.append(value)
        remaining = remaining.dropFirst()
      }
    }
    guard let commandName = remaining.first else {
      // Only options: `docket --help`, `docket --version`, or nothing at all.
      return try parseOptions(
        early, spec: CommandSpec(name: "", summary: "", usage: ""), into: parsed)
    }
    remaining = remaining.dropFirst()
    guard var spec = CommandSpec.named(commandName) else {
      throw .unknownCommand(
        commandName, suggestion: Suggestion.nearest(commandName, among: CommandSpec.commandNames))
    }
    parsed.path = [commandName]
    if !spec.subcommands.isEmpty {
      let wantsHelp = (early + remaining).contains { $0 == "--help" || $0 == "-h" }
      guard let subName = remaining.first, !subName.hasPrefix("-") else {
        if wantsHelp || spec.runsAlone {
          return try parseOptions(early + remaining, spec: spec, into: parsed)
        }
        throw .missingSubcommand(command: commandName)
      }
      guard let sub = spec.subcommands.first(where: { $0.name == subName }) else {
        throw .unknownSubcommand(
          command: commandName, subName,
          suggestion: Suggestion.nearest(subName, among: spec.subcommands.map(\.name)))
      }
      remaining = remaining.dropFirst()
      parsed.path.append(subName)
      spec = sub
    }
    parsed = try parseOptions(early + remaining, spec: spec, into: parsed)
    if !parsed.has("help") {
      let commandLine = parsed.path.joined(separator: " ")
      if parsed.arguments.count < spec.minimumArguments {
        throw .missingArgument(command: commandLine, usage: spec.usage)
      }
      if let maximum = spec.maximumArguments, parsed.arguments.count > maximum {
        throw .tooManyArguments(command: commandLine, usage: spec.usage)
      }
    }
    return parsed
  }

  private static func parseOptions(
    _ words: [String], spec: CommandSpec, into start: ParsedArguments
  ) throws(UsageError) -> ParsedArguments {
    var parsed = start
    var index = words.startIndex
    var optionsEnded = false
    let commandLine =
      parsed.path.isEmpty ? "docket" : "docket " + parsed.path.joined(separator: " ")
    var badValue: UsageError?
    func record(_ option: OptionSpec, _ value: String) throws(UsageError) {
      if !option.repeatable, option.takesValue, parsed.options[option.name] != nil {
        throw .repeatedOption("--" + option.name)
      }
      // A value from a fixed list is read ignoring case (`--format CSV`, `--sort Title`). One
      // outside the list is reported after the whole line is read, so `--help` still wins.
      let lowered = value.lowercased()
      if option.onlyChoices, !(option.admits?(value) ?? option.choices.contains(lowered)),
        badValue == nil
      {
        badValue = .badValue(
          option: "--" + option.name, value: value,
          allowed: option.choices.joined(separator: ", "))
      }
      let value = option.choices.contains(lowered) ? lowered : value
      parsed.options[option.name, default: []].append(value)
    }
    while index < words.endIndex {
      let word = words[index]
      index += 1
      if optionsEnded || word == "-" || !word.hasPrefix("-") {
        parsed.arguments.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        if name == "version", spec.name.isEmpty {
          parsed.options["version", default: []].append("")
          continue
        }
        guard let option = spec.option(named: name) else {
          if spec.dashWordsAreArguments, isSearchWord(word) {
            parsed.arguments.append(word)
            continue
          }
          // `--all` is one of an option's values (`--filter all`) more likely than a typo.
          if let owner = spec.options.first(where: { $0.choices.contains(name.lowercased()) }) {
            throw .unknownOption(
              word, command: commandLine, suggestion: "--\(owner.name) \(name.lowercased())")
          }
          let names = spec.allOptions.map { "--" + $0.name }
          throw .unknownOption(
            word, command: commandLine, suggestion: Suggestion.nearest("--" + name, among: names))
        }
        if option.takesValue {
          if let inlineValue {
            try record(option, inlineValue)
          } else if index < words.endIndex, !isOption(words[index], of: spec) {
            try record(option, words[index])
            index += 1
          } else {
            throw .missingValue(option: "--" + name)
          }
        } else {
          if inlineValue != nil { throw .unexpectedValue(option: "--" + name) }
          try record(option, "")
        }
        continue
      }
      // A single dash: short options (`-p high`, `-phigh`, `-y`), or a search word (`-tag:Bug`).
      let letters = Array(word.dropFirst())
      // Where dash words are search words, `-fix` and `-fall` are exclusions, not `-f ix` and
      // `-f all`: there a short option takes its value as the next word, but for a number joined
      // to a numeric option (`-n20`).
      let joinedValueFits: (OptionSpec) -> Bool = { option in
        guard spec.dashWordsAreArguments, letters.count > 1 else { return true }
        return option.choices.isEmpty && Int(String(letters.dropFirst())) != nil
      }
      guard let option = spec.option(short: letters[0]), letters.count == 1 || option.takesValue,
        joinedValueFits(option)
      else {
        // A longer `-word` is an exclusion, and so is one letter of a script without options
        // (`-漢`); a single Latin letter is an option mistyped (`-o file`).
        if spec.dashWordsAreArguments,
          letters.count > 1 || !(letters[0].isASCII && letters[0].isLetter)
        {
          parsed.arguments.append(word)
          continue
        }
        if letters.contains(where: \.isWhitespace) { throw .dashText(word, command: commandLine) }
        let names = spec.allOptions.compactMap {
          $0.short.map { "-\($0)" }
        }
        throw .unknownOption(
          word, command: commandLine, suggestion: Suggestion.nearest(word, among: names))
      }
      if option.takesValue {
        if letters.count > 1 {
          // `-phigh` is an option and its value; `-dash title` may be a title typed with a dash
          // as well as `-d "ash title"` written joined.
          if letters.contains(where: \.isWhitespace) {
            throw .dashTextOrValue(
              word, command: commandLine, option: "-" + String(letters[0]),
              value: String(letters.dropFirst()), takesText: spec.maximumArguments == nil)
          }
          try record(option, String(letters.dropFirst()))
        } else if index < words.endIndex, !isOption(words[index], of: spec) {
          try record(option, words[index])
          index += 1
        } else {
          throw .missingValue(option: "-" + String(letters[0]))
        }
      } else {
        try record(option, "")
      }
    }
    if let badValue, !parsed.has("help") { throw badValue }
    return parsed
  }

  /// A value may start with `-` (`--tag -Bug`), but a word that is exactly one of the
  /// command's options (`--limit --json`) is that option, and the value is missing.
  private static func isOption(_ word: String, of spec: CommandSpec) -> Bool {
    guard word.hasPrefix("--") else { return false }
    let name = String(word.dropFirst(2).prefix { $0 != "=" })
    return spec.option(named: name) != nil || name == "version"
  }

  /// `--foo` is an option a person mistyped; `-tag:Bug` or `--fast` (a word) with a colon is search.
  private static func isSearchWord(_ word: String) -> Bool {
    word.contains(":")
  }
}

/// "Did you mean …?": the closest name by edit distance, if it is close enough to be a typo.
enum Suggestion {
  static func nearest(_ typed: String, among names: [String]) -> String? {
    let scored = names.map { ($0, distance(typed.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let limit = max(2, typed.count / 3)
    if best.1 <= limit { return best.0 }
    // A name the typed word starts (`li` for `list`) is a fair guess too.
    return names.first { $0.hasPrefix(typed) && typed.count >= 2 }
  }

  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
