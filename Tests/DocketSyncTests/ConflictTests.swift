import Database
import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import Testing

/// The merge rules of SPEC §10, one conflict at a time, between two devices.
/// Each runs against a shared folder and a PostgreSQL space, but for those that look into the
/// folder's files.
@Suite final class ConflictTests {
  private var devices: (TestRemote, Replica, Replica)?
  var remote: TestRemote { devices!.0 }
  var a: Replica { devices!.1 }
  var b: Replica { devices!.2 }

  init() {}

  /// The devices, sharing a new remote of the kind.
  func use(_ backend: Backend) throws { devices = try Replica.pair(backend) }

  var folder: TemporaryDirectory { remote.folder! }

  /// An issue made on A that both devices have.
  func shared(_ title: String = "Shared") throws -> DocketCore.Issue {
    let issue = try a.issue(title)
    try a.sync()
    try b.sync()
    return issue
  }

  func both() throws {
    try a.sync()
    try b.sync()
    try a.sync()
  }

  @Test(arguments: Backend.allCases) func editsOfDifferentFieldsBothSurvive(backend: Backend) throws
  {
    try use(backend)
    let issue = try shared()
    a.time.advance(by: 10)
    b.time.advance(by: 20)
    try a.edit(issue.id) { $0.title = "Title from A" }
    try b.edit(issue.id) { $0.priority = .high }
    try both()
    for replica in [a, b] {
      let merged = try #require(try replica.stored(issue.id))
      #expect(merged.title == "Title from A")
      #expect(merged.priority == .high)
    }
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: Backend.allCases) func theLaterEditOfOneFieldWinsAndTheLoserIsInTheHistory(
    backend: Backend
  ) throws {
    try use(backend)
    let issue = try shared()
    a.time.advance(by: 10)
    b.time.advance(by: 20)
    try a.edit(issue.id) { $0.title = "Earlier" }
    try b.edit(issue.id) { $0.title = "Later" }
    try both()
    #expect(try a.stored(issue.id)?.title == "Later")
    #expect(try b.stored(issue.id)?.title == "Later")
    for replica in [a, b] {
      let titles = try replica.queue.read { try $0.history(ofIssue: issue.id) }.filter {
        $0.what == .title
      }
      #expect(titles.map(\.new) == [.text("Earlier"), .text("Later")])
      #expect(titles.map(\.lost) == [true, false])
      #expect(titles.map(\.deviceName) == ["Laptop", "Desktop"])
    }
  }

  @Test(arguments: Backend.allCases) func anEditAfterSeeingAnotherIsNotALostConflict(
    backend: Backend
  ) throws {
    try use(backend)
    let issue = try shared()
    a.time.advance(by: 10)
    try a.edit(issue.id) { $0.title = "First" }
    try both()
    b.time.advance(by: 20)
    try b.edit(issue.id) { $0.title = "Second" }
    try both()
    let titles = try a.queue.read { try $0.history(ofIssue: issue.id) }.filter {
      $0.what == .title
    }
    #expect(titles.map(\.lost) == [false, false])
    #expect(try a.stored(issue.id)?.title == "Second")
  }

  @Test(arguments: Backend.allCases, [true, false]) func aDeleteWinsOverAnEdit(
    backend: Backend, editIsLater: Bool
  ) throws {
    try use(backend)
    let issue = try shared()
    a.time.advance(by: editIsLater ? 10 : 30)
    b.time.advance(by: 20)
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    try b.edit(issue.id) { $0.title = "Edited meanwhile" }
    try both()
    #expect(try a.stored(issue.id) == nil)
    #expect(try b.stored(issue.id) == nil)
    #expect(try a.dump() == b.dump())
    let history = try b.queue.read { try $0.history(ofIssue: issue.id) }
    #expect(history.contains { $0.what == .deleted })
    #expect(history.contains { $0.what == .title && $0.lost })
  }

  @Test(arguments: Backend.allCases, [true, false]) func theLaterOfAddAndRemoveOfALinkWins(
    backend: Backend, removeIsLater: Bool
  )
    throws
  {
    try use(backend)
    let tag = try a.tag("bug")
    let issue = try a.issue("Linked")
    try a.sync()
    try b.sync()
    let onB = try #require(try b.queue.read { try $0.fetchTags() }.first)
    if removeIsLater {
      // A puts the tag on (at +10 s); B, which had it on and takes it off, does so later (+20 s).
      try b.edit(issue.id) { $0.tags = [onB] }
      b.time.advance(by: 20)
      try b.edit(issue.id) { $0.tags = [] }
      a.time.advance(by: 10)
      try a.edit(issue.id) { $0.tags = [tag] }
    } else {
      // B puts it on and takes it off early (+10 s); A puts it on later (+20 s).
      b.time.advance(by: 5)
      try b.edit(issue.id) { $0.tags = [onB] }
      b.time.advance(by: 5)
      try b.edit(issue.id) { $0.tags = [] }
      a.time.advance(by: 20)
      try a.edit(issue.id) { $0.tags = [tag] }
    }
    try both()
    let expected = removeIsLater ? [String]() : ["bug"]
    #expect(try a.stored(issue.id)?.tags.map(\.name) == expected)
    #expect(try b.stored(issue.id)?.tags.map(\.name) == expected)
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: Backend.allCases) func aRemovalMadeLaterOnTheOtherDeviceWinsOverAnAdd(
    backend: Backend
  ) throws {
    try use(backend)
    let tag = try a.tag("bug")
    let issue = try a.issue("Linked")
    try a.sync()
    try b.sync()
    a.time.advance(by: 30)
    b.time.advance(by: 10)
    let onB = try b.queue.read { try $0.fetchTags() }.first!
    try b.edit(issue.id) { $0.tags = [onB] }
    try b.edit(issue.id) { $0.tags = [] }
    try a.edit(issue.id) { $0.tags = [tag] }
    try both()
    // A's add (at +30 s) is later than B's removal (at +10 s).
    #expect(try b.stored(issue.id)?.tags.map(\.name) == ["bug"])
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: Backend.allCases) func aTagOfTheSameNameMadeOnTwoDevicesBecomesOneWithEveryLink(
    backend: Backend
  ) throws {
    try use(backend)
    let onA = try a.tag("Release")
    let onB = try b.tag("release")
    let first = try a.issue("On A", tags: [onA])
    let second = try b.issue("On B", tags: [onB])
    try both()
    for replica in [a, b] {
      let tags = try replica.queue.read { try $0.fetchTags() }
      #expect(tags.count == 1)
      let tag = try #require(tags.first)
      #expect(tag.id == min(onA.id.lowercasedText, onB.id.lowercasedText).uuid)
      #expect(try replica.stored(first.id)?.tags.map(\.id) == [tag.id])
      #expect(try replica.stored(second.id)?.tags.map(\.id) == [tag.id])
    }
    #expect(try a.dump() == b.dump())
    // A link made later through either id lands on the one tag.
    let third = try b.issue("Later on B", tags: [try b.queue.read { try $0.fetchTags() }[0]])
    try both()
    #expect(try a.stored(third.id)?.tags.count == 1)
  }

  /// A device whose clock runs an hour behind holds what the others stamp ahead of it, and its
  /// own clock does not follow theirs (a clock may move the drift past its wall clock, no more):
  /// until its clock is set right, it cannot have seen their edits, and its own of the same
  /// field are concurrent with them. Set right, it takes them in, the later edit winning and
  /// the other kept as lost, the same on both devices.
  @Test(arguments: Backend.allCases)
  func aDeviceWhoseClockRunsAnHourBehindHoldsWhatIsStampedAheadOfIt(backend: Backend) throws {
    try use(backend)
    let issue = try shared()
    b.time.advance(by: -3600)
    a.time.advance(by: 10)
    try a.edit(issue.id) { $0.title = "From A" }
    try a.sync()
    let held = try b.sync()
    #expect(held.pulled == 0)
    #expect(held.held.map(\.id) == [a.device])
    #expect(held.held.first.map { abs($0.ahead - 3610) < 5 } == true)
    #expect(try b.stored(issue.id)?.title == "Shared")
    // B's clock did not follow A's: its next stamp is an hour behind A's.
    b.time.advance(by: 5)
    try b.edit(issue.id) { $0.title = "From B, without A's" }
    let history = try b.queue.read { try $0.history(ofIssue: issue.id) }
    let mine = try #require(history.first { $0.isThisDevice && $0.what == .title })
    let theirs = try #require(history.first { !$0.isThisDevice && $0.what == .title })
    #expect(mine.stamp < theirs.stamp)
    try both()
    #expect(try a.stored(issue.id)?.title == "From A")
    #expect(try b.stored(issue.id)?.title == "From B, without A's")
    // Set right, B applies what it held: A's edit is the later one.
    b.time.advance(by: 3600)
    let released = try b.sync()
    #expect(released.held.isEmpty)
    try both()
    #expect(try a.stored(issue.id)?.title == "From A")
    #expect(try b.stored(issue.id)?.title == "From A")
    #expect(try a.dump() == b.dump())
    for replica in [a, b] {
      let lost = try replica.queue.read { try $0.history(ofIssue: issue.id) }.filter(\.lost)
      #expect(lost.map(\.new) == [.text("From B, without A's")], "\(replica.name)")
    }
  }

  @Test func aClockThatJumpsBackNeverStampsAnEarlierChange() throws {
    // Nothing here reaches the remote: once, with a folder.
    try use(.folder)
    let issue = try a.issue("Clock")
    a.time.advance(by: -86_400)
    try a.edit(issue.id) { $0.title = "After the jump" }
    let stamps = try a.queue.read { try $0.history(ofIssue: issue.id) }.map(\.stamp)
    #expect(stamps.count == 2)
    #expect(stamps[1] > stamps[0])
    #expect(
      HybridClock.tick(after: 100 << 16, wall: Date(timeIntervalSince1970: 0)) == (100 << 16) + 1)
  }

  @Test(arguments: Backend.allCases) func anEditThatArrivesKeepsTheSendersTimeAndIsNotRecordedAgain(
    backend: Backend
  ) throws {
    try use(backend)
    let issue = try shared()
    a.time.advance(by: 100)
    try a.edit(issue.id) { $0.detail = "More" }
    let sent = try #require(try a.stored(issue.id)?.modified)
    try a.sync()
    b.time.advance(by: 5000)
    let report = try b.sync()
    #expect(report.pulled == 1)
    #expect(try b.stored(issue.id)?.modified == sent)
    // Nothing B received goes back: B has no changes of its own to push.
    #expect(try b.sync().pushed == 0)
  }

  @Test func applyingTheSameChangesTwiceChangesNothing() throws {
    // The changes are applied directly, not through the remote: once, with a folder.
    try use(.folder)
    let issue = try shared()
    try a.edit(issue.id) { $0.title = "Twice" }
    let device = a.device
    let changes = try a.queue.read { try $0.changesToPush(after: 0, limit: 100, device: device) }
      .map(\.change)
    let first = try b.queue.write { try $0.applyChanges(changes) }
    let before = try b.dump()
    let second = try b.queue.write { try $0.applyChanges(changes) }
    #expect(first.received == 1)
    #expect(second.received == 0)
    #expect(second.duplicates == changes.count)
    #expect(try b.dump() == before)
  }

  @Test func aNewDeviceCatchesUpFromASnapshotAfterTheChangesWereCompacted() throws {
    try use(.folder)
    for index in 0..<30 { try a.issue("Issue \(index)") }
    let tag = try a.tag("kept")
    try a.issue("Tagged", tags: [tag])
    // Small packages and an early snapshot: A's change files are compacted away.
    var engine = a.engine()
    engine.batchSize = 4
    engine.compactAfter = 3
    let report = try engine.run()
    #expect(report.wroteSnapshot)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
    #expect(files.filter { $0.hasSuffix(".changes") }.isEmpty)
    #expect(files.filter { $0.hasSuffix(".snapshot") }.count == 1)
    let caught = try b.sync()
    #expect(caught.usedSnapshot)
    #expect(try a.dump() == b.dump())
    // B's own work, made after, still reaches A.
    try b.issue("From B")
    try b.sync()
    try a.sync()
    #expect(try a.dump() == b.dump())
  }
}

extension ConflictTests {
  /// A device that synced elsewhere and comes back, after its files here were compacted into its
  /// snapshot and removed, numbers its next file after those: the others, past them, read it.
  @Test(arguments: Backend.allCases) func aDeviceBackAtARemoteNumbersOnAfterItsSnapshot(
    backend: Backend
  ) throws {
    try use(backend)
    for index in 0..<6 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    engine.batchSize = 2
    engine.compactAfter = 2
    #expect(try engine.run().wroteSnapshot)
    #expect(try b.sync().usedSnapshot)
    // Elsewhere for a while: what A knew of this remote is forgotten.
    let elsewhere = try TestRemote(backend)
    let (home, space) = (a.remotePath, a.space)
    (a.remotePath, a.space) = (elsewhere.location, elsewhere.space)
    try a.sync()
    (a.remotePath, a.space) = (home, space)
    try a.issue("After coming back")
    try a.sync()
    try b.sync()
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 7)
  }

  /// A device away while the others compacted the changes it had not read: its own work made
  /// meanwhile still goes out, and it catches up from the snapshot.
  @Test func aDeviceAwayWhileOthersCompactedStillMergesItsWork() throws {
    try use(.folder)
    let shared = try a.issue("Shared")
    try a.sync()
    try b.sync()
    // B goes away and works; A works on and compacts its files away.
    try b.edit(shared.id) { $0.detail = "Written while away" }
    let away = try b.issue("Made while away")
    for index in 0..<12 { try a.issue("A \(index)") }
    var engine = a.engine()
    engine.batchSize = 2
    engine.compactAfter = 2
    #expect(try engine.run().wroteSnapshot)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
        .filter { $0.hasSuffix(".changes") }.isEmpty)
    let back = try b.sync()
    #expect(back.usedSnapshot)
    #expect(back.pushed == 2)
    try a.sync()
    #expect(try a.stored(away.id)?.title == "Made while away")
    #expect(try a.stored(shared.id)?.detail == "Written while away")
    #expect(try a.dump() == b.dump())
  }
}

extension ConflictTests {
  /// A new device takes in a large snapshot's database image (here every snapshot has one): the
  /// same data, its own device and settings kept, and sync goes on both ways after.
  @Test func aNewDeviceTakesInASnapshotsImage() throws {
    try use(.folder)
    let tag = try a.tag("kept")
    for index in 0..<30 { try a.issue("Issue \(index)", tags: index % 3 == 0 ? [tag] : []) }
    // The planner's statistics (SQLite's own table) are no difference of schema.
    try a.queue.write { try $0.execute("ANALYZE") }
    var engine = a.engine()
    engine.snapshotPushFrom = 10
    engine.imageMinimumChanges = 1
    #expect(try engine.run().wroteSnapshot)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
    #expect(files.filter { $0.hasSuffix(".sqlite") }.count == 1)
    try b.queue.write { try $0.setRemote(self.folder.path) }
    let device = b.device
    let caught = try b.sync()
    #expect(caught.usedImage)
    #expect(caught.pulled > 30)
    #expect(try b.queue.read { try $0.localDeviceID() } == device)
    #expect(try b.queue.read { try $0.syncSettings().remote } == folder.path)
    // The image carried none of A's settings; B notes the snapshot as read, as if applied.
    let image = try Connection.immutable(
      path: folder.path(a.device) + "/" + files.first { $0.hasSuffix(".sqlite") }!)
    #expect(
      try image.fetchAll("SELECT key FROM settings") { try $0.get(0, as: String.self) }
        == ["image_of"])
    #expect(try image.fetchOne("SELECT count(*) FROM sync_covered", as: Int.self) == 0)
    let read = try b.queue.read { db in
      try db.fetchAll("SELECT name FROM sync_pulled") { try $0.get(0, as: String.self) }
    }
    #expect(read.count == 1 && read[0].hasSuffix(".snapshot"))
    #expect(try b.sync().pulled == 0)
    #expect(try a.dump() == b.dump())
    #expect(
      try b.queue.read { db in
        try db.fetchOne(
          "SELECT count(*) FROM issue_fts WHERE issue_fts MATCH 'issue'", as: Int.self)
      } == 30)
    try b.issue("From B after")
    try b.sync()
    try a.issue("From A after")
    try a.sync()
    try b.sync()
    #expect(try a.dump() == b.dump())
  }

  /// A device that has data of its own does not take an image; one whose image cannot be
  /// written still syncs.
  @Test func anImageOnlyForAnEmptyDatabaseAndOnlyASpeedUp() throws {
    try use(.folder)
    for index in 0..<12 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    engine.snapshotPushFrom = 10
    engine.imageMinimumChanges = 1
    engine.remote = FailingImages(base: FolderRemote(path: folder.path, device: a.device))
    #expect(try engine.run().wroteSnapshot)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
        .filter { $0.hasSuffix(".sqlite") || $0.hasPrefix(".") }.isEmpty)
    engine.remote = FolderRemote(path: folder.path, device: a.device)
    try a.issue("More")
    engine.snapshotPushFrom = 1
    #expect(try engine.run().wroteSnapshot)
    // There is an image now; B, with data of its own, does not take it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device))
        .filter { $0.hasSuffix(".sqlite") }.count == 1)
    try b.issue("B's own")
    let caught = try b.sync()
    #expect(caught.usedSnapshot)
    #expect(!caught.usedImage)
    try a.sync()
    #expect(try a.dump() == b.dump())
  }

  /// An image that is not a database is passed over: the snapshot is applied as usual.
  @Test func aBrokenImageFallsBackToTheSnapshot() throws {
    try use(.folder)
    for index in 0..<12 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    engine.snapshotPushFrom = 10
    engine.imageMinimumChanges = 1
    _ = try engine.run()
    let image = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device)).first {
        $0.hasSuffix(".sqlite")
      })
    try "not a database".write(
      toFile: folder.path(a.device) + "/" + image, atomically: true, encoding: .utf8)
    let caught = try b.sync()
    #expect(caught.usedSnapshot)
    #expect(!caught.usedImage)
    #expect(try a.dump() == b.dump())
  }

  /// An image with a row no Docket writes (a title of two lines, a device's name that would
  /// work as a terminal's escape sequence) is passed over too: the snapshot's lines are each
  /// checked, the image as a whole only.
  @Test func anImageBeyondTheLimitsFallsBackToTheSnapshot() throws {
    for (index, edit) in [
      "UPDATE issues SET title = 'two' || char(10) || 'lines' WHERE seq = 1",
      "UPDATE sync_devices SET name = 'Mallory' || char(27) || '[2J'",
      "UPDATE issues SET created = -5 WHERE seq = 1",
    ].enumerated() {
      try use(.folder)
      for number in 0..<12 { try a.issue("Issue \(number)") }
      var engine = a.engine()
      engine.snapshotPushFrom = 10
      engine.imageMinimumChanges = 1
      _ = try engine.run()
      let image = try #require(
        try FileManager.default.contentsOfDirectory(atPath: folder.path(a.device)).first {
          $0.hasSuffix(".sqlite")
        })
      do {
        // Closed before B reads it, its log in the file.
        let hostile = try DocketDatabase.connection(path: folder.path(a.device) + "/" + image)
        try hostile.execute("UPDATE sync_clock SET applying = 1")
        try hostile.execute(edit)
        try hostile.execute("UPDATE sync_clock SET applying = 0")
        try hostile.execute("PRAGMA journal_mode = DELETE")
      }
      let caught = try b.sync()
      #expect(caught.usedSnapshot, "\(index)")
      #expect(!caught.usedImage, "\(index)")
      #expect(try a.dump() == b.dump(), "\(index)")
    }
  }
}

extension ConflictTests {
  /// Before its first sync, and once named, this device's changes show under its name.
  @Test func theHistoryNamesThisDeviceBeforeItsFirstSync() throws {
    // Nothing here reaches the remote: once, with a folder.
    try use(.folder)
    let issue = try a.issue("Named")
    func names() throws -> [String] {
      try a.queue.read { try $0.history(ofIssue: issue.id) }.map(\.deviceName)
    }
    #expect(try names() == [HostName.current])
    try a.queue.write { try $0.setDeviceName("Laptop") }
    #expect(try names() == ["Laptop"])
  }
}

extension String {
  var uuid: UUID { UUID(text: self)! }
}

/// A folder remote whose images cannot be written (a full disk, say).
struct FailingImages: SyncRemote {
  let base: FolderRemote
  func prepare(expecting: String?) throws -> String { try base.prepare(expecting: expecting) }
  func list() throws -> RemoteListing { try base.list() }
  func header(_ name: PackageName) throws -> Package { try base.header(name) }
  func read(_ name: PackageName) throws -> Package { try base.read(name) }
  func write(_ package: Package) throws { try base.write(package) }
  func remove(_ name: PackageName) throws { try base.remove(name) }
  func copyImage(_ name: PackageName, to path: String) -> Bool { base.copyImage(name, to: path) }
  func writeImage(_ name: PackageName, _ make: (String) throws -> Void) throws {
    throw RemoteError(location: name.description, problem: .system("No space left on device"))
  }
  func forDevice(_ device: String) -> any SyncRemote {
    FailingImages(base: FolderRemote(path: base.path, device: device))
  }
}

extension ConflictTests {
  /// A snapshot read and applied a few changes at a time, in its one transaction, ends as it
  /// does read whole: a device that was away while the files it missed were compacted, and a
  /// new device, each read it in parts of 7 and hold what A holds, and the new one takes in as
  /// many changes as one that reads it whole; parts that split an issue's changes, its links
  /// among them, change nothing.
  @Test(arguments: Backend.allCases) func aSnapshotReadInPartsEndsAsOneReadWhole(
    backend: Backend
  ) throws {
    try use(backend)
    let bug = try a.tag("Bug")
    let ui = try a.tag("UI")
    var issues: [DocketCore.Issue] = []
    for index in 0..<12 { issues.append(try a.issue("Issue \(index)", tags: [bug, ui])) }
    try a.sync()
    try b.sync()
    // B away; A edits, links, deletes and compacts its files into a snapshot.
    for (index, issue) in issues.enumerated() where index % 2 == 0 {
      try a.edit(issue.id) {
        $0.title = "Edited \(index)"
        $0.completed = index % 4 == 0
      }
    }
    _ = try a.queue.write { try $0.deleteIssues([issues[3].id]) }
    try a.issue("New on A", tags: [ui])
    var engine = a.engine()
    engine.batchSize = 2
    engine.compactAfter = 2
    #expect(try engine.run().wroteSnapshot)
    // In parts of 7, with new issues made at once from 2 (a part holds two or three issues'
    // creates, and an issue's create in one part has its links in the next), and whole, for
    // the same count of changes taken in.
    var pulled: [String: Int] = [:]
    for (replica, partSize) in [
      (b, 7), (try Replica("C", remote: remote), 7), (try Replica("D", remote: remote), 10_000),
    ] {
      var reader = replica.engine()
      reader.snapshotPartSize = partSize
      reader.bulkFrom = 2
      let report = try reader.run()
      #expect(report.usedSnapshot && !report.usedImage && report.skipped.isEmpty)
      #expect(try a.dump() == replica.dump(), "\(replica.name)")
      pulled[replica.name] = report.pulled
    }
    #expect(pulled["C"] == pulled["D"])
    #expect(pulled["C"]! > 0)
  }
}
