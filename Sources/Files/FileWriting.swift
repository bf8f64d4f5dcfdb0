import Foundation

/// Writing bytes to a file descriptor whole, and replacing a file whole: the few system calls
/// every writer of files in Docket needs (an export, the sync folder's packages, the password
/// file, the console's output), with the system's error number for what failed.
public enum FileWriting {
  /// Writes all of `bytes` to `descriptor`, again after an interruption and after a short write;
  /// the error number of a write that failed, or nil.
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard var next = bytes.baseAddress else { return nil }
    var left = bytes.count
    while left > 0 {
      let written = write(descriptor, next, left)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      next += written
      left -= written
    }
    return nil
  }

  /// A new file at `path`, readable and writable by its owner only, open for reading and
  /// writing; -1 (and `errno`) when it cannot be made or something is there already.
  public static func createPrivate(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
  }

  /// The system's words for an error number ("No space left on device").
  public static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
