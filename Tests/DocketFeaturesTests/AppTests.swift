import Composable
import ComposableTesting
import Foundation
import Testing

@testable import DocketCore
@testable import DocketFeatures

@MainActor
@Suite struct AppTests {
  let fx: Fixture
  let bug: Tag
  let ui: Tag
  let crash: Issue
  let typo: Issue
  let shipped: Issue

  init() throws {
    fx = try Fixture(onDisk: true)
    bug = try fx.tag("Bug")
    ui = try fx.tag("UI")
    crash = try fx.issue("Crash on start", priority: .high, daysAgo: 1, tags: [bug])
    typo = try fx.issue("Typo in help", priority: .low, daysAgo: 20)
    shipped = try fx.issue("Ship 1.0", priority: .medium, completed: true, daysAgo: 3, tags: [ui])
  }

  /// The app as it looks once the panes have loaded the given filter's issues.
  func loaded(_ filter: IssueFilter = .open, issues: [Issue], showCompleted: Bool = true)
    -> AppFeature.State
  {
    var state = AppFeature.State(
      settings: DeviceSettings(showCompleted: showCompleted, lastFilter: filter))
    state.sidebar.tags = [
      TagSummary(tag: bug, open: 1, total: 1), TagSummary(tag: ui, open: 0, total: 1),
    ]
    state.list.issues = issues
    state.list.total = issues.count
    state.list.hasLoaded = true
    state.list.tags = [bug, ui]
    return state
  }

  func makeStore(_ state: AppFeature.State) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state, reducer: { AppFeature() }, withDependencies: fx.dependencies())
  }

  /// Selects an issue in the list; the detail shows it and starts observing it.
  func select(_ issue: Issue, in store: TestStore<AppFeature.State, AppFeature.Action>) async {
    await store.send(.list(.issueTapped(issue.id))) { $0.list.selection = issue.id }
    await store.receive(.list(.delegate(.selectionChanged(issue.id)))) {
      $0.detail = DetailFeature.State(issue: issue, allTags: [self.bug, self.ui])
    }
    await store.receive(.detail(.task))
    await store.receive(.detail(.loaded(issue, [bug, ui])))
  }

  @Test func choosingTheSameIssueAgainChangesNothing() async {
    let store = makeStore(loaded(issues: [crash, typo]))
    await select(crash, in: store)
    await store.send(.list(.issueTapped(crash.id)))
    await store.send(.stop)
    await store.finish()
  }

  @Test func choosingAnotherIssueReplacesTheDetail() async {
    let store = makeStore(loaded(issues: [crash, typo]))
    await select(crash, in: store)
    await select(typo, in: store)
    await store.send(.stop)
    await store.finish()
  }

  /// As in the seed: search `tag:UI ship`, choose Completed, and the search is gone; the list
  /// shows the filter whole.
  @Test func aNewFilterStartsAFreshSearch() async {
    let store = makeStore(loaded(issues: [crash, typo]))
    await store.send(.list(.searchTextChanged("ship tag:UI"))) {
      $0.list.search.text = "ship tag:UI"
    }
    await store.send(.list(.searchSubmitted)) {
      $0.list.search = SearchField(chips: ["tag:UI"], text: "ship")
      $0.list.query = SearchQuery(text: ["ship"], tags: ["UI"])
    }
    await store.receive(.list(.loaded(IssuePage(issues: [], total: 0)))) {
      $0.list.issues = []
      $0.list.total = 0
    }
    await store.send(.sidebar(.filterTapped(.completed))) { $0.sidebar.selection = .completed }
    await store.receive(.sidebar(.delegate(.filterChanged(.completed))))
    await store.receive(.list(.setFilter(.completed, showCompleted: true))) {
      $0.list.filter = .completed
      $0.list.hasLoaded = false
      $0.list.search = SearchField()
      $0.list.query = .empty
    }
    await store.receive(.list(.loaded(IssuePage(issues: [shipped], total: 1)))) {
      $0.list.issues = [self.shipped]
      $0.list.total = 1
      $0.list.hasLoaded = true
    }
    await store.send(.stop)
    await store.finish()
  }

  @Test func changingTheFilterReplacesTheListAndClearsTheDetail() async {
    let store = makeStore(loaded(issues: [crash, typo]))
    await select(crash, in: store)
    await store.send(.sidebar(.filterTapped(.completed))) { $0.sidebar.selection = .completed }
    await store.receive(.sidebar(.delegate(.filterChanged(.completed)))) { $0.detail = nil }
    await store.receive(.list(.setFilter(.completed, showCompleted: true))) {
      $0.list.filter = .completed
      $0.list.issues = []
      $0.list.total = 0
      $0.list.hasLoaded = false
      $0.list.selection = nil
    }
    await store.receive(.list(.loaded(IssuePage(issues: [shipped], total: 1)))) {
      $0.list.issues = [self.shipped]
      $0.list.total = 1
      $0.list.hasLoaded = true
    }
    await store.send(.stop)
    await store.finish()
  }

  @Test func aNewIssueStartsInEditModeWithTheCurrentTag() async throws {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash]))
    let fresh = Issue(id: generatedID(0), title: "New issue", created: fx.now, tags: [bug])
    await store.send(.list(.newIssueTapped))
    await store.receive(.list(.delegate(.newIssueRequested))) {
      $0.list.selection = fresh.id
      $0.detail = DetailFeature.State(
        issue: fresh, editing: true, isNew: true, allTags: [self.bug, self.ui])
    }
    await store.receive(.detail(.task))
    await store.receive(.detail(.loaded(fresh, [bug, ui])))
    #expect(try fx.stored(fresh.id) == fresh)
    await store.send(.stop)
    await store.finish()
  }

  @Test func aNewIssueUnderCompletedGoesToOpen() async throws {
    let store = makeStore(loaded(.completed, issues: [shipped]))
    let fresh = Issue(id: generatedID(0), title: "New issue", created: fx.now)
    await store.send(.list(.newIssueTapped))
    await store.receive(.list(.delegate(.newIssueRequested))) {
      $0.sidebar.selection = .open
      $0.list.selection = fresh.id
      $0.detail = DetailFeature.State(
        issue: fresh, editing: true, isNew: true, allTags: [self.bug, self.ui])
    }
    await store.receive(.list(.setFilter(.open, showCompleted: true))) {
      $0.list.filter = .open
      $0.list.issues = []
      $0.list.total = 0
      $0.list.hasLoaded = false
      $0.list.selection = nil
    }
    await store.receive(.list(.loaded(IssuePage(issues: [crash, typo], total: 2)))) {
      $0.list.issues = [self.crash, self.typo]
      $0.list.total = 2
      $0.list.hasLoaded = true
    }
    // The insert's commit refreshes the list before the detail starts observing.
    await store.receive(.list(.loaded(IssuePage(issues: [crash, typo, fresh], total: 3)))) {
      $0.list.issues = [self.crash, self.typo, fresh]
      $0.list.total = 3
    }
    await store.receive(.detail(.task))
    await store.receive(.detail(.loaded(fresh, [bug, ui])))
    #expect(try fx.settings().lastFilter == .open)
    await store.send(.stop)
    await store.finish()
  }

  @Test func deletingFromTheDetailLetsGoOfTheIssue() async throws {
    let store = makeStore(loaded(issues: [crash, typo]))
    await select(crash, in: store)
    await store.send(.detail(.deleteTapped)) { $0.detail?.confirmingDelete = true }
    await store.send(.detail(.deleteConfirmed)) { $0.detail?.confirmingDelete = false }
    await store.receive(.detail(.delegate(.deleted(crash.id)))) {
      $0.detail = nil
      $0.list.selection = nil
    }
    await store.finish()
    #expect(try fx.stored(crash.id) == nil)
  }

  @Test func deleteFromTheListAsksInTheDetail() async throws {
    let store = makeStore(loaded(issues: [crash, typo]))
    await store.send(.list(.issueTapped(typo.id))) { $0.list.selection = self.typo.id }
    await store.receive(.list(.delegate(.selectionChanged(typo.id)))) {
      $0.detail = DetailFeature.State(issue: self.typo, allTags: [self.bug, self.ui])
    }
    await store.receive(.detail(.task))
    await store.receive(.detail(.loaded(typo, [bug, ui])))
    await store.send(.list(.deleteTapped))
    await store.receive(.list(.delegate(.deleteRequested(typo.id)))) {
      $0.detail?.confirmingDelete = true
    }
    await store.send(.detail(.deleteCancelled)) { $0.detail?.confirmingDelete = false }
    await store.send(.stop)
    await store.finish()
    #expect(try fx.stored(typo.id) != nil)
  }

  /// Closed under Open, the issue leaves; the selection moves on to the next row (the row
  /// before it, for the last), and with the last one gone there is none.
  @Test func completingUnderOpenMovesTheSelectionOn() async {
    let store = makeStore(loaded(issues: [crash, typo]))
    store.exhaustivity = .off
    await select(crash, in: store)
    await store.send(.detail(.toggleCompletedTapped))
    await store.skipReceivedActions()
    #expect(store.state.list.selection == typo.id)
    #expect(store.state.detail?.issue.id == typo.id)
    await store.send(.detail(.toggleCompletedTapped))
    await store.skipReceivedActions()
    // The list has not refreshed in this store: crash, the row before, is chosen.
    #expect(store.state.list.selection == crash.id)
    await store.send(.stop)
    await store.skipInFlightEffects()
  }

  @Test func theNextRowIsTheOneAfterElseBefore() {
    #expect(AppFeature.neighbour(of: crash.id, in: [crash, typo])?.id == typo.id)
    #expect(AppFeature.neighbour(of: typo.id, in: [crash, typo])?.id == crash.id)
    #expect(AppFeature.neighbour(of: crash.id, in: [crash]) == nil)
  }

  @Test func completingUnderATagKeepsTheIssueWhileCompletedOnesShow() async {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash]))
    await select(crash, in: store)
    var done = crash
    done.completed = true
    await store.send(.detail(.toggleCompletedTapped)) { $0.detail?.issue.completed = true }
    await store.receive(.detail(.delegate(.completionChanged(done))))
    done.modified = fx.now
    await store.receive(.detail(.loaded(done, [bug, ui]))) {
      $0.detail?.issue.modified = done.modified
    }
    // Hiding completed issues lets it go.
    await store.send(.sidebar(.showCompletedToggled)) { $0.sidebar.showCompleted = false }
    await store.receive(.sidebar(.delegate(.showCompletedChanged(false)))) {
      $0.detail = nil
      $0.list.selection = nil
    }
    await store.receive(.list(.setFilter(.tag(bug.id), showCompleted: false))) {
      $0.list.showCompleted = false
    }
    await store.receive(.list(.loaded(IssuePage(issues: [], total: 0)))) {
      $0.list.issues = []
      $0.list.total = 0
    }
    await store.send(.stop)
    await store.finish()
  }

  @Test func completingUnderATagWithCompletedHiddenLetsGo() async {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash], showCompleted: false))
    await select(crash, in: store)
    var done = crash
    done.completed = true
    await store.send(.detail(.toggleCompletedTapped)) { $0.detail?.issue.completed = true }
    await store.receive(.detail(.delegate(.completionChanged(done)))) {
      $0.detail = nil
      $0.list.selection = nil
    }
    await store.finish()
  }

  @Test func reopeningUnderCompletedLetsGoOfTheIssue() async {
    let store = makeStore(loaded(.completed, issues: [shipped]))
    await select(shipped, in: store)
    var reopened = shipped
    reopened.completed = false
    await store.send(.detail(.toggleCompletedTapped)) { $0.detail?.issue.completed = false }
    await store.receive(.detail(.delegate(.completionChanged(reopened)))) {
      $0.detail = nil
      $0.list.selection = nil
    }
    await store.finish()
  }

  @Test func savingAnEditThatLeavesTheFilterLetsGo() async {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash]))
    await select(crash, in: store)
    await store.send(.detail(.editTapped)) {
      $0.detail?.draft = self.crash
      $0.detail?.editBase = self.crash
    }
    await store.send(.detail(.tagToggled(bug.id))) { $0.detail?.draft?.tags = [] }
    var untagged = crash
    untagged.tags = []
    await store.send(.detail(.saveTapped)) {
      $0.detail?.draft = nil
      $0.detail?.editBase = nil
      $0.detail?.issue = untagged
    }
    await store.receive(.detail(.delegate(.saved(untagged)))) {
      $0.detail = nil
      $0.list.selection = nil
    }
    await store.finish()
  }

  @Test func deletingTheSelectedTagMovesToOpen() async throws {
    let store = makeStore(loaded(.tag(ui.id), issues: [shipped]))
    await store.send(.sidebar(.deleteTagTapped(ui))) { $0.sidebar.confirmingDelete = self.ui }
    await store.send(.sidebar(.deleteConfirmed)) { $0.sidebar.confirmingDelete = nil }
    await store.receive(.sidebar(.delegate(.tagDeleted(ui.id)))) { $0.sidebar.selection = .open }
    await store.receive(.list(.setFilter(.open, showCompleted: true))) {
      $0.list.filter = .open
      $0.list.issues = []
      $0.list.total = 0
      $0.list.hasLoaded = false
    }
    await store.receive(.list(.loaded(IssuePage(issues: [crash, typo], total: 2)))) {
      $0.list.issues = [self.crash, self.typo]
      $0.list.total = 2
      $0.list.hasLoaded = true
    }
    await store.send(.stop)
    await store.finish()
    #expect(try fx.settings().lastFilter == .open)
    #expect(try fx.queue.read { try $0.fetchTags() } == [bug])
  }

  @Test func deletingAnotherTagKeepsTheSelection() async {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash]))
    await store.send(.sidebar(.deleteTagTapped(ui))) { $0.sidebar.confirmingDelete = self.ui }
    await store.send(.sidebar(.deleteConfirmed)) { $0.sidebar.confirmingDelete = nil }
    await store.receive(.sidebar(.delegate(.tagDeleted(ui.id))))
    await store.finish()
  }

  @Test func renamingTheSelectedTagKeepsItSelected() async {
    let store = makeStore(loaded(.tag(bug.id), issues: [crash]))
    await store.send(.sidebar(.renameTagTapped(bug))) {
      $0.sidebar.prompt = SidebarFeature.TagPrompt(purpose: .rename(self.bug), text: "Bug")
    }
    await store.send(.sidebar(.promptTextChanged("Defect"))) { $0.sidebar.prompt?.text = "Defect" }
    await store.send(.sidebar(.promptSubmitted)) { $0.sidebar.prompt = nil }
    await store.receive(.sidebar(.delegate(.tagRenamed(Tag(id: bug.id, name: "Defect")))))
    await store.finish()
    #expect(store.state.sidebar.selection == .tag(bug.id))
  }

  @Test func awardsOpenLiveAndClose() async throws {
    let store = makeStore(loaded(issues: [crash, typo]))
    await store.send(.sidebar(.awardsTapped))
    await store.receive(.sidebar(.delegate(.awardsRequested))) { $0.awards = AwardsFeature.State() }
    await store.receive(.awards(.task))
    let counts = AwardCounts(issues: 3, closed: 1, tags: 2)
    await store.receive(.awards(.loaded(counts))) {
      $0.awards?.awards = AwardStatus.all(for: counts)
      $0.awards?.counts = counts
    }
    #expect(store.state.awards?.unlockedCount == 3)
    // The selection moves through the grid and stays on it.
    await store.send(.awards(.selectionMoved(by: -1)))
    await store.send(.awards(.selectionMoved(by: 4))) { $0.awards?.selected = 4 }
    let last = Award.all.count - 1
    await store.send(.awards(.selectionMoved(by: 100))) { $0.awards?.selected = last }
    await store.send(.awards(.selectionMoved(by: -3))) { $0.awards?.selected = last - 3 }
    // Deleting the only completed issue locks "First Fix" again, live.
    try fx.queue.write { try $0.deleteIssues([self.shipped.id]) }
    let fewer = AwardCounts(issues: 2, closed: 0, tags: 2)
    await store.receive(.awards(.loaded(fewer))) {
      $0.awards?.awards = AwardStatus.all(for: fewer)
      $0.awards?.counts = fewer
    }
    #expect(store.state.awards?.awards.filter(\.unlocked).map(\.id) == ["issues-1", "tags-1"])
    await store.send(.awards(.closeTapped))
    await store.receive(.awards(.delegate(.close))) { $0.awards = nil }
  }

  @Test func aChangeFromAnotherProcessReachesListCountsAndDetail() async throws {
    let store = makeStore(AppFeature.State())
    await store.send(.task)
    await store.receive(.sidebar(.task))
    await store.receive(.list(.task))
    let counts = FilterCounts(open: 2, completed: 1, recentOpen: 1, recentCompleted: 1)
    let summaries = [
      TagSummary(tag: bug, open: 1, total: 1), TagSummary(tag: ui, open: 0, total: 1),
    ]
    await store.receive(.sidebar(.loaded(counts, summaries))) {
      $0.sidebar.counts = counts
      $0.sidebar.tags = summaries
    }
    await store.receive(.list(.loaded(IssuePage(issues: [crash, typo], total: 2)))) {
      $0.list.issues = [self.crash, self.typo]
      $0.list.total = 2
      $0.list.hasLoaded = true
    }
    await store.receive(.list(.tagsLoaded([bug, ui]))) { $0.list.tags = [self.bug, self.ui] }
    await select(crash, in: store)

    let other = try fx.otherProcess()
    fx.time.advance(by: 30)
    try other.execute("BEGIN")
    try other.execute("UPDATE issues SET title = 'Crash on start-up' WHERE id = ?", [crash.id])
    try other.execute("UPDATE issues SET completed = 1 WHERE id = ?", [typo.id])
    try other.execute("COMMIT")
    fx.queue.checkForExternalChanges()
    var renamed = crash
    renamed.title = "Crash on start-up"
    renamed.modified = fx.now
    let after = FilterCounts(open: 1, completed: 2, recentOpen: 1, recentCompleted: 2)
    await store.receive(.sidebar(.loaded(after, summaries))) { $0.sidebar.counts = after }
    await store.receive(.list(.loaded(IssuePage(issues: [renamed], total: 1)))) {
      $0.list.issues = [renamed]
      $0.list.total = 1
    }
    await store.receive(.detail(.loaded(renamed, [bug, ui]))) { $0.detail?.issue = renamed }
    await store.send(.stop)
    await store.finish()
  }
}
