import Database
import DocketTestSupport
import Foundation
import Testing

@testable import DocketSync

/// A package read a line at a time, from bytes held and from a file read a piece at a time,
/// gives what it does decoded whole; one cut short says so.
@Suite struct PackageLinesTests {
  static let device = "5d1c2a9e-0000-4000-8000-000000000001"

  /// A snapshot of `count` changes, some with a detail longer than the pieces read.
  static func package(_ count: Int) -> (PackageName, [UInt8]) {
    let name = PackageName(device: device, kind: .snapshot, number: 0x1a2b)
    let changes = (0..<count).map { index in
      Change(
        stamp: Stamp(hlc: Int64(index + 1) << 16, device: device), entity: .issue,
        row: "00000000-0000-4000-8000-\(String(format: "%012d", index))", field: "detail",
        old: .null,
        new: .text(
          index % 4 == 0 ? String(repeating: "Ü long line ", count: 40) : "short \(index)"),
        modified: 1_800_000_000.25)
    }
    let package = Package(
      name: name, deviceName: "Laptop", covers: [device: Int64(count)], changes: changes)
    return (name, PackageFormat.encode(package))
  }

  func write(_ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-lines-\(UUID().uuidString)"
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func lines(_ source: inout some PackageLines) throws -> [[UInt8]] {
    var lines: [[UInt8]] = []
    while let line = try source.nextLine() { lines.append(line) }
    return lines
  }

  @Test(arguments: [0, 1, 5, 40])
  func linesAndPartsAreAsWhole(count: Int) throws {
    let (name, bytes) = Self.package(count)
    let expected = bytes.split(separator: 0x0A).map(Array.init)
    let whole = try PackageFormat.decode(bytes, expected: name)
    var held = LinesInMemory(bytes)
    #expect(try Self.lines(&held) == expected)
    #expect(LinesInMemory(bytes).lastLine == expected.last)
    let path = try write(bytes)
    defer { unlink(path) }
    for pieceSize in [7, 64, 1 << 20] {
      var file = try LinesFromFile(path: path, pieceSize: pieceSize)
      #expect(try Self.lines(&file) == expected, "pieces of \(pieceSize)")
      #expect(try LinesFromFile(path: path, pieceSize: pieceSize).lastLine() == expected.last)
      // Decoded from the file a part at a time: the same changes, in parts of 3.
      var source = try LinesFromFile(path: path, pieceSize: pieceSize)
      let (header, headerCount) = try PackageFormat.header(&source, expected: name)
      #expect(headerCount == count && header.covers == whole.covers)
      var parts: [[Change]] = []
      try PackageFormat.changes(&source, header: header, count: count, partSize: 3) {
        parts.append($0.changes)
      }
      #expect(parts.flatMap { $0 } == whole.changes)
      #expect(parts.dropLast().allSatisfy { $0.count == 3 })
      #expect(parts.count == max(1, (count + 2) / 3))
    }
  }

  /// Cut short (a sync tool still copying it in): no last line, and reading on says so.
  @Test func aFileCutShortIsPartial() throws {
    let (name, bytes) = Self.package(5)
    let cut = Array(bytes.prefix(bytes.count - 20))
    let path = try write(cut)
    defer { unlink(path) }
    #expect(try LinesFromFile(path: path, pieceSize: 16).lastLine() == nil)
    #expect(LinesInMemory(cut).lastLine == nil)
    var file = try LinesFromFile(path: path, pieceSize: 16)
    #expect(throws: PackageProblem.partial) { try Self.lines(&file) }
    #expect(throws: PackageProblem.partial) {
      try PackageFormat.decodeInParts(cut, expected: name, partSize: 2) { _ in }
    }
  }

  /// A count of lines other than the header's, with a right end line: found at the end, after
  /// the parts before were handed on, as cut short.
  @Test func aLineTooManyIsFoundAtTheEnd() throws {
    let (name, bytes) = Self.package(4)
    var lines = bytes.split(separator: 0x0A).map(Array.init)
    lines.insert(lines[1], at: 1)
    let extra = Array(lines.joined(separator: [0x0A])) + [0x0A]
    var handed = 0
    #expect(throws: PackageProblem.partial) {
      try PackageFormat.decodeInParts(extra, expected: name, partSize: 2) { _ in handed += 1 }
    }
    #expect(handed == 2)
    // A line too few: the end line comes where a change should, and says so as cut short.
    lines.remove(at: 1)
    lines.remove(at: 1)
    let fewer = Array(lines.joined(separator: [0x0A])) + [0x0A]
    #expect(throws: PackageProblem.partial) {
      try PackageFormat.decodeInParts(fewer, expected: name, partSize: 2) { _ in }
    }
  }

  /// The last line read from the end: one of exactly the most it reads, one longer (empty: no
  /// end line), a file of one line, a file without a last line break.
  @Test func theLastLineFromTheEnd() throws {
    func last(_ text: String, maximum: Int) throws -> [UInt8]? {
      let path = try write(Array(text.utf8))
      defer { unlink(path) }
      return try LinesFromFile(path: path).lastLine(maximum: maximum)
    }
    #expect(try last("head\n12345678\n", maximum: 8) == Array("12345678".utf8))
    #expect(try last("head\n123456789\n", maximum: 8) == [])
    #expect(try last("12345678\n", maximum: 8) == Array("12345678".utf8))
    #expect(try last("only\n", maximum: 8) == Array("only".utf8))
    #expect(try last("head\nno break", maximum: 8) == nil)
    #expect(try last("", maximum: 8) == nil)
  }

  /// A snapshot in a folder read a part at a time: one cut short is refused before anything is
  /// handed on; one with a line too many hands on its first parts, then says so.
  @Test func aFoldersSnapshotIsCheckedBeforeAndAfter() throws {
    let folder = try TemporaryDirectory()
    let (name, bytes) = Self.package(6)
    let remote = FolderRemote(path: folder.path, device: Self.device)
    try FileManager.default.createDirectory(
      atPath: folder.path(Self.device), withIntermediateDirectories: true)
    let file = folder.path + "/" + name.description
    try Data(bytes.prefix(bytes.count - 3)).write(to: URL(fileURLWithPath: file))
    #expect {
      try remote.readParts(name)
    } throws: { ($0 as? SkippedPackage)?.problem == .package(.partial) }
    var lines = bytes.split(separator: 0x0A).map(Array.init)
    lines.insert(lines[1], at: 1)
    try Data(Array(lines.joined(separator: [0x0A])) + [0x0A]).write(to: URL(fileURLWithPath: file))
    let parts = try remote.readParts(name)
    var handed = 0
    #expect {
      try parts.forEach(partSize: 2) { _ in handed += 1 }
    } throws: { ($0 as? SkippedPackage)?.problem == .package(.partial) }
    #expect(handed == 3)
    // Whole again: all six, in parts of 4 and 2.
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    var sizes: [Int] = []
    try remote.readParts(name).forEach(partSize: 4) { sizes.append($0.changes.count) }
    #expect(sizes == [4, 2])
  }
}
