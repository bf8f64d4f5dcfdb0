import Foundation

/// A file replaced whole: what is written goes to a new file beside it, under a name of its own
/// that starts with a dot (which readers of a folder pass over), is flushed to the disk, and is
/// renamed over the file. A reader finds the old file or the new one, never part of either, and
/// a failure leaves the old one as it was and nothing beside it.
public enum FileReplacement {
  /// What failed, with the system's error number.
  public struct Failure: Error, Equatable, Sendable {
    public var code: Int32
    public var reason: String { FileWriting.reason(code) }
    public init(code: Int32) { self.code = code }
  }

  /// Whether a name in a folder is one `makeTemporary` gives: a dot, the file's name, `.docket-`,
  /// hexadecimal digits, `.tmp`. A writer killed before its rename leaves such a file behind.
  public static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix("."), name.hasSuffix(".tmp"),
      let marker = name.range(of: ".docket-", options: .backwards),
      marker.lowerBound > name.index(after: name.startIndex)
    else { return false }
    let digits = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)]
    return !digits.isEmpty && digits.count <= 8 && digits.allSatisfy(\.isHexDigit)
  }

  /// A new, empty file beside `target` that nothing else is using: its path and an open
  /// descriptor for writing. Its name is random, never one another writer may be using (two
  /// processes may share a process id, in containers on one shared folder), and it is made with
  /// `O_EXCL`, so nothing found there (a link, another's file) is written through or removed.
  public static func makeTemporary(beside target: String) throws(Failure) -> (
    path: String, descriptor: Int32
  ) {
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    for _ in 0..<16 {
      let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
      let path = (folder.isEmpty ? "" : folder + "/") + "." + name + ".docket-" + suffix + ".tmp"
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor >= 0 { return (path, descriptor) }
      guard errno == EEXIST else { throw Failure(code: errno) }
    }
    throw Failure(code: EEXIST)
  }

  /// Replaces `target` with what `write` writes to the descriptor it is given (returning the
  /// error number of a write that failed, or nil). The new file has `mode` whatever the umask;
  /// nil keeps the permission bits of the regular file there, or makes a new one private.
  /// An error `write` throws is thrown as it is, after the new file is removed.
  public static func replace(
    _ target: String, mode: mode_t? = nil, _ write: (Int32) throws -> Int32?
  ) throws {
    var status = stat()
    let kept = stat(target, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    let (temporary, descriptor) = try makeTemporary(beside: target)
    var failure: Int32? =
      fchmod(descriptor, mode ?? (kept ? status.st_mode & 0o777 : 0o600)) == 0 ? nil : errno
    do {
      if failure == nil { failure = try write(descriptor) }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, target) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw Failure(code: failure)
    }
    syncFolder(of: target)
  }

  /// Makes `target` with what `write` writes, only if there is nothing there: written beside
  /// it, flushed, and linked into place, which fails with `EEXIST` (and leaves what is there as
  /// it was) when another writer made it first.
  public static func create(_ target: String, mode: mode_t = 0o600, _ write: (Int32) -> Int32?)
    throws(Failure)
  {
    let (temporary, descriptor) = try makeTemporary(beside: target)
    defer { unlink(temporary) }
    var failure: Int32? = fchmod(descriptor, mode) == 0 ? nil : errno
    if failure == nil { failure = write(descriptor) }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, link(temporary, target) != 0 { failure = errno }
    if let failure { throw Failure(code: failure) }
    syncFolder(of: target)
  }

  /// Writes the folder's entries to the disk (a name just renamed or linked in); best effort.
  public static func syncFolder(of path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
