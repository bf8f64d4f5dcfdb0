import Composable
import ComposableTesting
import DocketCore
import Foundation
import Testing

@testable import DocketFeatures

/// The edit form against changes made elsewhere, and writes in the order they were asked for.
@MainActor
@Suite struct WriteOrderTests {
  let fx: Fixture
  let bug: Tag
  let ui: Tag
  let issue: Issue

  init() throws {
    fx = try Fixture(onDisk: true)
    bug = try fx.tag("Bug")
    ui = try fx.tag("UI")
    issue = try fx.issue("Fix login", priority: .medium, tags: [bug])
  }

  func makeStore() -> TestStore<DetailFeature.State, DetailFeature.Action> {
    TestStore(
      initialState: DetailFeature.State(issue: issue), reducer: { DetailFeature() },
      withDependencies: fx.dependencies())
  }

  /// The detail observing its issue, with the edit form open.
  func openTheForm(_ store: TestStore<DetailFeature.State, DetailFeature.Action>) async
    -> TestStoreTask
  {
    let task = await store.send(.task)
    await store.receive(.loaded(issue, [bug, ui])) { $0.allTags = [self.bug, self.ui] }
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    return task
  }

  /// While the form is open, another process closes the issue and tags it; the form changes
  /// the title. After saving, the issue holds all three.
  @Test func savingTheFormKeepsWhatAnotherProcessChangedMeanwhile() async throws {
    let store = makeStore()
    let task = await openTheForm(store)
    fx.time.advance(by: 30)
    // One commit, so that the poller cannot deliver half of it.
    let other = try fx.otherProcess()
    try other.transaction {
      try other.execute("UPDATE issues SET completed = 1 WHERE id = ?", [issue.id])
      try other.execute(
        """
        INSERT INTO issue_tags (issue_seq, tag_seq)
        SELECT i.seq, t.seq FROM issues i, tags t WHERE i.id = ? AND t.id = ?
        """, [issue.id, ui.id])
    }
    fx.queue.checkForExternalChanges()
    let elsewhere = try #require(try fx.stored(issue.id))
    #expect(elsewhere.completed && elsewhere.tags == [bug, ui])
    await store.receive(.loaded(elsewhere, [bug, ui])) { $0.issue = elsewhere }

    await store.send(.titleChanged("Fix login on tablets")) {
      $0.draft?.title = "Fix login on tablets"
    }
    var saved = elsewhere
    saved.title = "Fix login on tablets"
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.issue = saved
    }
    await store.receive(.delegate(.saved(saved)))
    await store.receive(.loaded(saved, [bug, ui]))
    let stored = try #require(try fx.stored(issue.id))
    #expect(stored.title == "Fix login on tablets")
    #expect(stored.completed)
    #expect(stored.tags == [bug, ui])
    await task.cancel()
  }

  /// The same field changed in both places: the form's value wins, and the feature says which
  /// field that was.
  @Test func aFieldChangedInBothPlacesIsNamed() async throws {
    let store = makeStore()
    let task = await openTheForm(store)
    try fx.otherProcess().execute("UPDATE issues SET title = 'Theirs' WHERE id = ?", [issue.id])
    fx.queue.checkForExternalChanges()
    let theirs = try #require(try fx.stored(issue.id))
    await store.receive(.loaded(theirs, [bug, ui])) { $0.issue = theirs }
    await store.send(.titleChanged("Mine")) { $0.draft?.title = "Mine" }
    var mine = theirs
    mine.title = "Mine"
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.issue = mine
    }
    await store.receive(.delegate(.saved(mine)))
    // The observation's reload and the write's report race each other: both arrive, in either
    // order, and neither changes the state further.
    var arrived: [DetailFeature.Action] = []
    for _ in 0..<2 {
      await store.receive(where: { action in
        guard
          action == .loaded(mine, [bug, ui]) || action == .overwroteChangesMadeElsewhere([.title])
        else { return false }
        arrived.append(action)
        return true
      })
    }
    #expect(Set(arrived.map { "\($0)" }).count == 2)
    #expect(try fx.stored(issue.id)?.title == "Mine")
    await task.cancel()
  }

  /// On the executor the app uses, `x` pressed twice leaves the issue as it was, and once
  /// completes it, every time.
  @Test func oppositeWritesLandInOrderOnTheAppsExecutor() async throws {
    for round in 0..<40 {
      let stored = try #require(try fx.stored(issue.id))
      let store = Store(initialState: DetailFeature.State(issue: stored), reducer: DetailFeature())
      {
        fx.dependencies()(&$0)
      }
      let before = stored.completed
      let presses = round % 2 == 0 ? 2 : 3
      for _ in 0..<presses { store.send(.toggleCompletedTapped) }
      await store.waitForEffects(in: WriteLane.database)
      let after = try #require(try fx.stored(issue.id)).completed
      #expect(after == (presses % 2 == 0 ? before : !before), "round \(round)")
      #expect(store.state.issue.completed == after)
    }
  }
}
