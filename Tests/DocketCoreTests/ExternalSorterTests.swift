import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct ExternalSorterTests {
  /// Keys of every length, zero bytes included, in any number of runs, come out in byte order
  /// with their payloads; an empty sorter gives nothing.
  @Test(arguments: [4 << 20, 16_384, 2_048])
  func recordsComeOutInKeyOrder(chunkBytes: Int) throws {
    var random = SplitMix64(seed: UInt64(chunkBytes))
    var records: [(key: [UInt8], payload: [UInt8])] = []
    for index in 0..<2_000 {
      let length = Int(random.next() % 12)
      let key = (0..<length).map { _ in UInt8(random.next() % 4) }
      let payload = Array("\(index)".utf8) + [UInt8](repeating: 7, count: Int(random.next() % 300))
      records.append((key, payload))
    }
    // One record larger than a run reader's buffer.
    records.append(([1, 2], [UInt8](repeating: 9, count: 300_000)))
    var out: [(key: [UInt8], payload: [UInt8])] = []
    do {
      let sorter = ExternalSorter(chunkBytes: chunkBytes)
      for record in records { try sorter.add(key: record.key, payload: record.payload) }
      try sorter.finish { key, payload in out.append((Array(key), Array(payload))) }
      // Small chunks make more runs than are merged at once: they are merged in passes.
      #expect(
        chunkBytes > 1_000_000 ? sorter.runCount == 0 : sorter.runCount > ExternalSorter.fanIn)
    }

    #expect(out.count == records.count)
    for (earlier, later) in zip(out, out.dropFirst()) {
      #expect(!later.key.lexicographicallyPrecedes(earlier.key))
    }
    let sortedIn = records.map { $0.key + [255] + $0.payload }.sorted {
      $0.lexicographicallyPrecedes($1)
    }
    let sortedOut = out.map { $0.key + [255] + $0.payload }.sorted {
      $0.lexicographicallyPrecedes($1)
    }
    #expect(sortedIn == sortedOut)
    let empty = ExternalSorter(chunkBytes: chunkBytes)
    var called = false
    try empty.finish { _, _ in called = true }
    #expect(!called)
  }

  /// Keys made by `SortKeyBytes` order as the values do: numbers as numbers, either way, and
  /// text as SQLite orders it (bytes, then length), zero bytes and all.
  @Test func keyBytesOrderAsTheValues() {
    let numbers: [Double] = [-1e300, -2.5, -1, -0.5, 0, 0.25, 1, 3, 1.7e9, 1e300]
    func key(_ value: Double, descending: Bool) -> [UInt8] {
      var bytes: [UInt8] = []
      SortKeyBytes.append(value, descending: descending, to: &bytes)
      return bytes
    }
    for (a, b) in zip(numbers, numbers.dropFirst()) {
      #expect(key(a, descending: false).lexicographicallyPrecedes(key(b, descending: false)))
      #expect(key(b, descending: true).lexicographicallyPrecedes(key(a, descending: true)))
    }
    let texts: [[UInt8]] = [
      [], [0], [0, 0], [0, 1], [1], [1, 0], [1, 0, 0], [1, 1], [0xFF], [0xFF, 0],
    ]
    func key(_ text: [UInt8], descending: Bool) -> [UInt8] {
      var bytes: [UInt8] = []
      text.withUnsafeBufferPointer {
        SortKeyBytes.append(text: $0, descending: descending, to: &bytes)
      }
      return bytes + [0x42]
    }
    for (a, b) in zip(texts, texts.dropFirst()) {
      #expect(
        key(a, descending: false).lexicographicallyPrecedes(key(b, descending: false)), "\(a) \(b)")
      #expect(
        key(b, descending: true).lexicographicallyPrecedes(key(a, descending: true)), "\(a) \(b)")
    }
  }

  /// A run that cannot be written (a full disk: /dev/full) fails with the system's reason, in
  /// words that name the temporary folder and what to do, never as an unexpected error.
  @Test func aRunThatCannotBeWrittenSaysWhy() throws {
    let full = open("/dev/full", O_WRONLY)
    try #require(full >= 0)
    defer { close(full) }
    #expect(throws: SortFileError(code: ENOSPC)) {
      try ExternalSorter.write(Array(repeating: 1, count: 4096), to: full)
    }
    let message = DocketStrings.localizer(language: "en").message(for: SortFileError(code: ENOSPC))
    #expect(message.hasPrefix("cannot sort the list in the temporary folder "), "\(message)")
    #expect(message.contains(": No space left on device. Free some space there"), "\(message)")
    // A run read back short is no matter of room.
    let short = DocketStrings.localizer(language: "en").message(for: SortFileError(code: EIO))
    #expect(short.hasSuffix(": Input/output error."), "\(short)")
  }

}
