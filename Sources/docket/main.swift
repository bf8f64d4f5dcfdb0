import DocketCLI
import DocketCore
import DocketTUI
import Foundation
import Terminal

// The docket executable: the terminal app when asked for on a terminal, else the command line.
// A write past the file-size limit (`ulimit -f`) fails with an error Docket explains ("File too
// large"), instead of the signal ending the process in the middle of it.
signal(SIGXFSZ, SIG_IGN)
let environment = processEnvironment()
let arguments = Array(CommandLine.arguments.dropFirst())
let commandLine = DocketCommandLine(
  arguments: arguments, environment: environment,
  console: .standard(
    environment: environment,
    l10n: DocketCommandLine.localizer(arguments: arguments, environment: environment)))
if let request = commandLine.appRequest() {
  do {
    let database = try commandLine.openDatabase(for: request)
    let app = try TerminalApp(
      database: database, language: request.language, screenReader: request.screenReader,
      environment: environment, palette: request.palette, mouse: request.mouse)
    try app.run()
  } catch {
    let l10n = DocketStrings.localizer(language: request.language)
    // The message may echo the database's path: shown safe, as every message is.
    let message = SafeText.sanitized(l10n.message(for: error), keeping: .lineBreaks)
    FileHandle.standardError.write(Data(("docket: " + message + "\n").utf8))
    exit(1)
  }
}
commandLine.runAndExit()
