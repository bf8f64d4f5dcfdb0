import Database
import DocketCore
import Foundation

// Docket's executable. Until the command line and the terminal app arrive, it opens the database
// (creating it on first use), checks it, and says what it holds.

let environment = ProcessInfo.processInfo.environment
var databaseFlag: String?
var languageFlag: String?
var showVersion = false
var showHelp = false
var unknown: String?

var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--db": databaseFlag = arguments.next()
  case "--lang": languageFlag = arguments.next()
  case "--version": showVersion = true
  case "--help", "-h", "help": showHelp = true
  default:
    if argument.hasPrefix("--db=") {
      databaseFlag = String(argument.dropFirst(5))
    } else if argument.hasPrefix("--lang=") {
      languageFlag = String(argument.dropFirst(7))
    } else if unknown == nil {
      unknown = argument
    }
  }
}

let l10n = DocketStrings.localizer(explicit: languageFlag, environment: environment)

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data(("docket: " + message + "\n").utf8))
  exit(code)
}

if showVersion {
  print("docket \(DocketVersion.current)")
  exit(0)
}
if let unknown {
  fail(l10n("app.unknownArgument", .string(unknown)), code: 2)
}
let path = DatabaseLocation.path(flag: databaseFlag, environment: environment)
var defaultEnvironment = environment
defaultEnvironment["DOCKET_DB"] = nil
let defaultPath = DatabaseLocation.path(flag: nil, environment: defaultEnvironment)
if showHelp {
  print(l10n("app.help", .string(defaultPath)))
  exit(0)
}
do {
  let queue = try DocketDatabase.open(path: path)
  let counts = try queue.read { try $0.awardCounts() }
  print(
    l10n(
      "app.summary", .string(path), .integer(counts.issues - counts.closed),
      .integer(counts.closed),
      .integer(counts.tags)))
  print(l10n("app.help", .string(defaultPath)))
} catch {
  fail(l10n.message(for: error), code: 1)
}
