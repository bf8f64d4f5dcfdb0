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
    // that was there keeps its permissions. Each failure says the system's reason ("No space
    // left on device").
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    func unwritable(_ code: Int32) -> CommandFailure {
      .failed(
        l10n(
          "export.error.unwritable", .string(path),
          .string(l10n.systemReason(String(cString: strerror(code))))))
    }
    var status = stat()
    let exists = stat(target, &status) == 0
    let kind = status.st_mode & S_IFMT
    if exists, kind == S_IFDIR { throw unwritable(EISDIR) }
    // Not a file (a terminal, a pipe, /dev/null): written to as it is, never replaced.
    if exists, kind != S_IFREG {
      let descriptor = open(target, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw unwritable(errno) }
      defer { close(descriptor) }
      if let failure = try export(format, from: database, to: descriptor) {
        throw unwritable(failure)
      }
      return
    }
    // Made afresh under a name of its own (never one another export may be writing, nor a link
    // left there), with the permissions set whatever the umask: those of the file it replaces,
    // or private for a new one, as the database it comes from is.
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<16 where descriptor < 0 {
      let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
      temporary = folder + "/." + name + ".docket-" + suffix + ".tmp"
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor < 0, errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw unwritable(errno) }
    let mode = exists ? status.st_mode & 0o777 : 0o600
    var failure: Int32? = fchmod(descriptor, mode) == 0 ? nil : errno
    do {
      if failure == nil { failure = try export(format, from: database, to: descriptor) }
    } catch {
      // A database error is said as one: the file was fine.
      close(descriptor)
      unlink(temporary)
      throw error
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, target) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw unwritable(failure)
    }
    // The new name on the disk too: the folder's entry is written with it.
    let entry = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if entry >= 0 {
      fsync(entry)
      close(entry)
    }
  }

  /// Writes the export to `descriptor`: the reason it could not (an errno), or nil.
  private func export(_ format: TransferFormat, from database: DatabaseQueue, to descriptor: Int32)
    throws -> Int32?
  {
    var failure: Int32?
    var output = OutputBytes(streaming: true) { (bytes: UnsafeRawBufferPointer) in
      guard failure == nil, var next = bytes.baseAddress else { return }
      var left = bytes.count
      while left > 0 {
        let written = write(descriptor, next, left)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        next += written
        left -= written
      }
    }
    let now = context.now
    try database.read { db in try Exporter.write(format, from: db, exported: now, to: &output) }
    output.flush()
    return failure
  }
}
