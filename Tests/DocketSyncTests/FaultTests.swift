import Database
import DocketCore
import DocketSync
import Foundation
import Testing

/// Syncs cut off, and folders holding what a sync tool or a person left there.
@Suite struct FaultTests {
  let folder: TemporaryDirectory
  let a: Replica
  let b: Replica

  init() throws {
    folder = try TemporaryDirectory()
    a = try Replica("Laptop", remote: folder.path)
    b = try Replica("Desktop", remote: folder.path)
  }

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
    try String(good.prefix(good.count / 2)).write(
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
    #expect(
      throws: PackageProblem.badChange(ChangeFormatError(line: 2, reason: "no valid device id (d)"))
    ) {
      try PackageFormat.decode(bytes, expected: name)
    }
  }

  @Test func aFolderThatDisappearsFailsClearlyAndTheNextSyncCompletes() throws {
    try a.issue("Before")
    _ = try run(a)
    try FileManager.default.removeItem(atPath: folder.path)
    try a.issue("While the folder is gone")
    #expect(throws: RemoteError(location: folder.path, problem: .missing)) { try run(a) }
    try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
    // The folder is back, empty (a new one): nothing this device made is lost.
    try a.queue.write { try $0.setRemote(nil) }
    try a.queue.write { try $0.setRemote(folder.path) }
    _ = try run(a)
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
}
