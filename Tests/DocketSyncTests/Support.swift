import Database
import DocketCore
import DocketSync
import DocketTestSupport
import DocketTransfer
import Foundation
import Locking
import Postgres
import Testing

/// Numbers from a seed, the same every run: SplitMix64.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func uuid() -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<16 { bytes[index] = UInt8.random(in: 0...255, using: &self) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}

/// The kinds of remote the sync tests run against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case folder, postgres
  var testDescription: String { rawValue }
}

/// The throwaway PostgreSQL servers `scripts/with-postgres.sh` starts for `make test`.
enum PostgresServer {
  struct Missing: Error, CustomStringConvertible {
    var description: String {
      """
      No PostgreSQL server for the tests: DOCKET_TEST_POSTGRES is not set. Run the tests \
      through `make test`, or `scripts/with-postgres.sh swift test`, which start one.
      """
    }
  }

  static func address(_ variable: String = "DOCKET_TEST_POSTGRES") throws -> String {
    guard let address = ProcessInfo.processInfo.environment[variable], !address.isEmpty else {
      throw Missing()
    }
    return address
  }

  /// A superuser's connection to the server, for what a test sets up there.
  static func admin(_ variable: String = "DOCKET_TEST_POSTGRES") throws -> PostgresConnection {
    try PostgresConnection(try address(variable))
  }

  /// A space no other test uses.
  static func newSpace() -> String {
    "t" + UUID().lowercasedText.replacingOccurrences(of: "-", with: "").prefix(20)
  }

  /// The address with another role in it: `postgres://role@host:port/db`.
  static func address(as role: String, _ variable: String = "DOCKET_TEST_POSTGRES") throws
    -> String
  {
    try address(variable).replacingOccurrences(of: "docket_admin@", with: role + "@")
  }
}

/// A remote shared by a test's devices: a new folder, or a new space on the test server (dropped
/// when the test ends).
final class TestRemote: Sendable {
  let backend: Backend
  /// The folder's path, or the server's address.
  let location: String
  let space: String?
  let folder: TemporaryDirectory?

  init(_ backend: Backend, variable: String = "DOCKET_TEST_POSTGRES") throws {
    self.backend = backend
    switch backend {
    case .folder:
      let folder = try TemporaryDirectory()
      self.folder = folder
      location = folder.path
      space = nil
    case .postgres:
      location = try PostgresServer.address(variable)
      space = PostgresServer.newSpace()
      folder = nil
    }
  }

  func remote(device: String) -> any SyncRemote {
    if let space { return PostgresRemote(address: location, space: space, device: device) }
    return FolderRemote(path: location, device: device)
  }

  deinit {
    if let space, let admin = try? PostgresConnection(location) {
      _ = try? admin.execute(
        "DROP SCHEMA IF EXISTS \(PostgresConnection.identifier("docket_" + space)) CASCADE")
    }
  }
}

/// One device: its own database, its own clock, a remote shared with the others.
final class Replica: IssueFixtures, @unchecked Sendable {
  let name: String
  let time: TestTime
  let queue: DatabaseQueue
  /// This database's device id now (a sync may give it a new one: a copy found, a clock
  /// repaired).
  var device: String { (try? queue.read { try $0.localDeviceID() }) ?? "" }
  var remotePath: String
  /// The space, when the remote is a PostgreSQL server at `remotePath`.
  var space: String?
  /// The shared remote, kept as long as a device uses it (its space is dropped when it goes).
  private var shared: TestRemote?
  /// The key of an encrypted remote, once this device has it.
  var key: SyncKey?

  convenience init(
    _ name: String, remote: TestRemote, start: Date = Date(timeIntervalSince1970: 1_800_000_000)
  ) throws {
    try self.init(name, remote: remote.location, start: start)
    space = remote.space
    shared = remote
  }

  init(_ name: String, remote: String, start: Date = Date(timeIntervalSince1970: 1_800_000_000))
    throws
  {
    self.name = name
    let time = TestTime(start)
    self.time = time
    queue = try DocketDatabase.inMemory(now: { time.now })
    remotePath = remote
  }

  /// A copy of `original`'s database, as a cloned disk or a restored backup of the file makes
  /// it: the same device id and everything it knows, and a clock of its own set as the
  /// original's is now.
  init(copying original: Replica, name: String) throws {
    self.name = name
    let time = TestTime(original.time.now)
    self.time = time
    queue = try DocketDatabase.inMemory(now: { time.now })
    remotePath = original.remotePath
    space = original.space
    shared = original.shared
    key = original.key
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-copy-\(UUID().uuidString).sqlite"
    ).path
    defer { unlink(file) }
    try original.queue.withConnection { db in try db.execute("VACUUM INTO ?", [file]) }
    try queue.withConnection { db in try db.replaceContents(withDatabaseAt: file) }
  }

  /// The database written as Docket's own export, as `docket export -o backup.json` writes it.
  func backup() throws -> [UInt8] {
    final class Written: @unchecked Sendable { var bytes: [UInt8] = [] }
    let written = Written()
    var output = OutputBytes(pieceSize: 4096, write: { written.bytes += Array($0.utf8) })
    try queue.read { db in
      try Exporter.write(.docket, from: db, exported: time.now, to: &output)
    }
    output.flush()
    return written.bytes
  }

  /// `docket import` of a backup, as a person restores one.
  @discardableResult
  func restore(_ backup: [UInt8], restoreDeleted: Bool = false) throws -> ImportSummary {
    try queue.importBatch(try TransferReader.read(backup), restoreDeleted: restoreDeleted)
  }

  /// Two devices, Laptop and Desktop, sharing a new folder.
  static func pair() throws -> (TemporaryDirectory, Replica, Replica) {
    let folder = try TemporaryDirectory()
    return (
      folder, try Replica("Laptop", remote: folder.path),
      try Replica("Desktop", remote: folder.path)
    )
  }

  /// Two devices, Laptop and Desktop, sharing a new remote of the kind.
  static func pair(_ backend: Backend) throws -> (TestRemote, Replica, Replica) {
    let remote = try TestRemote(backend)
    return (remote, try Replica("Laptop", remote: remote), try Replica("Desktop", remote: remote))
  }

  var remote: any SyncRemote {
    let device = self.device
    if let space {
      return PostgresRemote(address: remotePath, space: space, device: device, key: key)
    }
    return FolderRemote(path: remotePath, device: device, key: key)
  }

  func engine() -> SyncEngine {
    SyncEngine(database: queue, remote: remote, device: device, deviceName: name)
  }

  @discardableResult
  func sync(
    stopAfter: Int? = nil, compactAfter: Int = 64, bulkFrom: Int = Merger.bulkThreshold,
    imageMinimumChanges: Int = 20_000
  ) throws -> SyncReport {
    var engine = engine()
    engine.stopAfter = stopAfter
    engine.compactAfter = compactAfter
    engine.bulkFrom = bulkFrom
    engine.imageMinimumChanges = imageMinimumChanges
    return try engine.run()
  }

  func dump() throws -> String { try queue.read { try $0.canonicalDump() } }

  var now: Date { time.now }
  /// Ids at random: replicas of a test share their ids' space, as devices do.
  func nextID() -> UUID { UUID() }

  func edit(_ id: UUID, _ change: (inout DocketCore.Issue) -> Void) throws {
    guard var issue = try stored(id) else { return }
    change(&issue)
    try queue.write { try $0.saveIssue(issue) }
  }
}
