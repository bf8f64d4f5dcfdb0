import Composable
import ComposableTesting
import DocketCore
import DocketSync
import Foundation
import Synchronization
import Testing

@testable import DocketFeatures

/// A sync client for tests: counts its runs, and each run answers what the test queued (a
/// report, or a failure), waiting for the test to let it finish when asked to.
final class FakeSync: Sendable {
  private let state = Mutex<(runs: Int, answers: [Result<SyncReport, SyncFailure>])>((0, []))
  /// Whether runs wait, and the run that waits: one lock, so a release never misses a run.
  private let gate = Mutex<(held: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

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

  var client: SyncClient {
    SyncClient { [self] in
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
