import Files
import Foundation

/// A package's lines one at a time, each without its line break: what `PackageFormat` decodes a
/// part at a time, from bytes held or from a file read as it goes.
protocol PackageLines {
  /// The next line; nil at the end. A last piece without its line break is `.partial` (a file
  /// cut short, or still being copied in).
  mutating func nextLine() throws -> [UInt8]?
}

/// Where the first line break is in `bytes[start..<end]` (memchr: a generic search is slow, in a
/// debug build above all).
func lineBreak(in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
  bytes.withUnsafeBufferPointer { buffer in
    guard let base = buffer.baseAddress, start < end,
      let found = memchr(base + start, 0x0A, end - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }
}

/// The lines of bytes held whole (a package from the server).
struct LinesInMemory: PackageLines {
  let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The last line, without its line break; nil when the bytes do not end with one.
  var lastLine: [UInt8]? {
    guard bytes.last == 0x0A else { return nil }
    let end = bytes.count - 1
    var start = end
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    return Array(bytes[start..<end])
  }

  mutating func nextLine() throws -> [UInt8]? {
    guard offset < bytes.count else { return nil }
    guard let end = lineBreak(in: bytes, from: offset, to: bytes.count) else {
      throw PackageProblem.partial
    }
    defer { offset = end + 1 }
    return Array(bytes[offset..<end])
  }
}

/// The lines of a file, read a mebibyte at a time: a snapshot grows with the database, and a
/// large one is not to be held in memory whole.
final class LinesFromFile: PackageLines {
  /// The longest line read: 32 MiB, twice the longest change of the largest texts `Limits`
  /// allows; a snapshot's line longer than that would hold its reader's memory for nothing.
  static let longestLine = 32 << 20

  private let descriptor: Int32
  /// Read and not yet handed on: `buffer[start..<end]`. It grows only for a line longer than it.
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  /// Up to where `buffer[start..<end]` is known to hold no line break.
  private var searched = 0
  private var atEnd = false

  /// Opens `path`; throws with the system's error number.
  init(path: String, pieceSize: Int = 1 << 20) throws(FileReplacement.Failure) {
    precondition(pieceSize > 0, "a piece holds bytes")
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileReplacement.Failure(code: errno) }
    buffer = [UInt8](repeating: 0, count: pieceSize)
  }

  /// Reads the file open at `descriptor`, which it closes when done.
  init(descriptor: Int32, pieceSize: Int = 1 << 20) {
    precondition(pieceSize > 0, "a piece holds bytes")
    self.descriptor = descriptor
    buffer = [UInt8](repeating: 0, count: pieceSize)
  }

  /// Up to `count` bytes from the start of the file, read at their own offset.
  func firstBytes(_ count: Int) throws(FileReplacement.Failure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var read = -1
    while read < 0 {
      read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
      if read < 0, errno != EINTR { throw FileReplacement.Failure(code: errno) }
    }
    return Array(bytes.prefix(read))
  }

  deinit { close(descriptor) }

  func nextLine() throws -> [UInt8]? {
    while true {
      if let found = lineBreak(in: buffer, from: max(start, searched), to: end) {
        defer { start = found + 1 }
        return Array(buffer[start..<found])
      }
      searched = end
      if atEnd {
        guard start == end else { throw PackageProblem.partial }
        return nil
      }
      // The line so far moves to the front, and the next piece is read after it.
      if start > 0 {
        let (from, count) = (start, end - start)
        buffer.withUnsafeMutableBytes { bytes in
          guard let base = bytes.baseAddress else { return }
          _ = memmove(base, base + from, count)
        }
        (start, end, searched) = (0, count, count)
      }
      if end == buffer.count {
        // A line longer than any Docket writes (at most about 16 MiB) is none of Docket's.
        guard buffer.count < Self.longestLine else {
          throw PackageProblem.tooLarge(limit: Int64(Self.longestLine))
        }
        buffer += [UInt8](repeating: 0, count: min(buffer.count, Self.longestLine - buffer.count))
      }
      var count = -1
      while count < 0 {
        count = buffer.withUnsafeMutableBytes { bytes in
          read(descriptor, bytes.baseAddress! + end, bytes.count - end)
        }
        if count < 0, errno != EINTR { throw FileReplacement.Failure(code: errno) }
      }
      end += count
      atEnd = count == 0
    }
  }

  /// The file's last line, read from its end, without its line break: nil when the file does
  /// not end with one, and empty when the line is longer than `maximum` (an end line is a few
  /// bytes). Read at its own offset: where the lines are read from is left as it is.
  func lastLine(maximum: Int = 4096) throws(FileReplacement.Failure) -> [UInt8]? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileReplacement.Failure(code: errno) }
    let size = Int(status.st_size)
    // The line, its own line break, and the one before it.
    let length = min(size, maximum + 2)
    guard length > 0 else { return nil }
    var tail = [UInt8](repeating: 0, count: length)
    var count = -1
    while count < 0 {
      count = tail.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, length, off_t(size - length))
      }
      if count < 0, errno != EINTR { throw FileReplacement.Failure(code: errno) }
    }
    guard count == length, tail.last == 0x0A else { return nil }
    tail.removeLast()
    var start = tail.count
    while start > 0, tail[start - 1] != 0x0A { start -= 1 }
    if start == 0, length < size { return [] }
    return Array(tail[start...])
  }
}
