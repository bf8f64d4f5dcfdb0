import Database
import DocketCore
import DocketTransfer
import Foundation
import Localization

/// `docket export [--format docket|taskwarrior|csv] [-o FILE]`
struct ExportCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    let formatName = arguments.value("format") ?? "docket"
    guard let format = TransferFormat(rawValue: formatName), format != .github else {
      throw CommandFailure.usage(
        UsageText.message(
          for: .badValue(
            option: "--format", value: formatName, allowed: "docket, taskwarrior, csv"),
          l10n))
    }
    let database = try context.database()
    let now = context.now
    guard let path = arguments.value("output"), path != "-" else {
      var output = context.console.streamingOutput()
      try database.read { db in try Exporter.write(format, from: db, exported: now, to: &output) }
      output.flush()
      return
    }
    // Written beside the file under another name, then renamed over it: a failed export never
    // leaves half a file where the file was. A link is followed to the file it names, and a file
    // that was there keeps its permissions.
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
    let mode = (try? FileManager.default.attributesOfItem(atPath: target.path))?[.posixPermissions]
    let temporary = target.deletingLastPathComponent().appendingPathComponent(
      "." + target.lastPathComponent + ".docket-\(getpid()).tmp")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: nil,
        // A new file is private, as the database it comes from is.
        attributes: [.posixPermissions: mode ?? 0o600]),
      let handle = try? FileHandle(forWritingTo: temporary)
    else { throw CommandFailure.failed(l10n("export.error.unwritable", .string(path))) }
    var failed = false
    var output = OutputBytes(streaming: true) { (bytes: UnsafeRawBufferPointer) in
      guard !failed else { return }
      do { try handle.write(contentsOf: Data(bytes)) } catch { failed = true }
    }
    do {
      try database.read { db in try Exporter.write(format, from: db, exported: now, to: &output) }
      output.flush()
      try handle.synchronize()
      try handle.close()
      guard !failed else {
        throw CommandFailure.failed(l10n("export.error.unwritable", .string(path)))
      }
      guard rename(temporary.path, target.path) == 0 else {
        throw CommandFailure.failed(l10n("export.error.unwritable", .string(path)))
      }
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(at: temporary)
      // A database error is said as one (the file was fine); a file error names the file.
      if error is CommandFailure || !failed { throw error }
      throw CommandFailure.failed(l10n("export.error.unwritable", .string(path)))
    }
  }
}
