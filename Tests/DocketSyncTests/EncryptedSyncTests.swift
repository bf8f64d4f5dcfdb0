import Database
import DocketCore
import DocketTestSupport
import Foundation
import Postgres
import Testing

@testable import DocketSync

/// Sync through an encrypted remote: what the folder or the server holds is sealed, and only a
/// device given the passphrase reads it.
@Suite struct EncryptedSyncTests {
  static let passphrase = "correct horse battery staple"

  /// Encrypts the pair's remote from `a`, and gives `b` the key by the passphrase.
  func encrypt(_ a: Replica, _ b: Replica) throws {
    a.key = try RemoteEncryption.encrypt(a.remote, passphrase: Self.passphrase, cost: .light)
    b.key = try RemoteEncryption.unlock(b.remote, passphrase: Self.passphrase)
  }

  /// Every byte the remote holds: each file of the folder, each row of the space's tables.
  func everything(_ remote: TestRemote) throws -> [UInt8] {
    if let space = remote.space {
      let admin = try PostgresServer.admin()
      let schema = PostgresConnection.identifier("docket_" + space)
      var bytes: [UInt8] = []
      for table in ["space", "packages", "parts", "images"] {
        let rows = try admin.execute("SELECT t::text FROM \(schema).\(table) t")
        for row in rows.rows { bytes += Array((row[0] ?? "").utf8) }
        // Images are bytea: their bytes, not their hex.
        if table == "images" {
          let data = try admin.execute("SELECT encode(data, 'escape') FROM \(schema).images")
          for row in data.rows { bytes += Array((row[0] ?? "").utf8) }
        }
      }
      return bytes
    }
    var bytes: [UInt8] = []
    let root = remote.location
    let walker = FileManager.default.enumerator(atPath: root)
    while let relative = walker?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let path = root + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        bytes +=
          Array(relative.utf8) + (FileManager.default.contents(atPath: path).map(Array.init) ?? [])
      }
    }
    return bytes
  }

  func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let needle = Array(needle.utf8)
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
      haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle
    }
  }

  @Test(arguments: Backend.allCases) func twoDevicesConvergeAndTheRemoteHoldsNoPlainText(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    try encrypt(a, b)
    let id = try a.issue(
      "Quarterly zebra report", detail: "Unguessable marmalade detail",
      tags: [try a.tag("flamingo")]
    ).id
    // A snapshot with its image, and change files after it.
    var engine = a.engine()
    engine.compactAfter = 1
    engine.imageMinimumChanges = 1
    engine.batchSize = 2
    _ = try engine.run()
    try a.issue("Later walrus issue")
    try a.sync()
    let report = try b.sync()
    #expect(report.skipped.isEmpty)
    #expect(try b.dump() == a.dump())
    try b.edit(id) { $0.title = "Renamed by the otter" }
    try b.sync()
    try a.sync()
    #expect(try a.dump() == b.dump())
    #expect(try a.stored(id)?.title == "Renamed by the otter")
    // The snapshot's image is there, sealed.
    #expect(try a.remote.list().packages.contains { $0.kind == .image })
    let held = try everything(remote)
    #expect(held.count > 1000)
    for secret in [
      "zebra", "flamingo", "marmalade", "walrus", "otter", "Laptop", "Desktop", "SQLite format",
    ] {
      #expect(!contains(held, secret), "\(secret) is in the remote")
    }
    // The check breaks if the search finds nothing ever: the same words in a plain remote.
    let (plainRemote, c, _) = try Replica.pair(backend)
    try c.issue("Quarterly zebra report", tags: [try c.tag("flamingo")])
    try c.sync()
    #expect(contains(try everything(plainRemote), "zebra"))
    #expect(contains(try everything(plainRemote), "Laptop"))
  }

  @Test(arguments: Backend.allCases) func theWrongPassphraseOpensNothingAndAppliesNothing(
    backend: Backend
  ) throws {
    let (_, a, b) = try Replica.pair(backend)
    a.key = try RemoteEncryption.encrypt(a.remote, passphrase: Self.passphrase, cost: .light)
    try a.issue("Sealed")
    try a.sync()
    #expect(throws: SealingError.wrongPassphrase) {
      try RemoteEncryption.unlock(b.remote, passphrase: "not the passphrase")
    }
    // Without a key, a device neither reads nor writes: it is told the remote is encrypted.
    try b.issue("Would be plain")
    #expect(throws: RemoteError(location: location(b), problem: .encrypted)) { try b.sync() }
    #expect(try !titles(b).contains("Sealed"))
    let listing = try a.remote.list()
    #expect(listing.packages.allSatisfy { $0.device == a.device })
    // A key of another remote is refused as well.
    let (_, other, _) = try Replica.pair(backend)
    b.key = try RemoteEncryption.encrypt(other.remote, passphrase: Self.passphrase, cost: .light)
    #expect(throws: RemoteError(location: location(b), problem: .keyRefused)) { try b.sync() }
  }

  func titles(_ replica: Replica) throws -> [String] {
    try replica.queue.read {
      try $0.fetchAll("SELECT title FROM issues ORDER BY title", []) {
        try $0.get(0, as: String.self)
      }
    }
  }

  func location(_ replica: Replica) -> String {
    if let space = replica.space {
      return "\(RemoteAddress.redacted(replica.remotePath)) [\(space)]"
    }
    return (replica.remotePath as NSString).standardizingPath
  }

  @Test func aTamperedChangeFileOrSnapshotIsSkippedAndAGoodCopyReadLater() throws {
    let (remote, a, b) = try Replica.pair(.folder)
    try encrypt(a, b)
    try a.issue("First")
    try a.sync()
    let file = remote.location + "/" + a.device + "/00000001.changes"
    let good = try #require(FileManager.default.contents(atPath: file))
    var bad = [UInt8](good)
    bad[bad.count / 2] ^= 0x01
    try Data(bad).write(to: URL(fileURLWithPath: file))
    let report = try b.sync()
    #expect(
      report.skipped == [
        SkippedPackage(path: "\(a.device)/00000001.changes", problem: .package(.unsealable))
      ])
    #expect(try !titles(b).contains("First"))
    // Cut short: still being copied in.
    try Data(good.prefix(good.count - 5)).write(to: URL(fileURLWithPath: file))
    #expect(try b.sync().skipped.map(\.problem) == [.package(.partial)])
    try good.write(to: URL(fileURLWithPath: file))
    #expect(try b.sync().skipped.isEmpty)
    #expect(try titles(b).contains("First"))

    // A snapshot: a new device skips a tampered one whole, and reads it once it is good again.
    var engine = a.engine()
    engine.snapshotNow = true
    try a.issue("Second")
    _ = try engine.run()
    let snapshot = try #require(
      try FileManager.default.contentsOfDirectory(atPath: remote.location + "/" + a.device)
        .first { $0.hasSuffix(".snapshot") })
    let snapshotFile = remote.location + "/" + a.device + "/" + snapshot
    let goodSnapshot = try #require(FileManager.default.contents(atPath: snapshotFile))
    var badSnapshot = [UInt8](goodSnapshot)
    badSnapshot[badSnapshot.count - 40] ^= 0x80
    try Data(badSnapshot).write(to: URL(fileURLWithPath: snapshotFile))
    let c = try Replica("Joins", remote: remote)
    c.key = try RemoteEncryption.unlock(c.remote, passphrase: Self.passphrase)
    let skipped = try c.sync().skipped
    #expect(
      skipped.contains(
        SkippedPackage(path: "\(a.device)/\(snapshot)", problem: .package(.unsealable))))
    #expect(try !titles(c).contains("First"))
    try goodSnapshot.write(to: URL(fileURLWithPath: snapshotFile))
    try c.sync()
    #expect(try c.dump() == a.dump())
  }

  @Test func aTamperedRowIsSkippedAndAGoodCopyReadLater() throws {
    let (remote, a, b) = try Replica.pair(.postgres)
    try encrypt(a, b)
    try a.issue("First")
    try a.sync()
    let admin = try PostgresServer.admin()
    let parts = PostgresConnection.identifier("docket_" + remote.space!) + ".parts"
    let good = try #require(try admin.execute("SELECT body FROM \(parts)").rows.first?[0] ?? nil)
    var characters = Array(good)
    let middle = characters.count / 2
    characters[middle] = characters[middle] == "A" ? "B" : "A"
    try admin.execute("UPDATE \(parts) SET body = $1", [String(characters)])
    let report = try b.sync()
    #expect(report.skipped.map(\.problem) == [.package(.unsealable)])
    #expect(try !titles(b).contains("First"))
    try admin.execute("UPDATE \(parts) SET body = $1", [good])
    #expect(try b.sync().skipped.isEmpty)
    #expect(try titles(b).contains("First"))
  }

  @Test(arguments: Backend.allCases) func aNewPassphraseKeepsOldDevicesAndRefusesTheOldOne(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    try encrypt(a, b)
    _ = try RemoteEncryption.changePassphrase(
      a.remote, old: Self.passphrase, new: "a new and longer phrase", cost: .light)
    #expect(throws: SealingError.wrongPassphrase) {
      try RemoteEncryption.changePassphrase(b.remote, old: "wrong", new: "whatever", cost: .light)
    }
    try a.issue("After the change")
    try a.sync()
    try b.sync()
    #expect(try titles(b).contains("After the change"))
    let c = try Replica("Joins", remote: remote)
    #expect(throws: SealingError.wrongPassphrase) {
      try RemoteEncryption.unlock(c.remote, passphrase: Self.passphrase)
    }
    c.key = try RemoteEncryption.unlock(c.remote, passphrase: "a new and longer phrase")
    try c.sync()
    #expect(try c.dump() == a.dump())
  }

  @Test(arguments: Backend.allCases) func aPlainRemoteEncryptedKeepsEveryDevicesData(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    try a.issue("Made plain on A")
    try a.sync()
    try b.issue("Made plain on B")
    try b.sync()
    // B's change after A last read: A encrypts without having it.
    try b.issue("Pushed plain after A's last sync")
    try b.sync()
    a.key = try RemoteEncryption.encrypt(a.remote, passphrase: Self.passphrase, cost: .light)
    // A device that holds no key is told, and writes nothing plain.
    try b.issue("Waits for the passphrase")
    let before = try b.remote.list().packages
    #expect(throws: RemoteError(location: location(b), problem: .encrypted)) { try b.sync() }
    #expect(try b.remote.list().packages == before)
    b.key = try RemoteEncryption.unlock(b.remote, passphrase: Self.passphrase)
    try b.sync()
    var engine = a.engine()
    engine.snapshotNow = true
    _ = try engine.run()
    try b.sync()
    #expect(try a.dump() == b.dump())
    let c = try Replica("Joins", remote: remote)
    c.key = try RemoteEncryption.unlock(c.remote, passphrase: Self.passphrase)
    let report = try c.sync()
    #expect(report.skipped.isEmpty)
    #expect(try c.dump() == a.dump())
    #expect(
      try titles(c) == [
        "Made plain on A", "Made plain on B", "Pushed plain after A's last sync",
        "Waits for the passphrase",
      ])
    let held = try everything(remote)
    #expect(!contains(held, "plain on"))
  }

  @Test func aRemoteThatLostItsEncryptionIsNotWrittenPlain() throws {
    let (remote, a, _) = try Replica.pair(.folder)
    a.key = try RemoteEncryption.encrypt(a.remote, passphrase: Self.passphrase, cost: .light)
    try a.issue("Private")
    try a.sync()
    // Someone empties the folder: a device with a key does not fill it in plain text.
    try FileManager.default.removeItem(atPath: remote.location + "/docket-remote.json")
    try FileManager.default.removeItem(atPath: remote.location + "/" + a.device)
    #expect(throws: RemoteError(location: remote.location, problem: .noLongerEncrypted)) {
      try a.sync()
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote.location).isEmpty)
  }

  @Test func aDeviceThatSawTheRemoteEncryptedNeverWritesItPlain() throws {
    let (remote, a, b) = try Replica.pair(.folder)
    try encrypt(a, b)
    try b.issue("Private to B")
    try b.sync()
    // The marker made plain again under the same id, and B's key lost.
    let marker = remote.location + "/docket-remote.json"
    let text = try String(contentsOfFile: marker, encoding: .utf8)
    let id = try #require(text.split(separator: "\"").dropFirst(9).first)
    try Data("{\"docket\":\"remote\",\"version\":1,\"id\":\"\(id)\"}\n".utf8).write(
      to: URL(fileURLWithPath: marker))
    b.key = nil
    try b.issue("Would go plain")
    let before = try b.remote.list().packages
    #expect(throws: RemoteError(location: location(b), problem: .noLongerEncrypted)) {
      try b.sync()
    }
    #expect(try b.remote.list().packages == before)
  }

  /// A device that was told the remote is encrypted, and has no key yet, writes nothing when the
  /// remote is then emptied and made anew (another id): no marker, no file, nothing plain.
  @Test func aDeviceWithoutAKeyThatSawItEncryptedWritesNothingIntoARemoteMadeAnew() throws {
    let (remote, a, b) = try Replica.pair(.folder)
    try b.issue("Stays here")
    try b.sync()
    a.key = try RemoteEncryption.encrypt(a.remote, passphrase: Self.passphrase, cost: .light)
    #expect(throws: RemoteError(location: location(b), problem: .encrypted)) { try b.sync() }
    // Told as a sync is told (`ConfiguredSync` notes it).
    let (id, _) = try b.remote.keyRecord()
    try b.queue.write { try $0.noteEncrypted(id) }
    for entry in try FileManager.default.contentsOfDirectory(atPath: remote.location) {
      try FileManager.default.removeItem(atPath: remote.location + "/" + entry)
    }
    #expect(throws: RemoteError(location: location(b), problem: .noLongerEncrypted)) {
      try b.sync()
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: remote.location).isEmpty)
  }

  @Test func sealedSizesAreForetold() {
    let key = SyncKey(remote: "r", bytes: Sodium.random(32))
    let name = PackageName(device: "d", kind: .changes, number: 1)
    let lines = Array("header\n".utf8)
    for plain in [
      [], lines, Array(repeating: 0x41, count: 70_000), Array(repeating: 0x41, count: 1 << 20),
      Array(repeating: 0x41, count: (2 << 20) + 5), lines + Array(repeating: 0x42, count: 1 << 20),
      Array(repeating: 0x43, count: (1 << 20) + 3) + [0x0A] + Array(repeating: 0x44, count: 9),
    ] {
      let sealed = SealedBytes.seal(plain, name: name, key: key).bytes
      #expect(sealed.count == SealedBytes.sealedCount(plain), "\(plain.count)")
      #expect((try? SealedBytes.open(sealed, name: name, key: key)) == plain)
    }
    let postgres = PostgresRemote(address: "postgres://nowhere", space: "s", device: "d", key: key)
    let plain = Array("header\nbody\n".utf8)
    #expect(
      postgres.storedSize(of: plain)
        == Data(SealedBytes.seal(plain, name: name, key: key).bytes).base64EncodedData().count)
  }

  @Test func theKeyFileIsItsOwnersAlone() throws {
    let folder = try TemporaryDirectory()
    let database = folder.path + "/docket.sqlite"
    let key = SyncKey(remote: "remote-id", bytes: Array(repeating: 7, count: 32))
    try SyncKeyFile.write(key, database: database)
    let file = SyncKeyFile.path(database: database)
    func mode() throws -> Int {
      (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode() == 0o600)
    #expect(SyncKeyFile.read(database: database) == key)
    chmod(file, 0o644)
    #expect(SyncKeyFile.read(database: database) == key)
    #expect(try mode() == 0o600)
    #expect(SyncKeyFile.remove(database: database))
    #expect(SyncKeyFile.read(database: database) == nil)
  }

  @Test func sealedBytesOpenOnlyWhole() throws {
    let key = SyncKey(remote: "r", bytes: Sodium.random(32))
    let name = PackageName(device: UUID().lowercasedText, kind: .changes, number: 3)
    for size in [0, 1, 255, 256, 65_535, 65_536, 65_537, 200_000] {
      var plain = Array("{\"docket\":\"changes\"}\n".utf8)
      plain += (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      let (sealed, headerEnd) = SealedBytes.seal(plain, name: name, key: key)
      #expect(try SealedBytes.open(sealed, name: name, key: key) == plain)
      #expect(sealed.count == SealedBytes.sealedCount(plain))
      #expect(
        try SealedBytes.openFirst(sealed[..<headerEnd], name: name, key: key)
          == Array("{\"docket\":\"changes\"}\n".utf8))
      #expect(throws: PackageProblem.partial) {
        try SealedBytes.open(Array(sealed.dropLast(20)), name: name, key: key)
      }
      var flipped = sealed
      flipped[flipped.count - 1] ^= 1
      #expect(throws: PackageProblem.unsealable) {
        try SealedBytes.open(flipped, name: name, key: key)
      }
      let other = PackageName(device: name.device, kind: .changes, number: 4)
      #expect(throws: PackageProblem.unsealable) {
        try SealedBytes.open(sealed, name: other, key: key)
      }
      #expect(throws: PackageProblem.unsealable) {
        try SealedBytes.open(sealed + [0], name: name, key: key)
      }
    }
    #expect(throws: PackageProblem.notSealed) {
      try SealedBytes.open(Array("{\"docket\":\"changes\"}\n".utf8), name: name, key: key)
    }
    // Opened from a file, part by part: the same bytes, and the same refusals.
    let folder = try TemporaryDirectory()
    func fromFile(_ bytes: [UInt8]) throws -> [UInt8] {
      let input = folder.path("in-\(UUID().uuidString)")
      let output = folder.path("out-\(UUID().uuidString)")
      try Data(bytes).write(to: URL(fileURLWithPath: input))
      let reading = open(input, O_RDONLY)
      let writing = open(output, O_WRONLY | O_CREAT, 0o600)
      defer {
        close(reading)
        close(writing)
      }
      try SealedBytes.open(file: reading, name: name, key: key, into: writing)
      return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }
    let large = Array(repeating: UInt8(0x5A), count: (2 << 20) + 77)
    let sealedLarge = SealedBytes.seal(large, name: name, key: key, headerFirst: false).bytes
    #expect(try fromFile(sealedLarge) == large)
    func refusal(_ bytes: [UInt8]) -> SkippedProblem? {
      do {
        _ = try fromFile(bytes)
        return nil
      } catch let skipped as SkippedPackage {
        return skipped.problem
      } catch {
        return nil
      }
    }
    #expect(refusal(Array(sealedLarge.dropLast(9))) == .package(.partial))
    var changed = sealedLarge
    changed[1 << 20] ^= 4
    #expect(refusal(changed) == .package(.unsealable))
    #expect(refusal(sealedLarge + [1]) == .package(.unsealable))
    #expect(refusal(Array("plain\n".utf8)) == .package(.notSealed))
    // Titles of 10 and 200 bytes give files of one size.
    let short = SealedBytes.seal(Array("h\n0123456789".utf8), name: name, key: key).bytes
    let long = SealedBytes.seal(
      Array("h\n".utf8) + Array(repeating: 0x41, count: 200), name: name, key: key
    ).bytes
    #expect(short.count == long.count)
  }

  @Test func aRemoteRecordOutOfBoundsIsRefused() throws {
    let (record, _) = try RemoteKeyRecord.make(remote: "r", passphrase: "p", cost: .light)
    #expect(RemoteKeyRecord(text: record.text) == record)
    let greedy = record.text.replacingOccurrences(
      of: "\"memory\":\(KeyCost.light.memory)", with: "\"memory\":\(1 << 40)")
    #expect(RemoteKeyRecord(text: greedy) == nil)
    let slow = record.text.replacingOccurrences(of: "\"operations\":1", with: "\"operations\":99")
    #expect(RemoteKeyRecord(text: slow) == nil)
  }
}

/// The sealed inputs of the `changes` fuzz target (`Tests/Fuzz/corpus/changes/sealed-*`): each
/// opens with the fuzz target's key to a package. `DOCKET_RECORD_FUZZ_SEEDS=1` writes them anew
/// from the plain seeds.
@Suite struct SealedFuzzSeedTests {
  static let key = SyncKey(remote: "fuzz", bytes: Array(repeating: 7, count: 32))
  static let name = PackageName(device: "d", kind: .changes, number: 1)
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/changes").path

  @Test func sealedSeedsOpenToPackages() throws {
    if ProcessInfo.processInfo.environment["DOCKET_RECORD_FUZZ_SEEDS"] == "1" {
      for plain in ["00000001.changes", "00000002.changes"] {
        let bytes = try #require(FileManager.default.contents(atPath: Self.folder + "/" + plain))
        let sealed = SealedBytes.seal(Array(bytes), name: Self.name, key: Self.key).bytes
        try Data(sealed).write(to: URL(fileURLWithPath: Self.folder + "/sealed-" + plain))
      }
    }
    let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.folder)
      .filter { $0.hasPrefix("sealed-") }
    #expect(seeds.count == 2)
    for seed in seeds {
      let bytes = try #require(FileManager.default.contents(atPath: Self.folder + "/" + seed))
      let plain = try SealedBytes.open(Array(bytes), name: Self.name, key: Self.key)
      #expect(PackageFormat.checkStartPasses(plain), "\(seed)")
    }
  }
}
