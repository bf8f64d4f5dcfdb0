import Database
import DocketCore
import DocketTransfer
import Files
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
      throw UsageText.badValue(option: "format", value: formatName, in: arguments, l10n)
    }
    let database = try context.database()
    guard let path = arguments.value("output"), path != "-" else {
      if context.console.outputIsTerminal {
        let safe = TerminalSafeStream(write: context.console.write)
        try export(format, from: database, to: OutputBytes(streaming: true, writeBytes: safe.take))
        safe.finish()
      } else {
        try export(format, from: database, to: context.console.streamingOutput())
      }
      return
    }
    // A link is followed to the file it names.
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    func unwritable(_ code: Int32, key: String = "export.error.unwritable") -> CommandFailure {
      .failed(l10n(key, .string(path), .string(l10n.systemReason(FileWriting.reason(code)))))
    }
    var status = stat()
    let exists = stat(target, &status) == 0
    let kind = status.st_mode & S_IFMT
    if exists, kind == S_IFDIR { throw unwritable(EISDIR) }
    // Not a file (a terminal, a pipe, /dev/null): written to as it is, never replaced; what a
    // failure leaves there is part of the export.
    if exists, kind != S_IFREG {
      let descriptor = open(target, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw unwritable(errno) }
      defer { close(descriptor) }
      if let failure = try export(format, from: database, to: descriptor) {
        throw unwritable(failure, key: "export.error.unfinished")
      }
      return
    }
    // A file is written beside under another name and renamed over it: a failed export never
    // leaves half a file where the file was, and the file keeps its permissions.
    do {
      try FileReplacement.replace(target) { descriptor in
        try export(format, from: database, to: descriptor)
      }
    } catch let failure as FileReplacement.Failure {
      throw unwritable(failure.code)
    }
  }

  /// Writes the export to `descriptor` (made safe where it is a terminal): the error number of
  /// a write that failed, or nil.
  private func export(_ format: TransferFormat, from database: DatabaseQueue, to descriptor: Int32)
    throws -> Int32?
  {
    var failure: Int32?
    let write = { (bytes: UnsafeRawBufferPointer) in
      if failure == nil { failure = FileWriting.writeAll(descriptor, bytes) }
    }
    if isatty(descriptor) == 1 {
      let safe = TerminalSafeStream { text in
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
      }
      try export(format, from: database, to: OutputBytes(streaming: true, writeBytes: safe.take))
      safe.finish()
    } else {
      try export(format, from: database, to: OutputBytes(streaming: true, writeBytes: write))
    }
    return failure
  }

  private func export(
    _ format: TransferFormat, from database: DatabaseQueue, to output: OutputBytes
  )
    throws
  {
    var output = output
    let now = context.now
    try database.read { db in try Exporter.write(format, from: db, exported: now, to: &output) }
    output.flush()
  }
}
