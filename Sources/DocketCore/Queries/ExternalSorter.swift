import Files
import Foundation

/// Records sorted by their keys in bounded memory: records gather in a chunk; a full chunk is
/// sorted and written to a temporary file (a run); at the end the runs are merged. Keys compare
/// as bytes (shorter first when one is the start of the other), as SQLite compares text and
/// blobs. The temporary files are unlinked as soon as they are made, so nothing is left behind,
/// even by a crash.
final class ExternalSorter {
  private let chunkLimit: Int
  private var chunk: [UInt8] = []
  /// The first eight key bytes of each record in the chunk (most comparisons end there), and where
  /// the record starts.
  private var entries: [(prefix: UInt64, offset: Int)] = []
  private var runs: [Int32] = []
  /// How many runs were written: more than none means the records did not fit in one chunk.
  private(set) var runCount = 0

  init(chunkBytes: Int = 8 << 20) {
    chunkLimit = chunkBytes
    chunk.reserveCapacity(min(chunkBytes, 1 << 20))
  }

  deinit { for run in runs { close(run) } }

  func add(key: [UInt8], payload: [UInt8]) throws {
    try key.withUnsafeBytes { key in
      try payload.withUnsafeBytes { payload in try add(key: key, payload: payload) }
    }
  }

  func add(key: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) throws {
    if !chunk.isEmpty, chunk.count + key.count + payload.count + 8 > chunkLimit {
      try writeRun()
    }
    entries.append((Self.prefix(key), chunk.count))
    Self.append(UInt32(key.count), to: &chunk)
    Self.append(UInt32(payload.count), to: &chunk)
    chunk.append(contentsOf: key)
    chunk.append(contentsOf: payload)
  }

  /// Calls `body` with every record's key and payload, in key order. The buffers are valid only
  /// during the call.
  func finish(
    _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
  ) throws {
    if runs.isEmpty {
      sortChunk()
      try chunk.withUnsafeBytes { bytes in
        for entry in entries {
          let (key, payload) = Self.record(in: bytes, at: entry.offset)
          try body(key, payload)
        }
      }
      return
    }
    if !entries.isEmpty { try writeRun() }
    chunk = []
    entries = []
    // Sixteen runs at a time are merged into one until sixteen or fewer are left, so the
    // readers' buffers (256 KiB each) and the open files stay bounded however long the list.
    while runs.count > Self.fanIn {
      let group = Array(runs.prefix(Self.fanIn))
      runs.removeFirst(Self.fanIn)
      defer { for file in group { close(file) } }
      let merged = try Self.temporaryFile()
      runs.append(merged)
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1 << 20)
      try Self.merge(group) { key, payload in
        Self.append(UInt32(key.count), to: &buffer)
        Self.append(UInt32(payload.count), to: &buffer)
        buffer.append(contentsOf: key)
        buffer.append(contentsOf: payload)
        if buffer.count >= 1 << 20 {
          try Self.write(buffer, to: merged)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try Self.write(buffer, to: merged)
    }
    try Self.merge(runs, body)
  }

  /// How many runs are merged at once.
  static let fanIn = 16

  /// Calls `body` with the records of `files` (sorted runs, each read from its start) in key
  /// order.
  private static func merge(
    _ files: [Int32], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let readers = try files.map { try RunReader(file: $0) }.filter { $0.hasRecord }
    // A binary heap of readers, least key on top.
    func less(_ a: Int, _ b: Int) -> Bool {
      compare(readers[a].key, readers[b].key) < 0
    }
    var heap = Array(readers.indices)
    func siftDown(_ start: Int) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var least = parent
        if left < heap.count, less(heap[left], heap[least]) { least = left }
        if right < heap.count, less(heap[right], heap[least]) { least = right }
        if least == parent { return }
        heap.swapAt(parent, least)
        parent = least
      }
    }
    for index in stride(from: heap.count / 2, through: 0, by: -1) { siftDown(index) }
    while let top = heap.first {
      try body(readers[top].key, readers[top].payload)
      try readers[top].advance()
      if !readers[top].hasRecord {
        heap[0] = heap[heap.count - 1]
        heap.removeLast()
      }
      if !heap.isEmpty { siftDown(0) }
    }
  }

  private func sortChunk() {
    chunk.withUnsafeBytes { bytes in
      entries.sort { left, right in
        if left.prefix != right.prefix { return left.prefix < right.prefix }
        let a = Self.record(in: bytes, at: left.offset).key
        let b = Self.record(in: bytes, at: right.offset).key
        return Self.compare(a, b) < 0
      }
    }
  }

  private func writeRun() throws {
    sortChunk()
    let file = try Self.temporaryFile()
    runs.append(file)
    runCount += 1
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    try chunk.withUnsafeBytes { bytes in
      for entry in entries {
        let length = Self.recordLength(in: bytes, at: entry.offset)
        buffer.append(contentsOf: bytes[entry.offset..<(entry.offset + length)])
        if buffer.count >= 1 << 20 {
          try Self.write(buffer, to: file)
          buffer.removeAll(keepingCapacity: true)
        }
      }
    }
    try Self.write(buffer, to: file)
    chunk.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
  }

  // MARK: Records

  static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
  }

  static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
      | Int(bytes[offset + 3]) << 24
  }

  static func recordLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    8 + readUInt32(bytes, at: offset) + readUInt32(bytes, at: offset + 4)
  }

  static func record(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (
    key: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer
  ) {
    let keyLength = readUInt32(bytes, at: offset)
    let payloadLength = readUInt32(bytes, at: offset + 4)
    let key = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + keyLength)])
    let payloadStart = offset + 8 + keyLength
    let payload = UnsafeRawBufferPointer(
      rebasing: bytes[payloadStart..<(payloadStart + payloadLength)])
    return (key, payload)
  }

  static func prefix(_ key: UnsafeRawBufferPointer) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<8 {
      value = value << 8 | UInt64(index < key.count ? key[index] : 0)
    }
    return value
  }

  /// Byte order, then length.
  static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
      let order = memcmp(left, right, common)
      if order != 0 { return Int(order) }
    }
    return a.count - b.count
  }

  // MARK: Files

  static func temporaryFile() throws -> Int32 {
    var template = Array(
      (NSTemporaryDirectory() + "/docket-sort-XXXXXX").utf8CString)
    let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard file >= 0 else { throw SortFileError(code: errno) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return file
  }

  static func write(_ bytes: [UInt8], to file: Int32) throws {
    if let failure = bytes.withUnsafeBytes({ FileWriting.writeAll(file, $0) }) {
      throw SortFileError(code: failure)
    }
  }

  /// Reads one run from its start, a record at a time, through a buffer of its own that grows to
  /// hold the largest record. `key` and `payload` stay valid until the next `advance`.
  final class RunReader {
    let file: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var atEnd = false
    private(set) var hasRecord = false
    private var length = 0

    init(file: Int32) throws {
      self.file = file
      buffer = .allocate(byteCount: 256 << 10, alignment: 8)
      lseek(file, 0, SEEK_SET)
      try load()
    }

    deinit { buffer.deallocate() }

    var key: UnsafeRawBufferPointer {
      ExternalSorter.record(in: UnsafeRawBufferPointer(buffer), at: start).key
    }

    var payload: UnsafeRawBufferPointer {
      ExternalSorter.record(in: UnsafeRawBufferPointer(buffer), at: start).payload
    }

    func advance() throws {
      start += length
      try load()
    }

    /// Makes the next record whole in the buffer, or notes that the run is over.
    private func load() throws {
      while true {
        let available = end - start
        if available >= 8 {
          length = ExternalSorter.recordLength(in: UnsafeRawBufferPointer(buffer), at: start)
          if available >= length {
            hasRecord = true
            return
          }
        }
        if atEnd {
          // A run that ends inside a record lost bytes on the way: never a silently short list.
          guard available == 0 else {
            throw SortFileError(code: EIO)
          }
          hasRecord = false
          return
        }
        // Move what is left to the front, grow for a large record, and read more.
        if start > 0 {
          _ = memmove(buffer.baseAddress!, buffer.baseAddress! + start, available)
          start = 0
          end = available
        }
        if available >= 8, length > buffer.count {
          let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 8)
          larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
          buffer.deallocate()
          buffer = larger
        }
        let read = Foundation.read(file, buffer.baseAddress! + end, buffer.count - end)
        if read < 0, errno == EINTR { continue }
        guard read >= 0 else {
          throw SortFileError(code: errno)
        }
        if read == 0 { atEnd = true }
        end += read
      }
    }
  }
}

/// A list too long to sort in memory could not be sorted in the temporary folder (full, past
/// the file-size limit, or a run read back short): the system's error number.
public struct SortFileError: Error, Equatable, Sendable {
  public var code: Int32
  /// Where the runs are written.
  public var folder: String { NSTemporaryDirectory() }
}
