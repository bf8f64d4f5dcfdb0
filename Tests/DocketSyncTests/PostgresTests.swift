import Database
import DocketCore
import DocketSync
import Foundation
import Locking
import Postgres
import Testing

/// The PostgreSQL remote against the throwaway server of `make test`: spaces, rights, errors,
/// concurrent devices, a new device, rows that are not Docket's, live notifications. (The
/// conflict and convergence tests run against it too; the server stopped is `PostgresFaultTests`.)
@Suite struct PostgresTests {
  let admin: PostgresConnection
  let address: String

  init() throws {
    address = try PostgresServer.address()
    admin = try PostgresServer.admin()
  }

  func issues(_ replica: Replica) throws -> Set<String> {
    Set(
      try replica.queue.read { db in try db.fetchAll("SELECT title FROM issues") { try $0.get(0) } }
    )
  }

  // MARK: - Spaces

  @Test func spacesInOneDatabaseAreApartAndVersioned() throws {
    let acme = try TestRemote(.postgres)
    let beta = try TestRemote(.postgres)
    let a = try Replica("A", remote: acme)
    let b = try Replica("B", remote: beta)
    let c = try Replica("C", remote: acme)
    try a.issue("For acme")
    try b.issue("For beta")
    try a.sync()
    try b.sync()
    try c.sync()
    #expect(try issues(c) == ["For acme"])
    #expect(try b.sync().pulled == 0)
    // Made on first use, with the version a later Docket migrates from.
    let schema = PostgresConnection.identifier("docket_" + acme.space!)
    let version = try admin.execute("SELECT version FROM \(schema).space")
    #expect(version.rows == [["1"]])
    let tables = try admin.execute(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
      ["docket_" + acme.space!])
    #expect(tables.rows.map { $0[0] } == ["images", "packages", "parts", "space"])
  }

  @Test func aSpaceMadeByANewerDocketIsRefusedAndNothingIsLost() throws {
    let remote = try TestRemote(.postgres)
    let a = try Replica("A", remote: remote)
    try a.sync()
    try admin.execute(
      "UPDATE \(PostgresConnection.identifier("docket_" + remote.space!)).space SET version = 9")
    try a.issue("Waiting")
    let waiting = try a.queue.read { try $0.unpushedChangeCount() }
    let location = "\(a.remotePath) [\(remote.space!)]"
    #expect(throws: RemoteError(location: location, problem: .newerVersion(9))) {
      try a.sync()
    }
    #expect(try a.queue.read { try $0.unpushedChangeCount() } == waiting)
    #expect(waiting > 0)
  }

  @Test func aSpaceDroppedDuringUseIsAnotherRemoteAndStartsAfresh() throws {
    let remote = try TestRemote(.postgres)
    let (a, b) = (try Replica("A", remote: remote), try Replica("B", remote: remote))
    try a.issue("Before")
    try a.sync()
    try admin.execute(
      "DROP SCHEMA \(PostgresConnection.identifier("docket_" + remote.space!)) CASCADE")
    // Made again, with another id: A pushes everything it knows to it, and B gets it.
    try a.sync()
    try b.sync()
    #expect(try issues(b) == ["Before"])
  }

  /// A space dropped while a device pulls from it stops the sync and is said as the space gone,
  /// in both languages: not as packages skipped, and not as a folder replaced.
  @Test func aSpaceGoneUnderARunningSyncIsSaidSo() throws {
    let remote = try TestRemote(.postgres)
    let (a, b) = (try Replica("A", remote: remote), try Replica("B", remote: remote))
    for title in ["One", "Two", "Three"] {
      try a.issue(title)
      try a.sync()
    }
    let schema = PostgresConnection.identifier("docket_" + remote.space!)
    let admin = self.admin
    let dropping = HookedRemote(base: b.remote) {
      do { _ = try admin.execute("DROP SCHEMA \(schema) CASCADE") } catch { Issue.record(error) }
    }
    let engine = SyncEngine(
      database: b.queue, remote: dropping, device: b.device, deviceName: b.name)
    #expect {
      try engine.run()
    } throws: { error in
      (error as? RemoteError)?.problem == .spaceMissing
        && SyncMessages.failure(error, DocketStrings.localizer(language: "en")).contains(
          "is not on the server")
        && SyncMessages.failure(error, DocketStrings.localizer(language: "de")).contains(
          "ist nicht auf dem Server")
    }
    // Stopped at the package that failed: the packages after it were not skipped one by one,
    // so the remote was not asked for again as it is after a skip.
    #expect(dropping.prepared == 1)
  }

  /// Asked again for the space it began with, a sync that finds it dropped is told so.
  @Test func aSpaceGoneWhenAskedForAgainIsSaidSo() throws {
    let remote = try TestRemote(.postgres)
    let a = try Replica("A", remote: remote)
    let id = try a.remote.prepare(expecting: nil)
    try admin.execute(
      "DROP SCHEMA \(PostgresConnection.identifier("docket_" + remote.space!)) CASCADE")
    #expect(
      throws: RemoteError(location: "\(a.remotePath) [\(remote.space!)]", problem: .spaceMissing)
    ) {
      try a.remote.prepare(expecting: id)
    }
  }

  @Test func twoDevicesMakingTheSameSpaceAtOnceAgreeOnIt() throws {
    let remote = try TestRemote(.postgres)
    let replicas = try (0..<4).map { try Replica("R\($0)", remote: remote) }
    let ids = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: replicas.count) { index in
      if let id = try? replicas[index].remote.prepare(expecting: nil) {
        ids.withLock { $0.append(id) }
      }
    }
    let made = ids.withLock { $0 }
    #expect(made.count == 4)
    #expect(Set(made).count == 1)
  }

  // MARK: - Rights

  /// A role for a test: its name, and its address with its password in it (a test may; `docket
  /// remote set` moves one to the password file).
  /// With `privileges` (`SELECT`, `SELECT, INSERT`, …) on every table of `remote`'s space and the
  /// use of its schema; with nil, no rights at all.
  func role(_ privileges: String?, on remote: TestRemote? = nil) throws -> (
    name: String, address: String, password: String
  ) {
    let name = "r" + PostgresServer.newSpace()
    let password = UUID().lowercasedText
    try admin.execute("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
    if let privileges, let space = remote?.space {
      let schema = PostgresConnection.identifier("docket_" + space)
      try admin.execute("GRANT USAGE ON SCHEMA \(schema) TO \(name)")
      try admin.execute("GRANT \(privileges) ON ALL TABLES IN SCHEMA \(schema) TO \(name)")
    }
    let address = try PostgresServer.address(as: "\(name):\(password)")
    return (name, address, password)
  }

  @Test func aReadOnlyRolePullsIsRefusedOnPushAndKeepsItsChanges() throws {
    let remote = try TestRemote(.postgres)
    let writer = try Replica("Writer", remote: remote)
    try writer.issue("From the writer")
    try writer.sync()
    let schema = PostgresConnection.identifier("docket_" + remote.space!)
    let reader = try role("SELECT", on: remote)
    let member = try Replica("Member", remote: remote)
    member.remotePath = reader.address
    try member.issue("Kept for later")
    let report = try member.sync()
    #expect(report.pulled > 0)
    #expect(report.pushed == 0)
    #expect(report.pushRefused?.contains("permission denied") == true)
    #expect(try issues(member) == ["From the writer", "Kept for later"])
    // Nothing counts as pushed, and the server holds only the writer's package.
    #expect(try member.queue.read { try $0.unpushedChangeCount() } > 0)
    #expect(try admin.execute("SELECT count(*) FROM \(schema).packages").rows == [["1"]])
    // Refused again the next time, nothing lost meanwhile.
    #expect(try member.sync().pushRefused != nil)
    // A reader with no edits of its own syncs without a word of refusal.
    let quiet = try Replica("Quiet", remote: remote)
    quiet.remotePath = reader.address
    let read = try quiet.sync()
    #expect(read.pushRefused == nil)
    #expect(try issues(quiet) == ["From the writer"])
    // Through the same space with a role that may write (the rights the README gives a member
    // who pushes), the queued changes go.
    let pusher = try role("SELECT, INSERT, DELETE", on: remote)
    member.remotePath = pusher.address
    #expect(try member.sync().pushed > 0)
    #expect(try member.queue.read { try $0.unpushedChangeCount() } == 0)
    try writer.sync()
    #expect(try issues(writer) == ["From the writer", "Kept for later"])
  }

  /// A role that may add packages but not remove them pushes; compaction waits for one that may.
  @Test func aRoleThatMayOnlyAddPushes() throws {
    let remote = try TestRemote(.postgres)
    let owner = try Replica("Owner", remote: remote)
    try owner.sync()
    let adder = try role("SELECT, INSERT", on: remote)
    let member = try Replica("Adder", remote: remote)
    member.remotePath = adder.address
    for index in 0..<6 { try member.issue("Added \(index)") }
    var engine = member.engine()
    engine.batchSize = 2
    engine.compactAfter = 2
    let report = try engine.run()
    #expect(report.pushRefused == nil)
    #expect(report.pushed == 6)
    try owner.sync()
    #expect(try issues(owner).count == 6)
  }

  @Test func aRoleWithoutRightsGetsAClearError() throws {
    let remote = try TestRemote(.postgres)
    let owner = try Replica("Owner", remote: remote)
    try owner.sync()
    let stranger = try role(nil)
    let outsider = try Replica("Outsider", remote: remote)
    outsider.remotePath = stranger.address
    do {
      try outsider.sync()
      Issue.record("a role without rights synced")
    } catch let error as RemoteError {
      guard case .denied(let reason) = error.problem else {
        Issue.record("not refused: \(error)")
        return
      }
      #expect(reason.contains("permission denied for schema"))
      // The address held the role's password; what is said does not.
      #expect(!error.location.contains(stranger.password))
      #expect(error.location.contains(":***@"))
      #expect(!reason.contains(stranger.password))
    }
    // Nor may it make a space of its own: it may not create schemas in the database.
    let other = try TestRemote(.postgres)
    let lonely = try Replica("Lonely", remote: other)
    lonely.remotePath = stranger.address
    do {
      try lonely.sync()
      Issue.record("a role without rights made a space")
    } catch let error as RemoteError {
      guard case .denied(let reason) = error.problem else {
        Issue.record("not refused: \(error)")
        return
      }
      #expect(reason.contains("permission denied"))
    }
  }

  // MARK: - Errors

  @Test func wrongCredentialsAndAnUnreachableServerAreClearAndLoseNothing() throws {
    let remote = try TestRemote(.postgres)
    let a = try Replica("A", remote: remote)
    try a.issue("Waiting")
    a.remotePath = try PostgresServer.address(as: "docket_admin:wrong")
    do {
      try a.sync()
      Issue.record("synced with a wrong password")
    } catch let error as RemoteError {
      #expect("\(error.problem)".contains("password authentication failed"))
      // The password is not in what is said.
      #expect(!error.location.contains("wrong"))
      #expect(!"\(error.problem)".contains("wrong"))
    }
    a.remotePath = "postgres://docket_admin@127.0.0.1:1/postgres"
    do {
      try a.sync()
      Issue.record("synced with no server")
    } catch let error as RemoteError {
      #expect("\(error.problem)".contains("Connection refused"))
    }
    a.remotePath = address
    #expect(try a.sync().pushed > 0)
  }

  /// The password in an address never reaches an error's words.
  @Test func theLocationOfAnAddressWithAPasswordHidesIt() {
    let remote = PostgresRemote(
      address: "postgres://alice:secret@db.example.org/tracker", space: "acme", device: "x")
    #expect(remote.location == "postgres://alice:***@db.example.org/tracker [acme]")
    #expect(PostgresRemote.redacted("postgres://db.example.org/x") == "postgres://db.example.org/x")
    #expect(PostgresRemote.redacted("postgres://u:pa/ss@h/db") == "postgres://u:***@h/db")
    #expect(
      PostgresRemote.redacted("postgres://h/db?sslmode=require&Password=s3cret&x=1")
        == "postgres://h/db?sslmode=require&password=***&x=1")
    #expect(
      PostgresRemote.redacted("postgres://h/db?user=ana@srv") == "postgres://h/db?user=ana@srv")
    #expect(
      RemoteAddress.withoutPassword("postgres://ana:pw@h:5/db?password=x&sslmode=require")
        == "postgres://ana@h:5/db?sslmode=require")
    #expect(RemoteAddress.withoutPassword("postgres://h/db?password=x") == "postgres://h/db")
    // libpq's keyword form, a quoted value with a space and an escaped quote in it.
    let keywords = #"host=db.example.org dbname=tracker user=ben password='se cr\'et' port=5432"#
    #expect(RemoteAddress(keywords) == .postgres(keywords))
    #expect(
      RemoteAddress.redacted(keywords)
        == "host=db.example.org dbname=tracker user=ben password=*** port=5432")
    #expect(
      RemoteAddress.withoutPassword(keywords)
        == "host=db.example.org dbname=tracker user=ben port=5432")
    #expect(RemoteAddress.withoutPassword("password=x host=h") == "host=h")
    // An unquoted value with an escaped space; a URL's key percent-encoded; a password with `?`.
    #expect(RemoteAddress.withoutPassword(#"host=h password=a\ b user=u"#) == "host=h user=u")
    #expect(RemoteAddress.withoutPassword("postgres://h/db?pass%77ord=x") == "postgres://h/db")
    #expect(RemoteAddress.withoutPassword("postgres://u:a?b@h/db") == "postgres://u@h/db")
    // Words shown hide a password with `?` or `/` in it; keywords libpq will refuse are still a
    // server's, and shown only up to their password.
    #expect(PostgresRemote.redacted("postgres://u:pa?ss@h/db") == "postgres://u:***@h/db")
    let unclosed = "host=db user=ben password='it's"
    #expect(RemoteAddress(unclosed) == .postgres(unclosed))
    #expect(RemoteAddress.redacted(unclosed) == "host=db user=ben password=***")
    #expect(RemoteAddress.withoutPassword(unclosed) == "host=db user=ben ")
    // Where libpq finds no user information (a `/` first), the settings keep what it would read.
    #expect(
      RemoteAddress.withoutPassword("postgres://h/db?user=ana@srv")
        == "postgres://h/db?user=ana@srv")
    #expect(RemoteAddress("  PostgreSQL://h/db") == .postgres("  PostgreSQL://h/db"))
    // Anything else is a folder, an `=` in its path included.
    for folder in ["~/Sync/docket", "/mnt/a=b", "hosting=x", "host = ", "My Sync", "pg://h/db"] {
      #expect(RemoteAddress(folder) == .folder(folder), "\(folder)")
    }
  }

  @Test func rowsThatAreNotDocketsAreSkippedAndNamed() throws {
    let (remote, a, b) = try Replica.pair(.postgres)
    try a.issue("Good")
    try a.sync()
    let schema = PostgresConnection.identifier("docket_" + remote.space!)
    try admin.execute(
      """
      INSERT INTO \(schema).packages (device, kind, number, device_name, header, size)
      VALUES ('not-a-device', 'changes', 1, '', '', 0), ($1, 'changes', 2, 'A', '', 5)
      """, [a.device])
    try admin.execute(
      "INSERT INTO \(schema).parts (device, kind, number, part, body) VALUES ($1, 'changes', 2, 0, 'hello')",
      [a.device])
    let report = try b.sync()
    #expect(try issues(b) == ["Good"])
    #expect(
      report.skipped.map(\.path).sorted() == [
        "\(a.device)/00000002.changes", "not-a-device/changes/1",
      ])
  }

  // MARK: - Joining, large packages

  @Test(arguments: [false, true]) func aNewDeviceCatchesUpFromASnapshotAndLaterChanges(image: Bool)
    throws
  {
    let (remote, a, _) = try Replica.pair(.postgres)
    for index in 0..<40 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    engine.batchSize = 5
    engine.compactAfter = 4
    engine.imageMinimumChanges = image ? 1 : 1_000_000
    #expect(try engine.run().wroteSnapshot)
    try a.issue("After the snapshot")
    _ = try engine.run()
    let c = try Replica("Joins", remote: remote)
    let report = try c.sync()
    #expect(report.usedSnapshot)
    #expect(report.usedImage == image)
    #expect(try issues(c).count == 41)
    #expect(try c.dump() == a.dump())
  }

  /// A package larger than a part is cut into parts at line ends and read back whole.
  @Test func aPackageOfManyPartsReadsBackWhole() throws {
    let (_, a, b) = try Replica.pair(.postgres)
    let long = String(repeating: "détail ", count: 40_000)
    for index in 0..<8 {
      let issue = try a.issue("Long \(index)")
      try a.edit(issue.id) { $0.detail = long }
    }
    try a.sync()
    try b.sync()
    #expect(try b.dump() == a.dump())
  }

  // MARK: - Concurrency

  /// Four devices pushing at the same moment, and one pulling while they push, for many rounds:
  /// every change arrives everywhere exactly once.
  @Test func fourDevicesPushingAtOnceLoseNothingAndApplyNothingTwice() throws {
    let remote = try TestRemote(.postgres)
    let pushers = try (0..<4).map { try Replica("P\($0)", remote: remote) }
    let puller = try Replica("Puller", remote: remote)
    let everyone = pushers + [puller]
    let pushed = Locked([Int](repeating: 0, count: everyone.count))
    let pulled = Locked([Int](repeating: 0, count: everyone.count))
    let duplicates = Locked(0)
    let failures = Locked<[String]>([])
    @Sendable func sync(_ index: Int) {
      do {
        var engine = everyone[index].engine()
        engine.batchSize = 3
        engine.compactAfter = 1_000_000
        let report = try engine.run()
        pushed.withLock { $0[index] += report.pushed }
        pulled.withLock { $0[index] += report.pulled }
        duplicates.withLock { $0 += report.duplicates }
      } catch {
        failures.withLock { $0.append("\(everyone[index].name): \(error)") }
      }
    }
    for round in 0..<12 {
      for (index, pusher) in pushers.enumerated() {
        for item in 0..<(1 + (round + index) % 4) {
          let issue = try pusher.issue("\(pusher.name) round \(round) item \(item)")
          if item == 0 { try pusher.edit(issue.id) { $0.priority = .high } }
        }
      }
      DispatchQueue.concurrentPerform(iterations: everyone.count) { sync($0) }
    }
    for _ in 0..<2 { for index in everyone.indices { sync(index) } }
    #expect(failures.withLock { $0 } == [])
    #expect(duplicates.withLock { $0 } == 0)
    let expected = try everyone[0].dump()
    for replica in everyone { #expect(try replica.dump() == expected, "\(replica.name)") }
    // Each device read exactly what the others pushed: nothing missed, nothing twice.
    let totalPushed = pushed.withLock { $0 }.reduce(0, +)
    for (index, count) in pulled.withLock({ $0 }).enumerated() {
      #expect(count == totalPushed - pushed.withLock { $0[index] }, "\(everyone[index].name)")
    }
    #expect(
      try issues(puller).count
        == (0..<12).reduce(0) { sum, round in
          sum + (0..<4).reduce(0) { $0 + 1 + (round + $1) % 4 }
        })
  }

  // MARK: - Live

  @Test func theListenerHearsOtherDevicesPushesAndNotItsOwn() async throws {
    let (remote, a, b) = try Replica.pair(.postgres)
    try a.sync()
    let log = EventLog(
      PostgresListener.events(address: address, space: remote.space!, device: a.device))
    defer { log.stop() }
    #expect(await log.wait(for: 1) == [.connected])
    try a.issue("Mine")
    try a.sync()
    try b.issue("Theirs")
    try b.sync()
    // The one event after connecting is B's: A's own push was passed over.
    #expect(await log.wait(for: 2) == [.connected, .changed])
    try await Task.sleep(for: .milliseconds(300))
    #expect(log.events == [.connected, .changed])
  }

  @Test func theListenerSaysWhenTheConnectionGoesAndComesBack() async throws {
    let (remote, a, _) = try Replica.pair(.postgres)
    try a.sync()
    // No ping in between: the backend is found by its last statement, the LISTEN (a test held up
    // for 15 s by the others would otherwise find `SELECT 1` there).
    let log = EventLog(
      PostgresListener.events(
        address: address, space: remote.space!, device: a.device, pingAfter: .seconds(3600)))
    defer { log.stop() }
    #expect(await log.wait(for: 1) == [.connected])
    let ended = try admin.execute(
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE query LIKE 'LISTEN %' AND query LIKE $1
      """, ["%" + remote.space! + "%"])
    #expect(ended.rows == [["t"]])
    let events = await log.wait(for: 3)
    guard events.count == 3, case .lost(_, let retry) = events[1] else {
      Issue.record("the lost connection was not said: \(events)")
      return
    }
    #expect(retry == .seconds(1))
    #expect(events[2] == .connected)
  }

  @Test func theListenerStopsAtARefusedPassword() async throws {
    let (remote, a, _) = try Replica.pair(.postgres)
    try a.sync()
    let log = EventLog(
      PostgresListener.events(
        address: try PostgresServer.address(as: "docket_admin:wrong"), space: remote.space!,
        device: a.device))
    defer { log.stop() }
    let events = await log.wait(for: 1)
    guard case .failed(let reason) = events.first else {
      Issue.record("not failed: \(events)")
      return
    }
    #expect(reason.contains("password authentication failed"))
    // Not tried again: nothing more comes after the retry would have been due.
    try await Task.sleep(for: .milliseconds(1500))
    #expect(log.events.count == 1)
  }

  // MARK: - TLS

  @Test func tlsIsUsedWhenTheServerOffersItAndRequiredWhenAsked() throws {
    let offered = try PostgresConnection(address)
    #expect(offered.usesTLS)
    let required = try PostgresConnection(address + "?sslmode=require")
    #expect(required.usesTLS)
    // Checked against the authority that made the server's certificate: connects; against
    // others (the system's), refused.
    let certificate = try #require(
      ProcessInfo.processInfo.environment["DOCKET_TEST_POSTGRES_CERT"])
    let verified = try PostgresConnection(
      address + "?sslmode=verify-full&sslrootcert=" + certificate)
    #expect(verified.usesTLS)
    do {
      _ = try PostgresConnection(
        address + "?sslmode=verify-full&sslrootcert=/etc/ssl/certs/ca-certificates.crt")
      Issue.record("a server whose certificate no authority there signed was trusted")
    } catch {
      #expect(error.message.contains("certificate verify failed"), "\(error.message)")
    }
    let plain = try PostgresConnection(address + "?sslmode=disable")
    #expect(!plain.usesTLS)
  }

  /// A line longer than a part (a detail over a mebibyte, in letters of two bytes) is cut between
  /// characters and read back whole, whichever byte the cut falls on.
  @Test func aLineLongerThanAPartKeepsEveryCharacter() throws {
    let (_, a, b) = try Replica.pair(.postgres)
    for prefix in ["", "a"] {
      let issue = try a.issue("Long \(prefix)")
      let detail = prefix + String(repeating: "é", count: 700_000)
      try a.edit(issue.id) { $0.detail = detail }
      try a.sync()
      try b.sync()
      #expect(try b.stored(issue.id)?.detail == detail)
    }
  }
}

/// What a listener said, gathered as it says it.
final class EventLog: Sendable {
  private final class Gathered: Sendable {
    let events = Locked<[LiveEvent]>([])
  }
  private let gathered = Gathered()
  private let task: Task<Void, Never>

  init(_ stream: AsyncStream<LiveEvent>) {
    let gathered = self.gathered
    task = Task {
      for await event in stream { gathered.events.withLock { $0.append(event) } }
    }
  }

  var events: [LiveEvent] { gathered.events.withLock { $0 } }

  /// The events once there are `count` of them, or after ten seconds whatever there is.
  func wait(for count: Int) async -> [LiveEvent] {
    for _ in 0..<200 where events.count < count {
      try? await Task.sleep(for: .milliseconds(50))
    }
    return events
  }

  /// Ends the stream, and with it the listening thread.
  func stop() { task.cancel() }
}

/// The server stopped, as a crash would, during a push and during a pull: the next sync
/// completes and nothing is lost. On the second test server, which only these use, one at a time.
@Suite(.serialized) struct PostgresFaultTests {
  static let variable = "DOCKET_TEST_POSTGRES_FAULT"

  func server(_ command: String) throws {
    guard let control = ProcessInfo.processInfo.environment["DOCKET_TEST_POSTGRES_CTL"] else {
      throw PostgresServer.Missing()
    }
    // posix_spawn and waitpid: simple, and safe to call from inside a hook.
    let arguments = [strdup(control), strdup(command), nil]
    defer { for argument in arguments { free(argument) } }
    var child: pid_t = 0
    #expect(posix_spawn(&child, control, nil, nil, arguments, environ) == 0)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0, errno == EINTR {}
    #expect(status == 0, "server \(command)")
  }

  @Test func theServerStoppedDuringAPushLosesNothing() throws {
    let remote = try TestRemote(.postgres, variable: Self.variable)
    let a = try Replica("A", remote: remote)
    let b = try Replica("B", remote: remote)
    try a.sync()
    for index in 0..<10 { try a.issue("Issue \(index)") }
    var engine = a.engine()
    let stopping = PostgresRemote(address: remote.location, space: remote.space!, device: a.device)
    stopping.beforeCommit = { [self] _ in try server("stop") }
    engine.remote = stopping
    #expect(throws: RemoteError.self) { try engine.run() }
    try server("start")
    try a.issue("After the stop")
    #expect(try a.sync().pushed == 11)
    try b.sync()
    #expect(try b.dump() == a.dump())
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 11)
  }

  @Test func theServerStoppedDuringAPullLosesNothing() throws {
    let remote = try TestRemote(.postgres, variable: Self.variable)
    let a = try Replica("A", remote: remote)
    let b = try Replica("B", remote: remote)
    for index in 0..<12 { try a.issue("Issue \(index)") }
    var pusher = a.engine()
    pusher.batchSize = 3
    _ = try pusher.run()
    var engine = b.engine()
    engine.remote = HookedRemote(base: b.remote) { [self] in try? server("stop") }
    #expect(throws: RemoteError.self) { try engine.run() }
    // The package read before the stop was kept.
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 3)
    try server("start")
    #expect(try b.sync().pulled == 9)
    #expect(try b.dump() == a.dump())
  }

  /// The connection cut inside a push's transaction (its server process ended): the push, three
  /// packages, is rolled back whole, and the next one sends it all.
  @Test func aConnectionCutMidTransactionLosesNothing() throws {
    let remote = try TestRemote(.postgres, variable: Self.variable)
    let a = try Replica("A", remote: remote)
    let b = try Replica("B", remote: remote)
    for index in 0..<5 { try a.issue("Issue \(index)") }
    let admin = try PostgresServer.admin(Self.variable)
    var engine = a.engine()
    engine.batchSize = 2
    let cut = PostgresRemote(address: remote.location, space: remote.space!, device: a.device)
    cut.beforeCommit = { db in
      try admin.execute("SELECT pg_terminate_backend($1, 5000)", [String(db.serverProcess)])
    }
    engine.remote = cut
    #expect(throws: RemoteError.self) { try engine.run() }
    let schema = PostgresConnection.identifier("docket_" + remote.space!)
    #expect(try admin.execute("SELECT count(*) FROM \(schema).packages").rows == [["0"]])
    try b.sync()
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
    #expect(try a.sync().pushed == 5)
    try b.sync()
    #expect(try b.dump() == a.dump())
  }
}
