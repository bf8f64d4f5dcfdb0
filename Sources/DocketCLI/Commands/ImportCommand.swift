import Database
import DocketCore
import DocketTransfer
import Foundation
import Localization
import Terminal

/// `docket import FILE|- [--format F] [--repo OWNER/NAME] [--dry-run] [--json]`
struct ImportCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    let path = arguments.arguments[0]
    let format = try arguments.value("format").map { name -> TransferFormat in
      guard let format = TransferFormat(rawValue: name), format != .csv else {
        throw UsageText.badValue(option: "format", value: name, in: arguments, l10n)
      }
      return format
    }
    let name = path == "-" ? l10n("import.standardInput") : path
    let progress = ProgressLine(console: context.console)
    // The file's bytes are let go once read: only the issues they make are kept for the write.
    var batch = try read(path, name: name, format: format, progress: progress)
    // The reading's line goes before anything else is said.
    progress.clear()
    if batch.unnamedRepository {
      context.console.writeError("docket: " + l10n("import.warning.unnamedRepository") + "\n")
    }
    let total = batch.issues.count
    // A failed write says so on a line of its own.
    defer { progress.clear() }
    let dryRun = arguments.has("dry-run")
    // Handed over whole: the import lets the issues go as it writes them.
    let summary = try context.database().importBatch(
      batch.take(), dryRun: dryRun, restoreDeleted: arguments.has("restore-deleted"),
      progress: { done in
        progress.say(l10n("import.progress", .integer(done), .integer(total)))
      },
      step: { step in
        // Each step takes a while: said at once, however soon after the last line.
        let key =
          switch step {
          case .searchIndex: "import.step.searchIndex"
          case .sortIndexes: "import.step.sortIndexes"
          case .history: "import.step.history"
          case .saving: "import.step.saving"
          }
        progress.say(l10n(key), atOnce: true)
      })
    progress.clear()
    if context.json {
      context.printJSON(ImportText.json(summary))
    } else {
      context.console.line(ImportText.summary(summary, l10n))
    }
  }
}

extension ImportCommand {
  fileprivate func read(
    _ path: String, name: String, format: TransferFormat?, progress: ProgressLine
  ) throws -> IncomingBatch {
    let l10n = context.l10n
    let bytes: [UInt8]
    if path == "-" {
      // Typing a file by hand is not what `-` is for: a terminal there would only wait.
      guard !context.console.inputIsTerminal else {
        throw CommandFailure.usage(l10n("import.error.terminal"))
      }
      bytes = context.console.readAll()
    } else {
      guard let data = FileManager.default.contents(atPath: path) else {
        progress.clear()
        throw CommandFailure.failed(l10n("import.error.unreadable", .string(path)))
      }
      bytes = [UInt8](data)
    }
    guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
      progress.clear()
      throw CommandFailure.failed(l10n("import.error.empty", .string(name)))
    }
    let megabytes = (bytes.count + 500_000) / 1_000_000
    // The file by its last part, cut short, so that the figures fit on the line.
    let shown = DisplayWidth.truncate((name as NSString).lastPathComponent, to: 30)
    do {
      return try TransferReader.read(
        bytes, format: format, repository: context.arguments.value("repo"),
        progress: { read in
          progress.say(
            l10n(
              "import.reading", .string(shown), .integer(min(read / 1_000_000, megabytes)),
              .integer(megabytes)))
        })
    } catch {
      progress.clear()
      throw CommandFailure.failed(
        l10n("import.error.file", .string(name), .string(ImportText.describe(error, l10n))))
    }
  }
}
