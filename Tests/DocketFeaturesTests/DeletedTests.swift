import ComposableTesting
import DocketCore
import DocketSync
import Foundation
import Testing

@testable import DocketFeatures

/// Recently deleted in the terminal app: live, and a restore of the selected issue.
@MainActor
@Suite struct DeletedTests {
  let fx: Fixture
  let crash: Issue
  let typo: Issue

  init() throws {
    fx = try Fixture(onDisk: true)
    crash = try fx.issue("Crash on start", priority: .high)
    typo = try fx.issue("Typo in help")
    try fx.queue.write { _ = try $0.deleteIssues([self.crash.id]) }
    fx.time.advance(by: 60)
    try fx.queue.write { _ = try $0.deleteIssues([self.typo.id]) }
  }

  func listed() throws -> [DeletedIssue] { try fx.queue.read { try $0.recentlyDeletedIssues() } }

  @Test func theRootOpensItLiveAndClosesIt() async throws {
    let store = TestStore(
      initialState: AppFeature.State(), reducer: { AppFeature() },
      withDependencies: fx.dependencies())
    await store.send(.deletedRequested) { $0.deleted = DeletedFeature.State() }
    await store.receive(.deleted(.task))
    let both = try listed()
    #expect(both.map(\.title) == ["Typo in help", "Crash on start"])
    await store.receive(.deleted(.loaded(both))) {
      $0.deleted?.issues = both
      $0.deleted?.loaded = true
    }
    // Asked again while open: nothing more.
    await store.send(.deletedRequested)
    // A restore made elsewhere (another process, a sync) leaves the list at once.
    fx.time.advance(by: 60)
    let other = try fx.otherProcess()
    _ = try other.restoreDeletedIssue(id: typo.id)
    fx.queue.checkForExternalChanges()
    let one = try listed()
    await store.receive(.deleted(.loaded(one))) { $0.deleted?.issues = one }
    await store.send(.deleted(.closeTapped))
    await store.receive(.deleted(.delegate(.close))) { $0.deleted = nil }
  }

  @Test func theSelectedIssueIsRestoredAndSaidSo() async throws {
    var state = DeletedFeature.State()
    state.issues = try listed()
    state.loaded = true
    let store = TestStore(
      initialState: state, reducer: { DeletedFeature() }, withDependencies: fx.dependencies())
    await store.send(.selectionMoved(by: -1))
    await store.send(.selectionMoved(by: 5)) { $0.selected = 1 }
    await store.send(.restoreTapped)
    await store.receive(.restored(title: "Crash on start", issue: crash.id))
    await store.receive(.delegate(.restored(title: "Crash on start")))
    #expect(try fx.stored(crash.id)?.priority == .high)
    // Restored meanwhile (the list not yet told): it cannot come back twice, and says so.
    await store.send(.restoreTapped)
    await store.receive(.restored(title: "Crash on start", issue: nil))
    await store.receive(.delegate(.notRestored(title: "Crash on start")))
  }

  @Test func deleteNowAsksAndThenEndsTheIssueForGood() async throws {
    var state = DeletedFeature.State()
    state.issues = try listed()
    state.loaded = true
    let store = TestStore(
      initialState: state, reducer: { DeletedFeature() }, withDependencies: fx.dependencies())
    let typo = try #require(state.issues.first)
    await store.send(.purgeTapped) { $0.confirmingPurge = typo }
    await store.send(.purgeCancelled) { $0.confirmingPurge = nil }
    #expect(try listed().count == 2)
    await store.send(.purgeTapped) { $0.confirmingPurge = typo }
    // The list moves meanwhile: the issue asked about is the one that ends.
    await store.send(.selectionMoved(by: 1)) { $0.selected = 1 }
    await store.send(.purgeConfirmed) { $0.confirmingPurge = nil }
    await store.receive(.purged(title: "Typo in help", done: true))
    await store.receive(.delegate(.purged(title: "Typo in help", done: true)))
    #expect(try listed().map(\.title) == ["Crash on start"])
    #expect(try fx.queue.write { try $0.restoreDeletedIssue(id: self.typo.id) } == nil)
    #expect(try fx.queue.read { try $0.recentlyDeletedIssues() }.map(\.title) == ["Crash on start"])
    // Restored elsewhere while it asked, the issue lives on and the words say so.
    await store.send(.selectionMoved(by: -1)) { $0.selected = 0 }
    let crash = try #require(store.state.issues.last)
    await store.send(.selectionMoved(by: 1)) { $0.selected = 1 }
    await store.send(.purgeTapped) { $0.confirmingPurge = crash }
    _ = try fx.queue.write { try $0.restoreDeletedIssue(id: crash.id) }
    await store.send(.purgeConfirmed) { $0.confirmingPurge = nil }
    await store.receive(.purged(title: "Crash on start", done: false))
    await store.receive(.delegate(.purged(title: "Crash on start", done: false)))
    #expect(try fx.stored(crash.id) != nil)
  }

  @Test func theSelectionStaysOnItsIssueAsTheListChanges() async throws {
    var state = DeletedFeature.State()
    state.issues = try listed()
    state.loaded = true
    state.selected = 1
    let store = TestStore(
      initialState: state, reducer: { DeletedFeature() }, withDependencies: fx.dependencies())
    // A newer delete comes in at the top: the selection follows the crash down.
    let newer = try fx.issue("Newest")
    fx.time.advance(by: 60)
    try fx.queue.write { _ = try $0.deleteIssues([newer.id]) }
    let three = try listed()
    await store.send(.loaded(three)) {
      $0.issues = three
      $0.selected = 2
    }
    // The crash restored elsewhere: the selection stays in the list, on the last.
    _ = try fx.queue.write { try $0.restoreDeletedIssue(id: self.crash.id) }
    let two = try listed()
    await store.send(.loaded(two)) {
      $0.issues = two
      $0.selected = 1
    }
    await store.send(.loaded([])) {
      $0.issues = []
      $0.selected = 0
    }
    await store.send(.restoreTapped)
  }
}
