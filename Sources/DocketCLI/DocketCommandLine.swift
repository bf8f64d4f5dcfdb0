import Database
import DocketCore
import DocketTransfer
import Foundation
import Localization
import Terminal

/// Docket's command line: parses the words, runs the command, and returns the exit status.
/// Errors are one line on standard error that says what was wrong and what to do.
public struct DocketCommandLine {
  let words: [String]
  let environment: [String: String]
  let console: Console
  let now: Date

  public init(
    arguments: [String], environment: [String: String], console: Console, now: Date = Date()
  ) {
    self.words = arguments
    self.environment = environment
    self.console = console
    self.now = now
  }

  /// What the terminal app needs, when the command line asks for it: no command, no `--help` or
  /// `--version`, and a terminal on both ends.
  public struct AppRequest {
    public var databasePath: String
    public var language: String
    public var screenReader: Bool
    /// How colour may be used: the theme asked for and `NO_COLOR`.
    public var palette: Palette
    /// Whether the app takes clicks and the wheel (`--no-mouse` leaves them to the terminal).
    public var mouse: Bool
  }

  public func appRequest() -> AppRequest? {
    guard console.inputIsTerminal, console.outputIsTerminal,
      let parsed = try? ArgumentParser.parse(words), parsed.path.isEmpty, !parsed.has("help"),
      !parsed.has("version"), parsed.value("db") != ""
    else { return nil }
    let language = DocketStrings.localizer(explicit: parsed.value("lang"), environment: environment)
      .language
    let screenReader =
      parsed.has("screen-reader")
      || environment["DOCKET_SCREEN_READER"].map { $0 != "" && $0 != "0" } == true
    return AppRequest(
      databasePath: DatabaseLocation.path(flag: parsed.value("db"), environment: environment),
      language: language,
      screenReader: screenReader,
      palette: Palette.chosen(
        theme: parsed.value("theme").flatMap(Palette.Theme.init(rawValue:)),
        environment: environment),
      mouse: !parsed.has("no-mouse"))
  }

  /// Opens the database at `path` for either face, saying on standard error, in `language`,
  /// when a database made by an earlier version is brought up to date first (on a large
  /// database that can take a long while): for the app, before it takes the screen.
  public static func openDatabase(path: String, language: String, console: Console) throws
    -> DatabaseQueue
  {
    let writeError = console.writeError
    return try DocketDatabase.open(
      path: path,
      upgrading: {
        writeError(DocketStrings.localizer(language: language)("database.upgrading") + "\n")
      })
  }

  /// The database the app asked for, opened as `openDatabase` does.
  public func openDatabase(for request: AppRequest) throws -> DatabaseQueue {
    try Self.openDatabase(path: request.databasePath, language: request.language, console: console)
  }

  /// Runs the command line and ends the process with its exit status.
  ///
  /// What a command read stays in memory until the process ends: freeing a list of tens of
  /// thousands of issues piece by piece only delays the exit that frees it all at once.
  public func runAndExit() -> Never {
    var context: CommandContext?
    let status = run { context = $0 }
    withExtendedLifetime(context) { exit(status) }
  }

  /// Runs the command line and returns the exit status: 0 success, 1 the operation failed,
  /// 2 the command line was wrong.
  public func run() -> Int32 {
    run { _ in }
  }

  private func run(keeping keep: (CommandContext) -> Void) -> Int32 {
    // Messages echo input and data (a title, a tag name, a path): made safe for a terminal.
    let l10n = Self.localizer(arguments: words, environment: environment)
      .filteringArguments { SafeText.sanitized($0) }
    do {
      let parsed: ParsedArguments
      do {
        parsed = try ArgumentParser.parse(words)
      } catch {
        throw CommandFailure.usage(UsageText.message(for: error, l10n))
      }
      let context = CommandContext(
        arguments: parsed, environment: environment, console: console, l10n: l10n, now: now)
      keep(context)
      try context.dispatch()
      return 0
    } catch let failure as CommandFailure {
      // Every message is made safe here, those built from data included (a list of candidates).
      console.writeError(
        "docket: " + SafeText.sanitized(failure.message, keeping: .lineBreaks) + "\n")
      return failure.status.rawValue
    } catch let error where Self.isBadValue(error) {
      console.writeError(
        "docket: " + SafeText.sanitized(l10n.message(for: error), keeping: .lineBreaks) + "\n")
      return CommandFailure.Status.usage.rawValue
    } catch {
      console.writeError(
        "docket: " + SafeText.sanitized(l10n.message(for: error), keeping: .lineBreaks) + "\n")
      return CommandFailure.Status.failed.rawValue
    }
  }

  /// Whether `error` says that a value given was wrong (a title past its limit): the command
  /// line's fault, exit 2.
  static func isBadValue(_ error: any Error) -> Bool {
    switch error {
    case is IssueError, is DeviceNameError, TagError.nameTooLong, TagError.emptyName: true
    default: false
    }
  }

  /// The language of the command line `arguments`: `--lang` is read before parsing, so that
  /// even errors about the command line (and about output that cannot be written) are in the
  /// language asked for; else the environment's.
  public static func localizer(arguments: [String], environment: [String: String]) -> Localizer {
    var flag: String?
    for (index, word) in arguments.enumerated() {
      if word == "--" { break }
      if word.hasPrefix("--lang=") {
        flag = String(word.dropFirst(7))
        break
      }
      if word == "--lang", index + 1 < arguments.count {
        flag = arguments[index + 1]
        break
      }
    }
    return DocketStrings.localizer(explicit: flag, environment: environment)
  }
}

/// Everything a command needs: its arguments, the console, the texts, and (opened on first use)
/// the database.
final class CommandContext {
  let arguments: ParsedArguments
  let environment: [String: String]
  let console: Console
  let l10n: Localizer
  let now: Date
  private var openedDatabase: DatabaseQueue?

  init(
    arguments: ParsedArguments, environment: [String: String], console: Console, l10n: Localizer,
    now: Date
  ) {
    self.arguments = arguments
    self.environment = environment
    self.console = console
    self.l10n = l10n
    self.now = now
  }

  var json: Bool { arguments.has("json") }

  var databasePath: String {
    DatabaseLocation.path(flag: arguments.value("db"), environment: environment)
  }

  /// The database, opened (and created or migrated) on first use.
  func database() throws -> DatabaseQueue {
    if let openedDatabase { return openedDatabase }
    let queue = try DocketCommandLine.openDatabase(
      path: databasePath, language: l10n.language, console: console)
    openedDatabase = queue
    return queue
  }

  func dispatch() throws {
    // An unset shell variable (`--db "$DB"`) gives an empty path: never taken for the default.
    if arguments.value("db") == "" {
      throw CommandFailure.usage(
        l10n(
          "error.db.empty",
          .string(
            SafeText.sanitized(DatabaseLocation.path(flag: nil, environment: environment)))))
    }
    if arguments.path.isEmpty {
      if arguments.has("version") {
        console.line("docket \(DocketVersion.current) (SQLite \(Connection.sqliteVersion))")
      } else {
        HelpCommand(context: self).general()
      }
      return
    }
    if arguments.has("help") {
      try HelpCommand(context: self).command(arguments.path)
      return
    }
    guard let run = CommandSpec.at(arguments.path)?.run else {
      throw CommandFailure.usage(
        l10n("error.usage.unknownCommand", .string(arguments.path.joined(separator: " "))))
    }
    try run(self)
  }

  /// Asks a yes/no question on the terminal; anything but yes is no.
  func confirm(_ question: String) -> Bool {
    console.write(question)
    guard let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
      return false
    }
    return ["y", "yes", "j", "ja"].contains(answer)
  }
}
