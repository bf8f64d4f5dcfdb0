import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// Recently deleted by keys: R opens it, the arrows choose, r restores (and the status line
/// says so), Esc closes; while it shows, the panes' keys do nothing.
@MainActor
@Suite struct DeletedOverlayTests {
  @Test func keysOpenChooseRestoreAndClose() async throws {
    let fixture = try ScreenFixture()
    let state = try fixture.deletedState(
      columns: 100, rows: 30, select: "Write the sync guide")
    let listed = try #require(state.app.deleted?.issues)
    var start = state
    start.app.deleted = nil
    let store = screenStore(start, fixture: fixture, clock: TestClock())
    store.exhaustivity = .off
    await store.send(.key(.character("R")))
    await store.receive(.app(.deletedRequested)) {
      $0.app.deleted = DeletedFeature.State()
      $0.announcement =
        "Recently deleted. r restores the selected issue, D deletes it for good, Esc closes."
    }
    await store.receive(.app(.deleted(.loaded(listed)))) {
      $0.app.deleted?.issues = listed
      $0.app.deleted?.loaded = true
    }
    // The list's keys are the overlay's now: `d` asks about no delete, ↓ moves in it.
    #expect(store.state.app.detail != nil)
    await store.send(.key(.character("d")))
    #expect(store.state.app.detail?.confirmingDelete == false)
    await store.send(.key(.down))
    await store.receive(.app(.deleted(.selectionMoved(by: 1)))) { $0.app.deleted?.selected = 1 }
    let chosen = listed[1]
    await store.send(.key(.character("r")))
    await store.receive(.app(.deleted(.delegate(.restored(title: chosen.title))))) {
      $0.announcement = "Issue restored: \(chosen.title)"
    }
    #expect(try fixture.queue.read { try $0.fetchIssue(id: chosen.id) }?.title == chosen.title)
    // D asks; any key but yes keeps it; y deletes the selected one for good.
    let other = try #require(store.state.app.deleted?.selectedIssue)
    await store.send(.key(.character("D")))
    await store.receive(.app(.deleted(.purgeTapped))) {
      $0.app.deleted?.confirmingPurge = other
      $0.announcement =
        "Delete “\(other.title)” for good? y or Enter deletes it, any other key keeps it."
    }
    await store.send(.key(.escape))
    await store.receive(.app(.deleted(.purgeCancelled))) {
      $0.app.deleted?.confirmingPurge = nil
      $0.announcement = "Kept in Recently deleted."
    }
    await store.send(.key(.character("D")))
    await store.receive(.app(.deleted(.purgeTapped))) { $0.app.deleted?.confirmingPurge = other }
    await store.send(.key(.character("y")))
    await store.receive(.app(.deleted(.delegate(.purged(title: other.title, done: true))))) {
      $0.announcement = "“\(other.title)” is deleted for good."
    }
    #expect(
      try fixture.queue.read { try $0.recentlyDeletedIssues() }.allSatisfy { $0.id != other.id })
    await store.send(.key(.escape))
    await store.receive(.app(.deleted(.delegate(.close)))) { $0.app.deleted = nil }
    await store.skipInFlightEffects()
  }
}
