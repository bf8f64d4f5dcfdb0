import Database
import DocketCore
import DocketTransfer
import Foundation
import JSONText

@testable import DocketSync
@testable import DocketWeb

/// What a remote holds: a change file or a snapshot, read as the file its header says it is (so
/// that the fuzzer reaches past the check of the name), and a file name as a folder lists it. A
/// package that reads must write back to the same bytes' meaning, and its changes must apply to
/// a database (rolled back after) or fail with words; a database error from a change that read
/// is a fault of the merge. What they leave in the database must be what every reader can show:
/// each value within `Limits`, and the list, the detail, every export and the web page read it.
enum ChangesFuzz {
  struct RollBack: Error {}

  static let database: DatabaseQueue = {
    do { return try DocketDatabase.inMemory(now: { SearchFuzz.now }) } catch {
      fatalError("the fuzzer's database: \(error)")
    }
  }()

  /// The key and name sealed inputs are opened with (`Tests/Fuzz/corpus/changes/sealed-*` are
  /// sealed with them): a package of an encrypted remote, valid or changed.
  static let sealingKey = SyncKey(remote: "fuzz", bytes: Array(repeating: 7, count: 32))
  static let sealedName = PackageName(device: "d", kind: .changes, number: 1)

  static func run(_ bytes: [UInt8]) {
    guard Sodium.problem == nil else { return runPlain(bytes) }
    if SealedBytes.isSealed(bytes) { return runSealed(bytes) }
    runPlain(bytes)
    // Whatever is sealed opens to itself, whole, in pieces, and its header alone.
    let (sealed, headerEnd) = SealedBytes.seal(bytes, name: sealedName, key: sealingKey)
    require(
      (try? SealedBytes.open(sealed, name: sealedName, key: sealingKey)) == bytes,
      "sealed bytes did not open to themselves")
    require(sealed.count == SealedBytes.sealedCount(bytes), "a sealed size not as foretold")
    let first = try? SealedBytes.openFirst(sealed[..<headerEnd], name: sealedName, key: sealingKey)
    let expected =
      bytes.firstIndex(of: 0x0A).map { Array(bytes[...$0]) }
      ?? Array(bytes.prefix(SealedBytes.partSize))
    require(first == expected, "a sealed header did not open to the first line")
  }

  /// A sealed package, as a remote's file: it opens (whole and in pieces alike) or is refused
  /// with a problem, never a crash; what opens is read as any package.
  static func runSealed(_ bytes: [UInt8]) {
    let whole = try? SealedBytes.open(bytes, name: sealedName, key: sealingKey)
    var opener = SealedBytes.Opener(name: sealedName, key: sealingKey)
    var pieced: [UInt8]? = []
    let cut = bytes.count / 3
    do {
      try opener.feed(bytes[..<cut]) { pieced! += $0 }
      try opener.feed(bytes[cut...]) { pieced! += $0 }
      try opener.finish()
    } catch {
      pieced = nil
    }
    require(whole == pieced, "sealed bytes opened whole and in pieces differ")
    _ = try? SealedBytes.openFirst(bytes[...], name: sealedName, key: sealingKey)
    if let whole { runPlain(whole) }
  }

  static func runPlain(_ bytes: [UInt8]) {
    let firstLine = bytes.prefix { $0 != 0x0A }
    _ = FolderRemote.packageName(String(decoding: firstLine, as: UTF8.self), device: "d")
    let header = try? JSONReader.document(Array(firstLine))
    let kind = header?["docket"]?.string.flatMap(PackageName.Kind.init(rawValue:)) ?? .changes
    let device = header?["device"]?.string?.lowercased() ?? "d"
    let number = header?["number"]?.string.flatMap { Int64($0) } ?? 1
    let name = PackageName(device: device, kind: kind, number: number)
    let package: Package
    do {
      package = try PackageFormat.decode(bytes, expected: name)
    } catch {
      return
    }
    let again: Package
    do {
      again = try PackageFormat.decode(PackageFormat.encode(package), expected: name)
    } catch {
      fatalError("a package read but its own writing did not: \(error)")
    }
    require(again.changes == package.changes, "a package changed when written and read again")
    require(again.covers == package.covers, "a package's coverage changed when written again")
    do {
      try database.write { db in
        do {
          try db.transaction {
            _ = try db.applyChanges(package.changes, deviceNames: [device: package.deviceName])
            readEverything(db)
            throw RollBack()
          }
        } catch is RollBack {
        } catch let error as SQLiteError {
          fatalError("changes that read could not be applied: \(error)")
        }
      }
    } catch {
      // Refused as a whole (a change the merge cannot take): fine, as long as it is not the
      // database failing.
    }
  }
}

extension ChangesFuzz {
  /// Every value a reader takes is one it can show, and every face's reading of it goes through.
  static func readEverything(_ db: Connection) {
    do {
      try db.forEachRow(
        "SELECT title, detail, priority, completed, created, modified FROM issues"
      ) { row in
        let title = try row.get(0, as: String.self)
        let detail = try row.get(1, as: String.self)
        require(Limits.problem(title: title, detail: detail) == nil, "a text past its limit")
        require((0...2).contains(try row.get(2, as: Int.self)), "a priority out of range")
        require((0...1).contains(try row.get(3, as: Int.self)), "completed out of range")
        require(Limits.isDate(try row.get(4, as: Double.self)), "a created no date")
        if let modified = try row.get(5, as: Double?.self) {
          require(Limits.isDate(modified), "a modified no date")
        }
      }
      try db.forEachRow("SELECT name FROM tags") { row in
        let name = try row.get(0, as: String.self)
        require(
          (try? TagName.checked(name)) == name,
          "a tag name that is no tag's: \(name.debugDescription)")
      }
      let now = SearchFuzz.now
      let l10n = SearchFuzz.l10n
      let issues = try db.fetchIssues(IssueRequest(filter: .all, now: now), limit: 20)
      for issue in issues {
        for date in [issue.created, issue.modified ?? issue.created] {
          _ = l10n.compact(RowDate(date, now: now))
          _ = l10n.spoken(RowDate(date, now: now))
          _ = LocalTime.minutes(date) + ISOTime.string(date) + l10n.relativeTime(date, now: now)
        }
        _ = try db.history(ofIssue: issue.id).map { SyncMessages.line($0, l10n) }
      }
      for format in [TransferFormat.docket, .taskwarrior, .csv] {
        var output = OutputBytes(write: { _ in })
        try Exporter.write(format, from: db, exported: now, to: &output)
      }
      for location in [WebLocation(filter: .all)]
        + issues.prefix(3).map({
          WebLocation(filter: .all, issue: $0.id)
        })
      {
        let data = try PageData.load(location, from: db, now: now, localizer: l10n)
        _ = PageRenderer(data: data, l10n: l10n, csrf: "c", readOnly: false, said: nil, draft: nil)
          .page()
      }
    } catch {
      fatalError("what the changes left could not be read: \(error)")
    }
  }
}
