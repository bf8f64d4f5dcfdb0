import ComposableTesting
import Database
import DocketCore
import DocketSync
import Foundation
import Testing

@testable import DocketFeatures

/// The conflicts view of the terminal app: live, and "use this value" or "dismiss" for the
/// selected conflict.
@MainActor
@Suite struct ConflictsFeatureTests {
  let fx: Fixture
  let issue: Issue

  /// A title set here after one a phone set without seeing it: the phone's lost.
  init() throws {
    fx = try Fixture(onDisk: true)
    issue = try fx.issue("Task")
    let phone = "0f000000-0000-4000-8000-000000000001"
    let before = HybridClock.stamp(fx.now.addingTimeInterval(-30))
    let issue = self.issue
    let modified = fx.now.timeIntervalSince1970 - 30
    try fx.queue.write { db in
      var renamed = issue
      renamed.title = "Kept here"
      _ = try db.saveIssue(renamed)
      _ = try db.applyChanges(
        [
          Change(
            stamp: Stamp(hlc: before, device: phone), entity: .issue, row: issue.id.lowercasedText,
            field: "title", old: .text("Task"), new: .text("From the phone"), modified: modified)
        ], deviceNames: [phone: "Phone"])
    }
  }

  func listed() throws -> [Conflict] { try fx.queue.read { try $0.conflicts() } }

  @Test func theRootOpensItLiveAndClosesIt() async throws {
    let store = TestStore(
      initialState: AppFeature.State(), reducer: { AppFeature() },
      withDependencies: fx.dependencies())
    await store.send(.conflictsRequested(issue: nil)) {
      $0.conflicts = ConflictsFeature.State()
    }
    await store.receive(.conflicts(.task))
    let one = try listed()
    #expect(one.map(\.lostBy) == ["Phone"])
    await store.receive(.conflicts(.loaded(one))) {
      $0.conflicts?.conflicts = one
      $0.conflicts?.loaded = true
    }
    // Dealt with elsewhere (another process, a sync), it leaves the list at once.
    let other = try fx.otherProcess()
    _ = try other.dismissConflict(one[0].id)
    fx.queue.checkForExternalChanges()
    await store.receive(.conflicts(.loaded([]))) { $0.conflicts?.conflicts = [] }
    await store.send(.conflicts(.closeTapped))
    await store.receive(.conflicts(.delegate(.close))) { $0.conflicts = nil }
  }

  @Test func theSelectedLostValueIsUsed() async throws {
    var state = ConflictsFeature.State()
    state.conflicts = try listed()
    state.loaded = true
    let conflict = state.conflicts[0]
    let store = TestStore(
      initialState: state, reducer: { ConflictsFeature() }, withDependencies: fx.dependencies())
    await store.send(.useTapped)
    await store.receive(.finished(.used(conflict)))
    await store.receive(.delegate(.finished(.used(conflict))))
    #expect(try fx.stored(issue.id)?.title == "From the phone")
  }

  @Test func aDismissKeepsTheValueAndAConflictGoneMeanwhileSaysSo() async throws {
    var state = ConflictsFeature.State(issue: issue.id)
    state.conflicts = try listed()
    state.loaded = true
    let conflict = state.conflicts[0]
    let store = TestStore(
      initialState: state, reducer: { ConflictsFeature() }, withDependencies: fx.dependencies())
    await store.send(.selectionMoved(by: 3))
    await store.send(.dismissTapped)
    await store.receive(.finished(.dismissed(conflict)))
    await store.receive(.delegate(.finished(.dismissed(conflict))))
    #expect(try fx.stored(issue.id)?.title == "Kept here")
    // Asked again before the list heard: it was dealt with.
    await store.send(.useTapped)
    await store.receive(.finished(.notFound))
    await store.receive(.delegate(.finished(.notFound)))
    #expect(try fx.stored(issue.id)?.title == "Kept here")
  }
}
