import Composable
import ComposableTesting
import DocketCore
import DocketSync
import Foundation
import Locking
import Testing

@testable import DocketFeatures

/// A sync client for tests: counts its runs, and each run answers what the test queued (a
/// report, or a failure), waiting for the test to let it finish when asked to.
final class FakeSync: Sendable {
  private let state = Locked<(runs: Int, answers: [Result<SyncReport, SyncFailure>])>((0, []))
  /// Whether runs wait, and the run that waits: one lock, so a release never misses a run.
  private let gate = Locked<(held: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

  var runs: Int { state.withLock { $0.runs } }

  func answer(_ result: Result<SyncReport, SyncFailure>) {
    state.withLock { $0.answers.append(result) }
  }

  /// Runs wait until `release()`.
  func hold() { gate.withLock { $0.held = true } }

  func release() {
    let waiting = gate.withLock { gate -> CheckedContinuation<Void, Never>? in
      gate.held = false
      defer { gate.waiting = nil }
      return gate.waiting
    }
    waiting?.resume()
  }

  /// What the fake live remote says: the test yields, the feature hears.
  let live = AsyncStream.makeStream(of: LiveEvent.self)

  /// The passphrases tried, and the one that opens the remote.
  let tried = Locked<[String]>([])
  let opening = "the right one"

  var client: SyncClient {
    SyncClient(
      run: run, listen: { [live] _ in live.stream },
      unlock: { [tried, opening] passphrase in
        tried.withLock { $0.append(passphrase) }
        guard passphrase == opening else {
          throw SyncFailure("The passphrase does not open this remote.")
        }
      })
  }

  private var run: @Sendable () async throws -> SyncReport {
    { [self] in
      let answer = state.withLock { state -> Result<SyncReport, SyncFailure> in
        state.runs += 1
        return state.answers.isEmpty
          ? .failure(SyncFailure("no answer queued")) : state.answers.removeFirst()
      }
      await withCheckedContinuation { continuation in
        let waits = gate.withLock { gate -> Bool in
          if gate.held { gate.waiting = continuation }
          return gate.held
        }
        if !waits { continuation.resume() }
      }
      return try answer.get()
    }
  }
}

@MainActor
@Suite struct SyncFeatureTests {
  let fx: Fixture
  let clock = TestClock()
  let fake = FakeSync()

  init() throws { fx = try Fixture(onDisk: true) }

  func makeStore() -> TestStore<SyncFeature.State, SyncFeature.Action> {
    let fake = self.fake
    let base = fx.dependencies(clock: clock)
    return TestStore(
      initialState: SyncFeature.State(), reducer: { SyncFeature() },
      withDependencies: {
        base(&$0)
        $0.sync = fake.client
      })
  }

  static func report(pushed: Int = 0, pulled: Int = 0) -> SyncReport {
    var report = SyncReport()
    report.pushed = pushed
    report.pulled = pulled
    return report
  }

  var latest: Int64 { (try? fx.queue.read { try $0.latestLocalChangeSeq() }) ?? -1 }

  @Test func withoutARemoteNothingRunsBySelfAndSSaysHowToSetOne() async throws {
    let store = makeStore()
    await store.send(.task)
    await store.receive(.loaded(SyncSettings())) { $0.hasLoaded = true }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    // An edit, a minute: nothing, without a remote.
    try fx.issue("Edited")
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await clock.advance(by: .seconds(60))
    await store.receive(.timerFired)
    #expect(fake.runs == 0)
    await store.send(.syncTapped) { $0.isSyncing = true }
    await store.receive(.failed("No remote is set. Set one with: docket remote set PATH")) {
      $0.isSyncing = false
      $0.lastError = "No remote is set. Set one with: docket remote set PATH"
    }
    #expect(fake.runs == 0)
    await store.send(.stop)
  }

  @Test func anEncryptedRemoteAsksForItsPassphraseAndSyncsOnceItOpens() async throws {
    try fx.queue.write { try $0.setRemote("/tmp/docket-remote-for-tests") }
    let store = makeStore()
    let message = "The remote is encrypted, and this device does not have its passphrase yet."
    fake.answer(.failure(SyncFailure(message, needsPassphrase: true)))
    await store.send(.task)
    await store.receive(.loaded(SyncSettings(remote: "/tmp/docket-remote-for-tests"))) {
      $0.remote = "/tmp/docket-remote-for-tests"
      $0.isSyncing = true
      $0.hasLoaded = true
    }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await store.receive(.passphraseNeeded(message)) {
      $0.isSyncing = false
      $0.lastError = message
      $0.needsPassphrase = true
      $0.isEncrypted = true
    }
    // A wrong one: said, and asked again.
    await store.send(.passphraseSubmitted("wrong")) { $0.isUnlocking = true }
    await store.receive(.unlockFailed("The passphrase does not open this remote.")) {
      $0.isUnlocking = false
      $0.passphraseError = "The passphrase does not open this remote."
    }
    #expect(fake.runs == 1)
    // The right one: the sync runs at once.
    fake.answer(.success(Self.report(pulled: 3)))
    await store.send(.passphraseSubmitted("the right one")) {
      $0.isUnlocking = true
      $0.passphraseError = nil
    }
    await store.receive(.unlocked) {
      $0.isUnlocking = false
      $0.needsPassphrase = false
      $0.lastError = nil
      $0.isSyncing = true
    }
    await store.receive(.finished(Self.report(pulled: 3), at: fx.now)) {
      $0.isSyncing = false
      $0.lastSync = self.fx.now
      $0.lastReport = Self.report(pulled: 3)
    }
    #expect(fake.tried.withLock { $0 } == ["wrong", "the right one"])
    #expect(fake.runs == 2)
    await store.send(.stop)
  }

  /// Waiting for the passphrase, nothing syncs by itself; given elsewhere (the error cleared
  /// from the database), the wait ends and a sync runs.
  @Test func aPassphraseGivenElsewhereEndsTheWait() async throws {
    let remote = "/tmp/docket-remote-for-tests"
    try fx.queue.write { try $0.setRemote(remote) }
    let store = makeStore()
    let message = "The remote is encrypted, and this device does not have its passphrase yet."
    fake.answer(.failure(SyncFailure(message, needsPassphrase: true)))
    await store.send(.task)
    await store.receive(.loaded(SyncSettings(remote: remote))) {
      $0.remote = remote
      $0.isSyncing = true
      $0.hasLoaded = true
    }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await store.receive(.passphraseNeeded(message)) {
      $0.isSyncing = false
      $0.lastError = message
      $0.needsPassphrase = true
      $0.isEncrypted = true
    }
    // As the real sync does, the failure is recorded.
    try fx.queue.write { try $0.recordSyncOutcome(at: self.fx.now, error: message) }
    // (The fake remote is not noted as encrypted in the database, as a real one is.)
    await store.receive(.loaded(SyncSettings(remote: remote, lastError: message))) {
      $0.isEncrypted = false
    }
    // A minute and an edit: no sync while waiting.
    await clock.advance(by: .seconds(60))
    await store.receive(.timerFired)
    try fx.issue("Edited while waiting")
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await clock.advance(by: .seconds(5))
    #expect(fake.runs == 1)
    // Given in another shell: the error is cleared, and the app syncs.
    fake.answer(.success(Self.report(pulled: 2)))
    try fx.queue.write { try $0.clearLastSyncError() }
    await store.receive(.loaded(SyncSettings(remote: remote))) {
      $0.lastError = nil
      $0.needsPassphrase = false
      $0.isSyncing = true
    }
    await store.receive(.finished(Self.report(pulled: 2), at: fx.now)) {
      $0.isSyncing = false
      $0.lastSync = self.fx.now
      $0.lastReport = Self.report(pulled: 2)
    }
    #expect(fake.runs == 2)
    await store.send(.stop)
  }

  @Test func aRemoteSyncsOnOpeningAfterEditsAndEveryMinute() async throws {
    try fx.queue.write { try $0.setRemote("/tmp/docket-remote-for-tests") }
    let store = makeStore()
    fake.answer(.success(Self.report(pushed: 2)))
    await store.send(.task)
    await store.receive(.loaded(SyncSettings(remote: "/tmp/docket-remote-for-tests"))) {
      $0.remote = "/tmp/docket-remote-for-tests"
      $0.isSyncing = true
      $0.hasLoaded = true
    }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await store.receive(.finished(Self.report(pushed: 2), at: fx.now)) {
      $0.isSyncing = false
      $0.lastSync = self.fx.now
      $0.lastReport = Self.report(pushed: 2)
    }
    #expect(fake.runs == 1)

    // An edit: a sync two seconds later, once the edits stop.
    try fx.issue("First edit")
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await clock.advance(by: .seconds(1))
    try fx.issue("Second edit")
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await clock.advance(by: .seconds(1))
    #expect(fake.runs == 1)
    fake.answer(.success(Self.report(pushed: 2)))
    await clock.advance(by: .seconds(1))
    await store.receive(.syncTapped) { $0.isSyncing = true }
    await store.receive(.finished(Self.report(pushed: 2), at: fx.now)) { $0.isSyncing = false }
    #expect(fake.runs == 2)

    // Every minute (counted from the start), a failure shown and then cleared.
    fake.answer(.failure(SyncFailure("The remote folder /x is not there")))
    await clock.advance(by: .seconds(57))
    await store.receive(.timerFired) { $0.isSyncing = true }
    await store.receive(.failed("The remote folder /x is not there")) {
      $0.isSyncing = false
      $0.lastError = "The remote folder /x is not there"
    }
    fake.answer(.success(Self.report(pulled: 3)))
    await clock.advance(by: .seconds(60))
    await store.receive(.timerFired) { $0.isSyncing = true }
    await store.receive(.finished(Self.report(pulled: 3), at: fx.now)) {
      $0.isSyncing = false
      $0.lastError = nil
      $0.lastReport = Self.report(pulled: 3)
    }
    #expect(fake.runs == 4)
    await store.send(.stop)
  }

  /// A PostgreSQL remote: synced when another device pushes and when the server is back, not
  /// every minute while it listens; a server gone is said; a refused push is an error shown.
  @Test func aLiveRemoteSyncsWhenToldAndSaysWhenTheServerIsGone() async throws {
    let address = "postgres://db.example.org/tracker"
    try fx.queue.write { try $0.setRemote(address, space: "acme") }
    let store = makeStore()
    fake.answer(.success(Self.report()))
    await store.send(.task)
    await store.receive(.loaded(SyncSettings(remote: address, space: "acme"))) {
      $0.remote = address
      $0.space = "acme"
      $0.isSyncing = true
      $0.hasLoaded = true
    }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    await store.receive(.finished(Self.report(), at: fx.now)) {
      $0.isSyncing = false
      $0.lastSync = self.fx.now
      $0.lastReport = Self.report()
    }
    // Listening: what was pushed before is fetched once.
    fake.answer(.success(Self.report()))
    fake.live.continuation.yield(.connected)
    await store.receive(.live(.connected)) {
      $0.isLive = true
      $0.isSyncing = true
    }
    await store.receive(.finished(Self.report(), at: fx.now)) { $0.isSyncing = false }
    // A minute: the server is not asked.
    await clock.advance(by: .seconds(60))
    await store.receive(.timerFired)
    #expect(fake.runs == 2)
    // Another device pushed.
    fake.answer(.success(Self.report(pulled: 4)))
    fake.live.continuation.yield(.changed)
    await store.receive(.live(.changed)) { $0.isSyncing = true }
    await store.receive(.finished(Self.report(pulled: 4), at: fx.now)) {
      $0.isSyncing = false
      $0.lastReport = Self.report(pulled: 4)
    }
    // The server goes: said, and the minute's sync runs again meanwhile.
    fake.live.continuation.yield(.lost("Connection refused", retry: .seconds(2)))
    await store.receive(.live(.lost("Connection refused", retry: .seconds(2)))) {
      $0.isLive = false
      $0.liveProblem = "Connection refused"
    }
    var refused = Self.report(pulled: 1)
    refused.pushRefused = "permission denied for table packages"
    fake.answer(.success(refused))
    await clock.advance(by: .seconds(60))
    await store.receive(.timerFired) { $0.isSyncing = true }
    await store.receive(.finished(refused, at: fx.now)) {
      $0.isSyncing = false
      $0.lastReport = refused
      $0.lastError =
        "Pushing was refused (permission denied for table packages); this device's changes stay queued for a later sync."
    }
    // Back: the problem is gone, and what was missed is fetched.
    fake.answer(.success(Self.report()))
    fake.live.continuation.yield(.connected)
    await store.receive(.live(.connected)) {
      $0.isLive = true
      $0.liveProblem = nil
      $0.isSyncing = true
    }
    await store.receive(.finished(Self.report(), at: fx.now)) {
      $0.isSyncing = false
      $0.lastReport = Self.report()
      $0.lastError = nil
    }
    #expect(fake.runs == 5)
    // A password refused: said as a failure, not as an outage.
    fake.live.continuation.yield(.failed("password authentication failed for user \"ana\""))
    await store.receive(.live(.failed("password authentication failed for user \"ana\""))) {
      $0.isLive = false
      $0.lastError = "password authentication failed for user \"ana\""
    }
    await store.send(.stop)
  }

  @Test func aSyncAskedForWhileOneRunsRunsOnceAfterIt() async throws {
    try fx.queue.write { try $0.setRemote("/tmp/docket-remote-for-tests") }
    let store = makeStore()
    fake.hold()
    fake.answer(.success(Self.report(pushed: 1)))
    await store.send(.task)
    await store.receive(.loaded(SyncSettings(remote: "/tmp/docket-remote-for-tests"))) {
      $0.remote = "/tmp/docket-remote-for-tests"
      $0.isSyncing = true
      $0.hasLoaded = true
    }
    await store.receive(.changesRecorded(latest)) { $0.latestChange = self.latest }
    // Asked twice meanwhile: one more run, not two.
    await store.send(.syncTapped) { $0.isQueued = true }
    await store.send(.syncTapped)
    fake.answer(.success(Self.report(pulled: 1)))
    fake.release()
    await store.receive(.finished(Self.report(pushed: 1), at: fx.now)) {
      $0.isSyncing = true
      $0.isQueued = false
      $0.lastSync = self.fx.now
      $0.lastReport = Self.report(pushed: 1)
    }
    await store.receive(.finished(Self.report(pulled: 1), at: fx.now)) {
      $0.isSyncing = false
      $0.lastReport = Self.report(pulled: 1)
    }
    #expect(fake.runs == 2)
    await store.send(.stop)
  }
}
