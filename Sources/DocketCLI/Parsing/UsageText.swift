import Foundation
import Localization

/// The words for what was wrong with a command line, with a "did you mean" where one helps.
enum UsageText {
  /// The error for a value of `option` that the command given by `arguments` cannot read,
  /// naming the option's choices. The parser refuses a value outside them first; this is the
  /// same message for a value the parser let through.
  static func badValue(
    option: String, value: String, in arguments: ParsedArguments, _ l10n: Localizer
  ) -> CommandFailure {
    let spec = arguments.path.dropFirst().reduce(CommandSpec.named(arguments.path.first ?? "")) {
      spec, name in spec?.subcommands.first { $0.name == name }
    }
    let allowed = spec?.option(named: option)?.choices.joined(separator: ", ") ?? ""
    return .usage(
      message(for: .badValue(option: "--" + option, value: value, allowed: allowed), l10n))
  }

  static func message(for error: UsageError, _ l10n: Localizer) -> String {
    switch error {
    case .unknownCommand(let name, let suggestion):
      return l10n("error.usage.unknownCommand", .string(name)) + didYouMean(suggestion, l10n)
        + " " + l10n("error.usage.seeHelp")
    case .unknownSubcommand(let command, let name, let suggestion):
      return l10n("error.usage.unknownSubcommand", .string(name), .string(command))
        + didYouMean(suggestion, l10n)
    case .missingSubcommand(let command):
      return l10n("error.usage.missingSubcommand", .string(command))
    case .unknownOption(let option, let command, let suggestion):
      return l10n("error.usage.unknownOption", .string(option), .string(command))
        + didYouMean(suggestion, l10n)
    case .missingValue(let option):
      return l10n("error.usage.missingValue", .string(option))
    case .unexpectedValue(let option):
      return l10n("error.usage.unexpectedValue", .string(option))
    case .repeatedOption(let option):
      return l10n("error.usage.repeatedOption", .string(option))
    case .missingArgument(let command, let usage):
      return l10n("error.usage.missingArgument", .string(command), .string(usage))
    case .tooManyArguments(let command, let usage):
      return l10n("error.usage.tooManyArguments", .string(command), .string(usage))
    case .badValue(let option, let value, let allowed):
      return l10n("error.usage.badValue", .string(option), .string(value), .string(allowed))
    case .conflictingOptions(let first, let second):
      return l10n("error.usage.conflicting", .string(first), .string(second))
    case .dashText(let word, let command):
      return l10n(
        "error.usage.dashText", .string(word), .string(command), .string(ShellWord.quoted(word)))
    case .dashTextOrValue(let word, let command, let option, let value, let takesText):
      // Quoted as a shell reads them back, so that the line said can be pasted.
      guard takesText else {
        return l10n(
          "error.usage.dashValue", .string(word), .string(option), .string(value),
          .string(ShellWord.quoted(value)))
      }
      return l10n(
        "error.usage.dashTextOrValue", .string(word), .string(command), .string(option),
        .string(value), .string(ShellWord.quoted(word)), .string(ShellWord.quoted(value)))
    }
  }

  private static func didYouMean(_ suggestion: String?, _ l10n: Localizer) -> String {
    suggestion.map { " " + l10n("error.usage.didYouMean", .string($0)) } ?? ""
  }
}

/// A word as a shell reads it back: bare where nothing in it is special, in double quotes where
/// only spaces are, else in single quotes (a single quote in it written `'\''`).
enum ShellWord {
  static func quoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_./:,+=@%".unicodeScalars.contains($0)
    }
    if plain, !word.isEmpty { return word }
    if !word.contains(where: { "\"$`\\!'".contains($0) }) { return "\"" + word + "\"" }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
