import DocketCore
import DocketTransfer
import Foundation
import JSONText

/// A package of changes as a remote keeps it: a device's numbered change file, or a snapshot.
public struct PackageName: Hashable, Sendable, Comparable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// A device's numbered change file; a snapshot; a snapshot's database image, beside it.
    case changes, snapshot, image
  }

  public var device: String
  public var kind: Kind
  /// A change file's number (1, 2, … per device), or a snapshot's clock stamp.
  public var number: Int64

  public init(device: String, kind: Kind, number: Int64) {
    self.device = device
    self.kind = kind
    self.number = number
  }

  public static func < (lhs: PackageName, rhs: PackageName) -> Bool {
    (lhs.device, lhs.kind.rawValue, lhs.number) < (rhs.device, rhs.kind.rawValue, rhs.number)
  }

  /// The name as the history of what was read keeps it: `<device>/<number>.changes`.
  public var description: String {
    switch kind {
    case .changes: "\(device)/\(String(format: "%08lld", number)).changes"
    case .snapshot: "\(device)/snapshot-\(String(number, radix: 16)).snapshot"
    case .image: "\(device)/snapshot-\(String(number, radix: 16)).sqlite"
    }
  }
}

/// A package's contents.
public struct Package: Sendable {
  public var name: PackageName
  /// The name of the device that wrote it, as it was then.
  public var deviceName: String
  /// For a snapshot: for each device, the highest change file number whose changes it holds.
  public var covers: [String: Int64]
  public var changes: [Change]
  /// The lines read that held no change Docket could make, each with why: skipped, and the
  /// rest applied without them.
  public var rejected: [ChangeFormatError] = []
  /// Lines skipped beyond the first `PackageFormat.rejectedNamed`, counted, not named.
  public var rejectedMore = 0

  public init(
    name: PackageName, deviceName: String, covers: [String: Int64] = [:], changes: [Change]
  ) {
    self.name = name
    self.deviceName = deviceName
    self.covers = covers
    self.changes = changes
  }
}

/// Why a package could not be read; the rest of a sync goes on without it.
public enum PackageProblem: Error, Equatable, Sendable {
  /// Cut short: still being copied by a sync tool, or written by a device that was stopped.
  case partial
  /// Not a Docket package at all.
  case garbage(Garbage)

  public enum Garbage: String, Equatable, Sendable {
    /// The first line is not JSON.
    case notJSON
    /// JSON, but not a Docket package of this kind.
    case notDocket
    /// A header without a version or a count.
    case incompleteHeader
  }
  /// A line in it held no change Docket could make: that line is skipped, the rest applied.
  case badChange(ChangeFormatError)
  /// Written by a newer Docket.
  case newerVersion(Int)
  /// Its header names another device or number than its file name says.
  case misplaced
  /// Read, but the database would not take it (the system's or SQLite's reason); read again next
  /// time.
  case rejected(String)
  /// Larger than a package of its kind may be (`PackageFormat.changesLimit`, `snapshotLimit`), or
  /// with a line longer than Docket writes: not read at all.
  case tooLarge(limit: Int64)
  /// So many more lines of it skipped, beyond those named.
  case moreBadLines(Int)
  /// In an encrypted remote, not sealed: put there by hand, or by a device that had not yet
  /// heard the remote is encrypted (it seals its own at its next sync).
  case notSealed
  /// Sealed, but it does not open with this remote's key: changed, cut short, or another
  /// remote's.
  case unsealable
}

/// The format: a header line, a change per line, an end line with the count, so that a file cut
/// anywhere is seen to be partial.
///
///     {"docket":"changes","version":1,"device":"…","name":"Laptop","number":7,"count":2}
///     {"h":"…","d":"…","e":"issue","r":"…","f":"title","o":"Old","n":"New","m":1764480000}
///     …
///     {"end":2}
public enum PackageFormat {
  /// The largest change file read: 64 MiB. Docket writes at most 1 000 changes or about 8 MiB
  /// to a file (`SyncEngine.packageBytes`), and one change of the largest texts `Limits` allows
  /// takes at most about 16 MiB; a file larger than this was not written by Docket, and is not
  /// read: reading it would cost time and memory out of all proportion.
  public static let changesLimit: Int64 = 64 << 20
  /// The largest snapshot read: 4 GiB, which holds about four million issues. A snapshot is read
  /// from its file a part at a time, so its size bounds the time it takes, not the memory.
  public static let snapshotLimit: Int64 = 4 << 30
  /// How many skipped lines of one package are named; more are counted.
  public static let rejectedNamed = 100

  /// The largest package of each kind read.
  public static func limit(_ kind: PackageName.Kind) -> Int64 {
    kind == .changes ? changesLimit : snapshotLimit
  }

  /// The newest format read: 2 has changes an older Docket does not know (a restore, a device
  /// retired), 3 a dismissed conflict or an issue deleted for good; a package is written in the
  /// newest format one of its changes needs (`Change.format`), most as 1.
  public static let version = 3

  public static func encode(_ package: Package) -> [UInt8] {
    var output = OutputBytes(write: { _ in })
    let written = package.changes.map(\.format).max() ?? 1
    var header: [(String, JSON)] = [
      ("docket", .string(package.name.kind.rawValue)), ("version", .number(Double(written))),
      ("device", .string(package.name.device)), ("name", .string(package.deviceName)),
      ("number", .string(String(package.name.number))),
      ("count", .number(Double(package.changes.count))),
    ]
    if package.name.kind == .snapshot {
      header.append(
        (
          "covers",
          .object(
            package.covers.sorted { $0.key < $1.key }.map { ($0.key, .string(String($0.value))) })
        ))
    }
    JSONWriter.append(.object(header), to: &output)
    output.append(byte: 0x0A)
    for change in package.changes {
      change.appendJSON(to: &output)
      output.append(byte: 0x0A)
    }
    JSONWriter.append(.object([("end", .number(Double(package.changes.count)))]), to: &output)
    output.append(byte: 0x0A)
    return output.bytes
  }

  /// Reads a package's first line: who wrote it, how many changes it has, what it covers.
  public static func decodeHeader(_ line: ArraySlice<UInt8>, expected: PackageName)
    throws(PackageProblem) -> (package: Package, count: Int)
  {
    let header: JSON
    do { header = try JSONReader.document(Array(line)) } catch {
      throw .garbage(.notJSON)
    }
    guard let kind = header["docket"]?.string, kind == expected.kind.rawValue else {
      throw .garbage(.notDocket)
    }
    guard let version = header["version"]?.number, version >= 1, version == version.rounded()
    else { throw .garbage(.incompleteHeader) }
    guard version <= Double(Self.version) else {
      throw .newerVersion(version < 1e9 ? Int(version) : Int(1e9))
    }
    guard header["device"]?.string?.lowercased() == expected.device,
      header["number"]?.string.flatMap({ Int64($0) }) == expected.number
    else { throw .misplaced }
    guard let number = header["count"]?.number, number >= 0, number < 1e9,
      number == number.rounded()
    else {
      throw .garbage(.incompleteHeader)
    }
    let count = Int(number)
    var covers: [String: Int64] = [:]
    for (device, value) in header["covers"]?.members ?? [] {
      if let text = value.string, let number = Int64(text) { covers[device.lowercased()] = number }
    }
    return (
      Package(
        name: expected, deviceName: Limits.deviceName(header["name"]?.string ?? ""), covers: covers,
        changes: []),
      count
    )
  }

  /// Reads a package; `expected` is what its file name says it is.
  public static func decode(_ bytes: [UInt8], expected: PackageName) throws(PackageProblem)
    -> Package
  {
    var whole: Package?
    do {
      try decodeInParts(bytes, expected: expected, partSize: .max) { whole = $0 }
    } catch let problem as PackageProblem {
      throw problem
    } catch {
      preconditionFailure("bytes held are read without another failure: \(error)")
    }
    return whole!
  }

  /// Reads a package a part at a time: checks first that it is whole (its header, and an end
  /// line with its count as the last line), then hands `body` its changes `partSize` at a time,
  /// each part with the header's name, device name and covers. A large snapshot decoded whole
  /// would hold several times the file's size in memory. A change that cannot be read throws its
  /// `PackageProblem` when its part is reached, after the parts before it were handed on; so
  /// does a count of lines that does not match the header's, found at the end.
  public static func decodeInParts(
    _ bytes: [UInt8], expected: PackageName, partSize: Int, _ body: (Package) throws -> Void
  ) throws {
    try checkStart(bytes)
    var lines = LinesInMemory(bytes)
    guard let last = lines.lastLine else {
      // Cut short: still being copied in, unless its first line, whole, is no Docket header.
      if bytes.contains(0x0A) { _ = try header(&lines, expected: expected) }
      throw PackageProblem.partial
    }
    let (header, count) = try header(&lines, expected: expected)
    guard isEnd(last, count: count) else { throw PackageProblem.partial }
    try changes(&lines, header: header, count: count, partSize: partSize, body)
  }

  /// How every package Docket writes begins.
  static let start = Array(#"{"docket":""#.utf8)

  /// Whether `bytes` begin as a plain package does.
  static func checkStartPasses(_ bytes: [UInt8]) -> Bool {
    bytes.count >= start.count && bytes.starts(with: start)
  }

  /// Fails with `.garbage` when `bytes` (a package's first bytes) do not begin as a package
  /// does: random bytes under a package's name are not taken for a package cut short.
  static func checkStart(_ bytes: some Collection<UInt8>) throws(PackageProblem) {
    let head = Array(bytes.prefix(start.count))
    // An empty file may be one a sync tool has made and not yet filled.
    guard head.elementsEqual(start.prefix(head.count)) else { throw .garbage(.notJSON) }
  }

  /// The header of a package read from its first line, and its count of changes.
  static func header(_ lines: inout some PackageLines, expected: PackageName) throws -> (
    Package, Int
  ) {
    guard let first = try lines.nextLine() else { throw PackageProblem.partial }
    return try decodeHeader(first[...], expected: expected)
  }

  /// Whether `line` is the end line of a package of `count` changes.
  static func isEnd(_ line: [UInt8]?, count: Int) -> Bool {
    guard let line else { return false }
    return (try? JSONReader.document(line))?["end"]?.number == Double(count)
  }

  /// The `count` changes after the header, handed to `body` `partSize` at a time (the last part
  /// once the end line is read and nothing is after it), then checks the end.
  static func changes(
    _ lines: inout some PackageLines, header: Package, count: Int, partSize: Int,
    _ body: (Package) throws -> Void
  ) throws {
    precondition(partSize > 0, "a part holds changes")
    var part = header
    // Bounded: the count is the header's word, checked only at the end.
    part.changes.reserveCapacity(min(partSize, count, 1 << 16))
    var handedOn = false
    var named = 0
    var skippedInPart = 0
    for number in stride(from: 2, through: count + 1, by: 1) {
      guard let line = try lines.nextLine() else { throw PackageProblem.partial }
      // The end line where a change should be: fewer changes than the header says, which is
      // what a package cut short and put together wrong looks like.
      if line.first == UInt8(ascii: "{"), line.count < 64, isEnd(line, count: count) {
        throw PackageProblem.partial
      }
      do throws(ChangeFormatError) {
        let change = try change(line, number: number)
        // A device's change file holds its own changes only (a snapshot vouches for others').
        guard header.name.kind != .changes || change.stamp.device == header.name.device else {
          throw ChangeFormatError(line: number, reason: .forged(claimed: change.stamp.device))
        }
        part.changes.append(change)
      } catch {
        if named < rejectedNamed {
          part.rejected.append(error)
          named += 1
        } else {
          part.rejectedMore += 1
        }
        skippedInPart += 1
      }
      if part.changes.count + skippedInPart == partSize {
        try body(part)
        handedOn = true
        part.changes.removeAll(keepingCapacity: true)
        part.rejected.removeAll()
        part.rejectedMore = 0
        skippedInPart = 0
      }
    }
    guard let end = try lines.nextLine(), isEnd(end, count: count),
      try lines.nextLine() == nil
    else { throw PackageProblem.partial }
    if !part.changes.isEmpty || skippedInPart > 0 || !handedOn { try body(part) }
  }

  /// The change on the line of `number` (from 1, the header's).
  private static func change(_ line: [UInt8], number: Int) throws(ChangeFormatError) -> Change {
    guard let json = try? JSONReader.document(line) else {
      throw ChangeFormatError(line: number, reason: .notJSON)
    }
    return try Change(json: json, line: number)
  }
}
