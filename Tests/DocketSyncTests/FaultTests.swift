import Database
import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import Testing

/// Syncs cut off, and folders holding what a sync tool or a person left there.
@Suite struct FaultTests {
  let folder: TemporaryDirectory
  let a: Replica
  let b: Replica

  init() throws { (folder, a, b) = try Replica.pair() }

  func run(_ replica: Replica, batch: Int = 3, stopAfter: Int? = nil) throws -> SyncReport {
    var engine = replica.engine()
    engine.batchSize = batch
    engine.stopAfter = stopAfter
    return try engine.run()
  }

  @Test(arguments: 1...4) func aPushCutOffLosesNothing(after packages: Int) throws {
    for index in 0..<12 { try a.issue("Issue \(index)") }
    #expect(throws: SyncInterrupted.self) { try run(a, stopAfter: packages) }
    // Edits made between the cut and the next sync go too.
    try a.issue("Made after the cut")
    let report = try run(a)
    #expect(report.pushed == 13 - packages * 3)
    _ = try run(b)
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: 1...3) func aPullCutOffLosesNothing(after packages: Int) throws {
    for index in 0..<12 { try a.issue("Issue \(index)") }
    _ = try run(a)
    #expect(throws: SyncInterrupted.self) { try run(b, stopAfter: packages) }
    let partial = try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) }
    #expect(partial == packages * 3)
    let report = try run(b)
    #expect(report.pulled == 12 - packages * 3)
    #expect(try a.dump() == b.dump())
  }

  @Test func partialGarbageAndConflictedFilesAreSkippedAndNamed() throws {
    for index in 0..<3 { try a.issue("Issue \(index)") }
    _ = try run(a, batch: 100)
    let mine = folder.path(a.device)
    let good = try String(contentsOfFile: mine + "/00000001.changes", encoding: .utf8)
    // A file a sync tool is still copying: cut in the middle.
    let second = good.replacingOccurrences(of: "\"number\":\"1\"", with: "\"number\":\"2\"")
    try String(second.prefix(second.count / 2)).write(
      toFile: mine + "/00000002.changes", atomically: true, encoding: .utf8)
    try "not a docket file\n".write(
      toFile: mine + "/00000003.changes", atomically: true, encoding: .utf8)
    try good.write(
      toFile: mine + "/00000001 (conflicted copy 2026-11-30).changes", atomically: true,
      encoding: .utf8)
    try "hello".write(toFile: folder.path("notes.txt"), atomically: true, encoding: .utf8)
    let report = try run(b)
    #expect(report.pulled == 3)
    let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.problem) })
    #expect(skipped["\(a.device)/00000002.changes"] == .package(.partial))
    #expect(
      skipped["\(a.device)/00000003.changes"] == .package(.garbage(.notJSON)))
    #expect(skipped["\(a.device)/00000001 (conflicted copy 2026-11-30).changes"] == .unknownName)
    #expect(skipped["notes.txt"] == .unknownName)
    #expect(try a.dump() == b.dump())
    // Once the file arrives whole, it is read.
    try a.issue("Fourth")
    let fourth = try a.queue.read {
      try $0.changesToPush(after: 0, limit: 100).map(\.change).suffix(1)
    }
    let whole = PackageFormat.encode(
      Package(
        name: PackageName(device: a.device, kind: .changes, number: 2), deviceName: "Laptop",
        changes: Array(fourth)))
    try Data(whole).write(to: URL(fileURLWithPath: mine + "/00000002.changes"))
    let later = try run(b)
    #expect(later.pulled == 1)
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 4)
  }

  @Test func aChangeLineThatCannotBeReadNamesItsLine() throws {
    let name = PackageName(device: a.device, kind: .changes, number: 1)
    var bytes = PackageFormat.encode(Package(name: name, deviceName: "A", changes: []))
    bytes = Array(
      String(decoding: bytes, as: UTF8.self).replacingOccurrences(
        of: "\"count\":0", with: "\"count\":1"
      )
      .replacingOccurrences(of: "{\"end\":0}", with: "{\"h\":\"12\"}\n{\"end\":1}").utf8)
    // The line is skipped and named; the package reads without it.
    let package = try PackageFormat.decode(bytes, expected: name)
    #expect(package.changes.isEmpty)
    #expect(package.rejected == [ChangeFormatError(line: 2, reason: .device)])
  }

  @Test func aFolderThatDisappearsFailsClearlyAndTheNextSyncCompletes() throws {
    try a.issue("Before")
    _ = try run(a)
    try FileManager.default.removeItem(atPath: folder.path)
    try a.issue("While the folder is gone")
    #expect(throws: RemoteError(location: folder.path, problem: .missing)) { try run(a) }
    try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
    // The folder is back, empty: another remote (its marker has another id), to which this device
    // pushes everything it knows.
    let again = try run(a)
    #expect(again.pushed == 2)
    _ = try run(b)
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 2)
    #expect(try a.dump() == b.dump())
  }

  @Test func aRemoteMadeByANewerDocketIsRefused() throws {
    try "{\"docket\":\"remote\",\"version\":9}\n".write(
      toFile: folder.path("docket-remote.json"), atomically: true, encoding: .utf8)
    #expect(
      throws: RemoteError(location: folder.path("docket-remote.json"), problem: .newerVersion(9))
    ) { try run(a) }
  }

  @Test func eachDeviceWritesOnlyInItsOwnFolder() throws {
    try a.issue("A's")
    try b.issue("B's")
    _ = try run(a)
    _ = try run(b)
    _ = try run(a)
    let aFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
    let bFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path(b.device))
    for file in aFiles {
      let text = try String(contentsOfFile: folder.path(a.device) + "/" + file, encoding: .utf8)
      #expect(text.hasPrefix("{\"docket\":\"changes\",\"version\":1,\"device\":\"\(a.device)\""))
    }
    #expect(!aFiles.isEmpty && !bFiles.isEmpty)
    #expect(!aFiles.contains { $0.hasPrefix(".") })
  }

  @Test func theSameRemoteSetAgainGoesOnWhereItWas() throws {
    try a.issue("One")
    _ = try run(a)
    try a.queue.write { try $0.setRemote(nil) }
    // Set again, by another path to the same folder: nothing is pushed twice.
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "-link", withDestinationPath: folder.path)
    defer { try? FileManager.default.removeItem(atPath: folder.path + "-link") }
    try a.queue.write { try $0.setRemote(folder.path + "-link") }
    a.remotePath = folder.path + "-link"
    try a.issue("Two")
    #expect(try run(a).pushed == 1)
    _ = try run(b)
    #expect(try a.dump() == b.dump())
  }

  @Test func changesWithValuesTheirFieldCannotTakeAreSkippedWithTheLine() throws {
    let issue = try a.issue("Valid")
    _ = try run(a)
    for (number, line) in [
      (
        2,
        "{\"h\":\"\(1 << 40)\",\"d\":\"\(a.device)\",\"e\":\"issue\",\"r\":\"\(issue.id.lowercasedText)\",\"f\":\"priority\",\"n\":7}"
      ),
      (
        3,
        "{\"h\":\"9223372036854775807\",\"d\":\"\(a.device)\",\"e\":\"issue\",\"r\":\"\(issue.id.lowercasedText)\",\"f\":\"title\",\"n\":\"x\"}"
      ),
      (
        4,
        "{\"h\":\"\(1 << 40)\",\"d\":\"\(a.device)\",\"e\":\"issue\",\"r\":\"\(issue.id.lowercasedText)\",\"f\":\"title\"}"
      ),
    ] {
      let text =
        "{\"docket\":\"changes\",\"version\":1,\"device\":\"\(a.device)\",\"name\":\"A\",\"number\":\"\(number)\",\"count\":1}\n\(line)\n{\"end\":1}\n"
      try text.write(
        toFile: folder.path(a.device) + String(format: "/%08d.changes", number), atomically: true,
        encoding: .utf8)
    }
    try "{\"docket\":\"changes\",\"version\":1e300,\"count\":1e300}\n".write(
      toFile: folder.path(a.device) + "/00000005.changes", atomically: true, encoding: .utf8)
    let report = try run(b)
    let problems = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.problem) })
    #expect(
      problems["\(a.device)/00000002.changes"]
        == .package(
          .badChange(ChangeFormatError(line: 2, reason: .value(field: "priority")))))
    #expect(
      problems["\(a.device)/00000003.changes"]
        == .package(.badChange(ChangeFormatError(line: 2, reason: .stamp))))
    #expect(
      problems["\(a.device)/00000004.changes"]
        == .package(
          .badChange(ChangeFormatError(line: 2, reason: .value(field: "title")))))
    #expect(problems["\(a.device)/00000005.changes"] == .package(.newerVersion(1_000_000_000)))
    #expect(try b.stored(issue.id)?.priority == .low)
    // The clock was not pushed to the end of time: B's next edit stamps normally.
    try b.edit(issue.id) { $0.title = "Edited on B" }
    let stamps = try b.queue.read { try $0.history(ofIssue: issue.id) }.map(\.stamp)
    #expect(stamps.allSatisfy { $0 < 1 << 58 })
  }

  @Test func namesDocketDoesNotWriteAreLeftAlone() throws {
    try a.issue("One")
    _ = try run(a)
    let upper = a.device.uppercased()
    try FileManager.default.createDirectory(
      atPath: folder.path(upper), withIntermediateDirectories: true)
    try "x".write(
      toFile: folder.path(a.device) + "/snapshot-00ff.snapshot", atomically: true, encoding: .utf8)
    let report = try run(b)
    let problems = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.problem) })
    #expect(problems[upper] == .unknownName)
    #expect(problems["\(a.device)/snapshot-00ff.snapshot"] == .unknownName)
    #expect(report.pulled == 1)
  }

  /// A sync killed while it wrote left a temporary file in its device's folder: the next sync of
  /// that device removes it once it is an hour old. A younger one, one of another device, a link
  /// and names Docket does not make are left alone, and nobody reads any of them.
  @Test func leftoversOfAWriteCutShortAreRemovedByTheNextSync() throws {
    try a.issue("One")
    _ = try run(a)
    let own = folder.path(a.device)
    let other = folder.path(b.device)
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    let hourAgo = Date(timeIntervalSinceNow: -3700)
    func make(_ path: String, at date: Date) throws {
      try "half a package".write(toFile: path, atomically: false, encoding: .utf8)
      try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }
    let stale = own + "/.00000002.changes.docket-1f2e3d4c.tmp"
    let image = own + "/.snapshot-00ab.image.docket-9a.tmp"
    let young = own + "/.00000003.changes.docket-00c0ffee.tmp"
    let others = other + "/.00000001.changes.docket-1234abcd.tmp"
    let foreign = own + "/.stfolder.tmp"
    let marker = folder.path + "/.docket-remote.json.docket-77aa.tmp"
    let rootForeign = folder.path + "/.notes.txt.docket-77aa.tmp"
    let link = own + "/.00000004.changes.docket-abcdef01.tmp"
    // What the link leads to is old and is no leftover itself: only following the link would
    // remove it.
    let kept = own + "/.kept"
    try make(stale, at: hourAgo)
    try make(image, at: hourAgo)
    try make(young, at: Date())
    try make(others, at: hourAgo)
    try make(foreign, at: hourAgo)
    try make(marker, at: hourAgo)
    try make(rootForeign, at: hourAgo)
    try make(kept, at: hourAgo)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: kept)
    // The link itself an hour old too.
    var times = [timespec(tv_sec: time(nil) - 3700, tv_nsec: 0)]
    times.append(times[0])
    #expect(utimensat(AT_FDCWD, link, times, AT_SYMLINK_NOFOLLOW) == 0)
    let report = try run(a)
    #expect(report.skipped.isEmpty)
    let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
    #expect(!exists(stale) && !exists(image) && !exists(marker))
    #expect(exists(young) && exists(others) && exists(foreign) && exists(rootForeign))
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == kept)
    #expect(exists(kept))
    #expect(try run(b).pulled == 1)
  }

  /// A snapshot read a part at a time whose last change cannot be read: the parts before it,
  /// already applied, are rolled back with it, the snapshot is named as skipped, and it is read
  /// again next time.
  @Test func aBadChangeInALaterPartOfASnapshotIsSkippedAndTheRestApplied() throws {
    for index in 0..<6 { try a.issue("Issue \(index)") }
    _ = try run(a)
    _ = try run(b)
    for index in 0..<8 { try a.issue("While B was away \(index)") }
    var engine = a.engine()
    engine.batchSize = 2
    engine.compactAfter = 2
    #expect(try engine.run().wroteSnapshot)
    let own = folder.path(a.device)
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: own).first { $0.hasSuffix(".snapshot") })
    var lines = try String(contentsOfFile: own + "/" + name, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The last change (before the end line and the empty piece after the last line break).
    lines[lines.count - 3] = "{}"
    try lines.joined(separator: "\n").write(
      toFile: own + "/" + name, atomically: true, encoding: .utf8)
    let before = try b.dump()
    var reader = b.engine()
    reader.snapshotPartSize = 2
    let report = try reader.run()
    #expect(report.skipped.map(\.path) == ["\(a.device)/\(name)"])
    if case .package(.badChange(let error)) = report.skipped.first?.problem {
      #expect(error.line == lines.count - 2)
    } else {
      Issue.record("not a bad change: \(String(describing: report.skipped.first?.problem))")
    }
    // The rest of the snapshot is applied (its earlier parts and the others of the last), and
    // the snapshot counts as read: the line is named once.
    #expect(report.usedSnapshot && report.pulled > 0)
    #expect(try b.dump() != before)
    for index in 0..<7 {
      #expect(
        try b.queue.read {
          try $0.fetchOne(
            "SELECT count(*) FROM issues WHERE title = ?", ["While B was away \(index)"],
            as: Int.self)
        } == 1)
    }
    #expect(try reader.run().skipped.isEmpty)
  }

  @Test func oneSyncOfADatabaseAtATime() throws {
    let database = try DocketDatabase.open(path: folder.path + "-db/docket.sqlite")
    defer { try? FileManager.default.removeItem(atPath: folder.path + "-db") }
    let device = try database.read { try $0.localDeviceID() }
    var engine = SyncEngine(
      database: database, remote: FolderRemote(path: folder.path, device: device), device: device,
      deviceName: "C")
    engine.lockWait = .milliseconds(200)
    let held = try SyncLock(database: database.path)
    #expect(throws: SyncBusy.self) { try engine.run() }
    held.release()
    #expect(try engine.run().pushed == 0)
  }

  /// An edit made while a sync runs, after its push: the snapshot that sync writes holds it, and
  /// it still goes out as a change file, for the devices that do not read that snapshot.
  @Test func anEditMadeDuringASyncIsPushedByTheNext() throws {
    try b.issue("From B")
    _ = try run(b)
    let issue = try a.issue("From A")
    _ = try run(a)
    _ = try run(b)
    try b.issue("Another from B")
    _ = try run(b)
    // A reads B's new file; meanwhile the person edits on A. Then A compacts.
    var engine = a.engine()
    engine.compactAfter = 1
    let hooked = HookedRemote(base: FolderRemote(path: folder.path, device: a.device)) {
      try? self.a.edit(issue.id) { $0.title = "Edited during the sync" }
    }
    engine.remote = hooked
    let report = try engine.run()
    #expect(report.wroteSnapshot)
    _ = try run(a)
    _ = try run(b)
    #expect(try b.stored(issue.id)?.title == "Edited during the sync")
    #expect(try a.dump() == b.dump())
  }
}

extension FaultTests {
  /// The folder goes (unmounted) while a sync reads it, or a mount goes and leaves an empty
  /// folder in its place: the sync says so, keeps what it read, writes nothing there, and the
  /// next one, with the folder back, completes it.
  @Test(arguments: [false, true]) func aFolderThatGoesInTheMiddleOfAPull(leavesEmptyFolder: Bool)
    throws
  {
    for index in 0..<9 { try a.issue("Issue \(index)") }
    _ = try run(a)
    let moved = folder.path + "-unmounted"
    var engine = b.engine()
    engine.batchSize = 3
    engine.compactAfter = 1
    engine.remote = HookedRemote(base: FolderRemote(path: folder.path, device: b.device)) {
      try? FileManager.default.moveItem(atPath: self.folder.path, toPath: moved)
      if leavesEmptyFolder {
        try? FileManager.default.createDirectory(
          atPath: self.folder.path, withIntermediateDirectories: true)
      }
    }
    let problem: RemoteError.Problem = leavesEmptyFolder ? .replaced : .missing
    #expect(throws: RemoteError(location: folder.path, problem: problem)) { try engine.run() }
    let partial = try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) }
    #expect(partial == 3)
    if leavesEmptyFolder {
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
      try FileManager.default.removeItem(atPath: folder.path)
    }
    try FileManager.default.moveItem(atPath: moved, toPath: folder.path)
    #expect(try run(b).pulled == 6)
    #expect(try a.dump() == b.dump())
  }

  /// A marker without an id (written before markers had one) is given one, once.
  @Test func aMarkerWithoutAnIdIsGivenOne() throws {
    try "{\"docket\":\"remote\",\"version\":1}\n".write(
      toFile: folder.path("docket-remote.json"), atomically: true, encoding: .utf8)
    let remote = FolderRemote(path: folder.path, device: a.device)
    let id = try remote.prepare(expecting: nil)
    #expect(UUID(text: id) != nil)
    #expect(try remote.prepare(expecting: nil) == id)
    #expect(try FolderRemote(path: folder.path, device: b.device).prepare(expecting: nil) == id)
  }
}

/// A remote that runs `onRead` once, when the first package is read.
final class HookedRemote: SyncRemote, @unchecked Sendable {
  let base: any SyncRemote
  private var onRead: (() -> Void)?

  init(base: any SyncRemote, onRead: @escaping () -> Void) {
    self.base = base
    self.onRead = onRead
  }

  /// How many times the sync asked for the remote (at its start, and again after a skip).
  private(set) var prepared = 0

  func prepare(expecting: String?) throws -> String {
    prepared += 1
    return try base.prepare(expecting: expecting)
  }
  func list() throws -> RemoteListing { try base.list() }
  func header(_ name: PackageName) throws -> Package { try base.header(name) }
  func read(_ name: PackageName) throws -> Package {
    let package = try base.read(name)
    onRead?()
    onRead = nil
    return package
  }
  func write(_ package: Package) throws { try base.write(package) }
  func remove(_ name: PackageName) throws { try base.remove(name) }
  func copyImage(_ name: PackageName, to path: String) -> Bool { base.copyImage(name, to: path) }
  func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    try base.writeImage(name, make)
  }
  func forDevice(_ device: String) -> any SyncRemote { base.forDevice(device) }
}
