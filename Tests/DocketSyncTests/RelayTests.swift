import Database
import DocketCore
import DocketTestSupport
import Foundation
import Testing

@testable import DocketSync

/// A device that reaches no remote itself (a browser paired with `docket serve`) hands its
/// changes to a database, which sends them on with its own sync, as that device's.
@Suite struct RelayTests {
  static let browser = "0000b000-0000-4000-8000-0000000000aa"

  /// The browser's title edit, stamped `seconds` after 1970.
  static func titleEdit(_ id: UUID, _ title: String, at seconds: Double) -> Change {
    Change(
      stamp: Stamp(hlc: HybridClock.stamp(Date(timeIntervalSince1970: seconds)), device: browser),
      entity: .issue, row: id.lowercasedText, field: "title", old: .null, new: .text(title),
      modified: seconds)
  }

  @Test(arguments: Backend.allCases) func aBrowsersChangesGoOnToTheOtherDevicesAsItsOwn(
    backend: Backend
  ) throws {
    let remote = try TestRemote(backend)
    let server = try Replica("Server", remote: remote)
    let other = try Replica("Other", remote: remote)
    let issue = try server.issue("Crash on start")
    try server.sync()
    try other.sync()
    server.time.advance(by: 60)
    let at = server.time.now.timeIntervalSince1970
    try server.queue.write { db in
      try db.noteRelayed(device: Self.browser)
      _ = try db.applyChanges(
        [Self.titleEdit(issue.id, "Crash on start (offline)", at: at)],
        deviceNames: [Self.browser: "Chromium on Linux"], local: try db.localDeviceID())
    }
    let pushed = try server.sync()
    #expect(pushed.pushed == 1)
    // A second sync sends nothing again.
    #expect(try server.sync().pushed == 0)
    try other.sync()
    #expect(try other.stored(issue.id)?.title == "Crash on start (offline)")
    let entry = try #require(try other.queue.read { try $0.history(ofIssue: issue.id) }.last)
    #expect(entry.deviceID == Self.browser)
    #expect(entry.deviceName == "Chromium on Linux")
    #expect(try server.dump() == other.dump())
  }

  /// The browser's edit, made before one made elsewhere but arriving after it, loses there too.
  @Test func anEarlierBrowserEditLosesOnEveryDevice() throws {
    let folder = try TemporaryDirectory()
    let server = try Replica("Server", remote: folder.path)
    let other = try Replica("Other", remote: folder.path)
    let issue = try server.issue("Crash")
    try server.sync()
    try other.sync()
    let madeOffline = server.time.now.timeIntervalSince1970 + 10
    other.time.advance(by: 30)
    try other.edit(issue.id) { $0.title = "Crash on start" }
    try other.sync()
    server.time.advance(by: 60)
    try server.sync()
    try server.queue.write { db in
      try db.noteRelayed(device: Self.browser)
      _ = try db.applyChanges(
        [Self.titleEdit(issue.id, "Crash (offline)", at: madeOffline)],
        deviceNames: [Self.browser: "Safari on iPhone"], local: try db.localDeviceID())
    }
    try server.sync()
    try other.sync()
    #expect(try server.stored(issue.id)?.title == "Crash on start")
    #expect(try other.stored(issue.id)?.title == "Crash on start")
    let lost = try other.queue.read { try $0.history(ofIssue: issue.id) }.filter(\.lost)
    #expect(lost.map(\.deviceName) == ["Safari on iPhone"])
  }

  /// The files written for a browser go, as this device's own do, once a snapshot of this
  /// database holds their changes; a device that comes later has them from the snapshot.
  @Test func filesWrittenForABrowserGoOnceASnapshotHoldsThem() throws {
    let folder = try TemporaryDirectory()
    let server = try Replica("Server", remote: folder.path)
    let issue = try server.issue("Crash")
    try server.sync()
    func browserFiles() throws -> [String] {
      let path = folder.path(Self.browser)
      return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
    for number in 1...3 {
      server.time.advance(by: 60)
      let at = server.time.now.timeIntervalSince1970
      try server.queue.write { db in
        try db.noteRelayed(device: Self.browser)
        _ = try db.applyChanges(
          [Self.titleEdit(issue.id, "Edit \(number)", at: at)],
          deviceNames: [Self.browser: "Safari on iPhone"], local: try db.localDeviceID())
      }
      try server.sync(compactAfter: 100)
    }
    #expect(try browserFiles().count == 3)
    // Compacted: the snapshot holds the browser's changes, and its files go.
    let report = try server.sync(compactAfter: 1)
    #expect(report.wroteSnapshot)
    #expect(try browserFiles().isEmpty)
    let newcomer = try Replica("New", remote: folder.path)
    try newcomer.sync()
    #expect(try newcomer.stored(issue.id)?.title == "Edit 3")
    #expect(try newcomer.dump() == server.dump())
  }

  /// A copy of a relaying database whose browser files a snapshot removed numbers the files
  /// it writes for the browser on from the last, so a device that read the first ones reads
  /// the new ones too.
  @Test func aCopyNumbersTheBrowsersFilesOnPastThoseOthersRead() throws {
    let folder = try TemporaryDirectory()
    let server = try Replica("Server", remote: folder.path)
    let other = try Replica("Laptop", remote: folder.path)
    let issue = try server.issue("Crash")
    try server.sync()
    server.time.advance(by: 60)
    try server.queue.write { db in
      try db.noteRelayed(device: Self.browser)
      _ = try db.applyChanges(
        [Self.titleEdit(issue.id, "From the browser", at: server.time.now.timeIntervalSince1970)],
        deviceNames: [Self.browser: "Safari on iPhone"], local: try db.localDeviceID())
    }
    try server.sync(compactAfter: 100)
    other.time.advance(by: 60)
    try other.sync()
    #expect(try other.stored(issue.id)?.title == "From the browser")
    // The snapshot holds the browser's file, which goes.
    server.time.advance(by: 5)
    #expect(try server.sync(compactAfter: 1).wroteSnapshot)
    let copy = try Replica(copying: server, name: "Server copy")
    // The original goes on, so the copy finds files of its id it did not write.
    server.time.advance(by: 5)
    try server.edit(issue.id) { $0.detail = "On the original" }
    try server.sync(compactAfter: 100)
    copy.time.advance(by: 60)
    try copy.queue.write { db in
      _ = try db.applyChanges(
        [
          Self.titleEdit(
            issue.id, "Again from the browser", at: copy.time.now.timeIntervalSince1970)
        ],
        deviceNames: [Self.browser: "Safari on iPhone"], local: try db.localDeviceID())
    }
    #expect(try copy.sync(compactAfter: 100).newDevice == .copied)
    other.time.advance(by: 120)
    try other.sync()
    #expect(try other.stored(issue.id)?.title == "Again from the browser")
  }

  /// A copy of the database that relays a browser takes a new id: it sends the browser's changes
  /// again in files of its own numbered after the original's, claims in its snapshots only the
  /// files it has read or wrote, and the browser's changes still reach a device that comes later.
  @Test func aCopyOfARelayingDatabaseNumbersItsOwnFilesForTheBrowser() throws {
    let folder = try TemporaryDirectory()
    let server = try Replica("Server", remote: folder.path)
    let issue = try server.issue("Crash")
    try server.sync()
    server.time.advance(by: 60)
    let at = server.time.now.timeIntervalSince1970
    try server.queue.write { db in
      try db.noteRelayed(device: Self.browser)
      _ = try db.applyChanges(
        [Self.titleEdit(issue.id, "From the browser", at: at)],
        deviceNames: [Self.browser: "Safari on iPhone"], local: try db.localDeviceID())
    }
    try server.sync(compactAfter: 100)
    #expect(
      FileManager.default.fileExists(
        atPath: folder.path + "/"
          + PackageName(device: Self.browser, kind: .changes, number: 1).description))
    let copy = try Replica(copying: server, name: "Server copy")
    // The original goes on, and the copy finds files of its id it did not write.
    server.time.advance(by: 5)
    try server.edit(issue.id) { $0.detail = "On the original" }
    try server.sync(compactAfter: 100)
    copy.time.advance(by: 10)
    #expect(try copy.sync(compactAfter: 100).newDevice == .copied)
    // It relays the browser's changes again, in files numbered after the original's.
    let cursor = try copy.queue.read {
      try $0.fetchOne(
        "SELECT value FROM settings WHERE key LIKE 'sync_relay_pushed:%'", as: String.self)
    }
    #expect(cursor?.split(separator: " ").last == "2")
    let compacted = try copy.sync(compactAfter: 1)
    #expect(compacted.wroteSnapshot)
    let newcomer = try Replica("New", remote: folder.path)
    try newcomer.sync()
    #expect(try newcomer.stored(issue.id)?.title == "From the browser")
  }
}
