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
    try create(target, mode: mode, linking: { link($0, $1) == 0 ? nil : errno }, write)
  }

  /// `create`, its link made by `linking` (the error number, or nil): a test's file system
  /// without hard links.
  static func create(
    _ target: String, mode: mode_t, linking: (String, String) -> Int32?,
    _ write: (Int32) -> Int32?
  ) throws(Failure) {
    let (temporary, descriptor) = try makeTemporary(beside: target)
    defer { unlink(temporary) }
    var failure: Int32? = fchmod(descriptor, mode) == 0 ? nil : errno
    if failure == nil { failure = write(descriptor) }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil { failure = place(temporary, at: target, linking: linking) }
    if let failure { throw Failure(code: failure) }
    syncFolder(of: target)
  }

  /// Gives `temporary` the name `target` unless something has it: the error number, or nil.
  static func place(_ temporary: String, at target: String, linking: (String, String) -> Int32?)
    -> Int32?
  {
    switch linking(temporary, target) {
    case nil: return nil
    case EEXIST?:
      // Over NFS a link the server made, its answer lost, is asked again and answered EEXIST:
      // then the target is the temporary file, under a second name.
      var made = stat()
      var there = stat()
      return lstat(temporary, &made) == 0 && lstat(target, &there) == 0 && made.st_nlink >= 2
        && made.st_dev == there.st_dev && made.st_ino == there.st_ino ? nil : EEXIST
    case EPERM?, ENOTSUP?, EOPNOTSUPP?, ENOSYS?, EMLINK?:
      // A file system without hard links (FAT and exFAT on a memory stick, some network
      // shares): a rename that replaces nothing where the system has one, else a look first.
      // Without such a rename, two writers of one name at the same moment may both succeed,
      // the later's file in place of the earlier's.
      if let code = renameWithoutReplacing(temporary, target), code != EINVAL, code != ENOSYS {
        return code == 0 ? nil : code
      }
      var status = stat()
      if lstat(target, &status) == 0 { return EEXIST }
      return rename(temporary, target) == 0 ? nil : errno
    case let code?: return code
    }
  }

  /// `renameat2(…, RENAME_NOREPLACE)` where the C library has it (found when first asked for:
  /// the Swift overlay does not declare it): 0, an error number, or nil where there is none.
  private static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32? {
    #if os(Linux)
      guard let function = renameat2 else { return nil }
      let noReplace: UInt32 = 1  // RENAME_NOREPLACE
      return function(AT_FDCWD, from, AT_FDCWD, to, noReplace) == 0 ? 0 : errno
    #else
      return renamex_np(from, to, UInt32(RENAME_EXCL)) == 0 ? 0 : errno
    #endif
  }

  #if os(Linux)
    private typealias RenameAt2 =
      @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
      ) -> Int32
    private static let renameat2: RenameAt2? = dlsym(
      UnsafeMutableRawPointer(bitPattern: 0), "renameat2"
    )
    .map { unsafeBitCast($0, to: RenameAt2.self) }
  #endif

  /// Writes the folder's entries to the disk (a name just renamed or linked in); best effort.
  public static func syncFolder(of path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
