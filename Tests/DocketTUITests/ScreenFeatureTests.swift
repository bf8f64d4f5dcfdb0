import Composable
import ComposableTesting
import Database
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// Keys through the screen feature into Docket's features, against a real database.
@MainActor
@Suite struct ScreenFeatureTests {
  func makeStore() throws -> (
    TestStore<ScreenFeature.State, ScreenFeature.Action>, DatabaseQueue, TestClock
  ) {
    let queue = try DocketDatabase.inMemory { snapshotNow }
    try queue.write {
      try $0.insertIssue(Issue(id: UUID(), title: "Another issue", created: snapshotNow))
    }
    let clock = TestClock()
    let store = TestStore(
      initialState: ScreenFeature.State(app: AppFeature.State(), columns: 120, rows: 30),
      reducer: { ScreenFeature() },
      withDependencies: {
        $0.database = queue
        $0.date = .constant(snapshotNow)
        $0.uuid = .incrementing
        $0.clock = clock
        $0.locale = "en"
      })
    store.exhaustivity = .off
    return (store, queue, clock)
  }

  func press(_ store: TestStore<ScreenFeature.State, ScreenFeature.Action>, _ keys: Key...) async {
    for key in keys { await store.send(.key(key)) }
  }

  func type(_ store: TestStore<ScreenFeature.State, ScreenFeature.Action>, _ text: String) async {
    for character in text { await store.send(.key(.character(character))) }
  }

  /// Waits, as long as the test store's timeout at most, for the list's observation to bring a
  /// page whose issues satisfy `isExpected`: the database is read and written off the main actor.
  func receivePage(
    _ store: TestStore<ScreenFeature.State, ScreenFeature.Action>,
    where isExpected: @escaping ([Issue]) -> Bool
  ) async {
    await store.receive(where: { action in
      guard case .app(.list(.loaded(let page))) = action else { return false }
      return isExpected(page.issues)
    })
  }

  @Test func createSaveSearchAndComplete() async throws {
    let (store, queue, clock) = try makeStore()
    await store.send(.app(.task))
    await store.skipReceivedActions()
    await press(store, .character("n"))
    await store.skipReceivedActions()
    #expect(store.state.app.detail?.isEditing == true)
    #expect(store.state.focus == .detail)
    await type(store, "Tmux test issue")
    await press(store, .enter, .tab, .tab, .tab)
    #expect(store.state.editField == .tags)
    await press(store, .character("t"))
    await type(store, "e2e")
    await press(store, .enter)
    await store.skipReceivedActions()
    #expect(store.state.app.detail?.draft?.tags.map(\.name) == ["e2e"])
    await press(store, .control("s"))
    await store.skipReceivedActions()
    #expect(store.state.announcement == "Issue saved: Tmux test issue")
    await press(store, .character("/"))
    await type(store, "tag:e2e")
    await press(store, .enter)
    await clock.advance(by: .milliseconds(300))
    await receivePage(store) { $0.map(\.title) == ["Tmux test issue"] }
    #expect(store.state.app.list.issues.map(\.title) == ["Tmux test issue"])
    await press(store, .character("j"), .character("x"))
    await store.skipReceivedActions()
    #expect(store.state.announcement == "Issue closed: Tmux test issue")
    // Written in the background, in the database's lane.
    await store.finishEffects(in: WriteLane.database)
    await store.skipInFlightEffects()
    let completed = try queue.read {
      try $0.fetchIssues(IssueRequest(filter: .completed, now: snapshotNow))
    }
    #expect(completed.map(\.title) == ["Tmux test issue"])
  }

  /// A new issue is titled "New issue", selected: saved as it is, it keeps that title; its
  /// title erased, the form stays open and says a title is needed.
  @Test func aNewIssueIsNeverUntitled() async throws {
    let (store, queue, _) = try makeStore()
    await store.send(.app(.task))
    await store.skipReceivedActions()
    await press(store, .character("n"))
    await store.skipReceivedActions()
    #expect(store.state.app.detail?.draft?.title == "New issue")
    await press(store, .enter, .backspace, .control("s"))
    await store.skipReceivedActions()
    #expect(store.state.app.detail?.isEditing == true)
    #expect(store.state.app.detail?.errorMessage == "An issue needs a title.")
    await press(store, .escape)
    await store.skipReceivedActions()
    await press(store, .character("n"))
    await store.skipReceivedActions()
    await press(store, .control("s"))
    await store.finishEffects(in: WriteLane.database)
    await store.skipInFlightEffects()
    let titles = try queue.read {
      try $0.fetchIssues(IssueRequest(filter: .open, now: snapshotNow)).map(\.title)
    }
    #expect(titles.sorted() == ["Another issue", "New issue"])
  }
}
