import Foundation

/// Opening a file that others may have put there (a shared folder) to read it: the file itself,
/// never what a symbolic link names, never a pipe or a device (whose `open` may wait for ever),
/// and not when it is larger than the reader will take.
public enum FileReading {
  /// Why a file was not opened.
  public enum Refusal: Error, Equatable, Sendable {
    /// A symbolic link: not followed.
    case link
    /// Not a regular file (a folder, a pipe, a device, a socket).
    case notAFile
    /// Larger than the limit: its size.
    case tooLarge(Int64)
    /// The system's error number.
    case system(Int32)
  }

  /// A file open for reading, and its size when it was opened.
  public struct Opened: Sendable {
    public var descriptor: Int32
    public var size: Int64
  }

  /// Opens `path` for reading if it is a regular file of at most `limit` bytes; the caller
  /// closes the descriptor.
  public static func open(_ path: String, limit: Int64 = .max) throws(Refusal) -> Opened {
    // O_NONBLOCK: a pipe named like a file would otherwise hold `open` until a writer came.
    let descriptor = Foundation.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      // Linux says ELOOP for a link refused by O_NOFOLLOW; some systems say EMLINK.
      if code == ELOOP || code == EMLINK { throw .link }
      throw .system(code)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw .system(code)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw .notAFile
    }
    let size = Int64(status.st_size)
    guard size <= limit else {
      close(descriptor)
      throw .tooLarge(size)
    }
    return Opened(descriptor: descriptor, size: size)
  }

  /// The whole of `path`, if it is a regular file of at most `limit` bytes; a file that grows
  /// past the limit while it is read is refused as too large.
  public static func contents(of path: String, limit: Int64 = .max) throws(Refusal) -> [UInt8] {
    let file = try open(path, limit: limit)
    defer { close(file.descriptor) }
    var bytes = [UInt8](repeating: 0, count: Int(min(file.size, limit)) + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        guard Int64(bytes.count) <= limit else { throw .tooLarge(Int64(bytes.count)) }
        bytes += [UInt8](repeating: 0, count: min(bytes.count, 1 << 20))
      }
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(file.descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(errno)
      }
      if count == 0 { break }
      filled += count
    }
    guard Int64(filled) <= limit else { throw .tooLarge(Int64(filled)) }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// What a path is without following a link: a regular file, a folder, a link, or something
  /// else; nil when nothing is there. With the size and the time of the last change, which
  /// together tell one content of a file from the next.
  public static func entry(_ path: String) -> Entry? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    let kind: Entry.Kind
    switch status.st_mode & S_IFMT {
    case S_IFREG: kind = .file
    case S_IFDIR: kind = .folder
    case S_IFLNK: kind = .link
    default: kind = .other
    }
    #if canImport(Darwin)
      let changed = status.st_mtimespec
    #else
      let changed = status.st_mtim
    #endif
    // As the file system keeps it: a time past 2262 does not fit nanoseconds in 64 bits.
    return Entry(
      kind: kind, size: Int64(status.st_size), modified: "\(changed.tv_sec).\(changed.tv_nsec)")
  }

  public struct Entry: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case file, folder, link, other }
    public var kind: Kind
    public var size: Int64
    /// When its content last changed, as seconds and nanoseconds since 1970: compared, not
    /// counted with.
    public var modified: String
  }
}
