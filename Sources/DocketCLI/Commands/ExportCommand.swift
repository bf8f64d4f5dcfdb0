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
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
    let mode = (try? FileManager.default.attributesOfItem(atPath: target.path))?[.posixPermissions]
    let temporary = target.deletingLastPathComponent().appendingPathComponent(
      "." + target.lastPathComponent + ".docket-\(getpid()).tmp"
    ).path
    func unwritable(_ code: Int32) -> CommandFailure {
      .failed(
        l10n(
          "export.error.unwritable", .string(path),
          .string(l10n.systemReason(String(cString: strerror(code))))))
    }
    // Made afresh (a file or link left at the name by an export that was killed is removed, never
    // written through), with the permissions set whatever the umask: those of the file it
    // replaces, or private for a new one, as the database it comes from is.
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    var descriptor = open(temporary, flags, 0o600)
    if descriptor < 0, errno == EEXIST, unlink(temporary) == 0 {
      descriptor = open(temporary, flags, 0o600)
    }
    guard descriptor >= 0 else { throw unwritable(errno) }
    guard fchmod(descriptor, mode_t((mode as? NSNumber)?.intValue ?? 0o600)) == 0 else {
      let code = errno
      close(descriptor)
      unlink(temporary)
      throw unwritable(code)
    }
    var failure: Int32 = 0
    var output = OutputBytes(streaming: true) { (bytes: UnsafeRawBufferPointer) in
      guard failure == 0, var next = bytes.baseAddress else { return }
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
    do {
      try database.read { db in try Exporter.write(format, from: db, exported: now, to: &output) }
      output.flush()
    } catch {
      // A database error is said as one: the file was fine.
      close(descriptor)
      unlink(temporary)
      throw error
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure == 0, rename(temporary, target.path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw unwritable(failure)
    }
    // The new name on the disk too: the folder's entry is written with it.
    let folder = open(target.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }
}
