import Composable
import ComposableTesting
import Foundation
import Testing

@testable import DocketCore
@testable import DocketFeatures

@MainActor
@Suite struct SidebarTests {
  let fx: Fixture
  let bug: Tag
  let ui: Tag

  /// Open and completed, recent and old; Bug on two issues (one open), UI on one completed.
  init() throws {
    fx = try Fixture(onDisk: true)
    bug = try fx.tag("Bug")
    ui = try fx.tag("UI")
    try fx.issue("open recent bug", daysAgo: 1, tags: [bug])
    try fx.issue("open old", daysAgo: 30)
    try fx.issue("completed recent", completed: true, daysAgo: 2, tags: [ui])
    try fx.issue("completed old bug", completed: true, daysAgo: 40, tags: [bug])
  }

  var counts: FilterCounts {
    FilterCounts(open: 2, completed: 2, recentOpen: 1, recentCompleted: 1)
  }
  var summaries: [TagSummary] {
    [TagSummary(tag: bug, open: 1, total: 2), TagSummary(tag: ui, open: 0, total: 1)]
  }

  func makeStore() -> TestStore<SidebarFeature.State, SidebarFeature.Action> {
    TestStore(
      initialState: SidebarFeature.State(), reducer: { SidebarFeature() },
      withDependencies: fx.dependencies())
  }

  /// Show completed starts off, as in the seed, and is offered only where it applies: under
  /// Recent and the tags.
  @Test func countsFollowTheShowCompletedSwitch() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    #expect(store.state.showCompleted == false)
    #expect(store.state.count(of: .open) == 2)
    #expect(store.state.count(of: .completed) == 2)
    #expect(store.state.count(of: .recent) == 1)
    #expect(store.state.count(of: .tag(bug.id)) == 1)
    #expect(store.state.count(of: .tag(ui.id)) == 0)

    // Under Open the switch means nothing, and is not offered.
    #expect(!store.state.offersShowCompleted)
    await store.send(.showCompletedToggled)

    await store.send(.filterTapped(.recent)) { $0.selection = .recent }
    await store.receive(.delegate(.filterChanged(.recent)))
    #expect(store.state.offersShowCompleted)
    await store.send(.showCompletedToggled) { $0.showCompleted = true }
    await store.receive(.delegate(.showCompletedChanged(true)))
    #expect(store.state.count(of: .open) == 2)
    #expect(store.state.count(of: .completed) == 2)
    #expect(store.state.count(of: .recent) == 2)
    #expect(store.state.count(of: .tag(bug.id)) == 2)
    #expect(store.state.count(of: .tag(ui.id)) == 1)

    await observation.cancel()
    await store.finish()
    #expect(try fx.settings().showCompleted == true)
    #expect(try fx.settings().lastFilter == .recent)
  }

  @Test func aChangeFromAnotherProcessUpdatesTheCounts() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    let other = try fx.otherProcess()
    try other.execute("UPDATE issues SET completed = 1 WHERE title = 'open recent bug'")
    fx.queue.checkForExternalChanges()
    let after = FilterCounts(open: 1, completed: 3, recentOpen: 0, recentCompleted: 2)
    let afterTags = [
      TagSummary(tag: bug, open: 0, total: 2), TagSummary(tag: ui, open: 0, total: 1),
    ]
    await store.receive(.loaded(after, afterTags)) {
      $0.counts = after
      $0.tags = afterTags
    }
    await observation.cancel()
  }

  @Test func choosingAFilterReportsItAndRemembersIt() async throws {
    let store = makeStore()
    await store.send(.filterTapped(.recent)) { $0.selection = .recent }
    await store.receive(.delegate(.filterChanged(.recent)))
    await store.send(.filterTapped(.recent))
    await store.finish()
    #expect(try fx.settings().lastFilter == .recent)
  }

  @Test func tagSortFlipsAndIsRemembered() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    await store.send(.tagSortChosen(.count)) {
      $0.tagSort = TagSort(field: .count, ascending: false)
    }
    await store.send(.tagSortChosen(.count)) {
      $0.tagSort = TagSort(field: .count, ascending: true)
      $0.tags = self.summaries.reversed()
    }
    await store.send(.tagSortChosen(.name)) {
      $0.tagSort = TagSort(field: .name, ascending: true)
      $0.tags = self.summaries
    }
    await store.send(.tagSortChosen(.name)) {
      $0.tagSort = TagSort(field: .name, ascending: false)
      $0.tags = self.summaries.reversed()
    }
    await observation.cancel()
    await store.finish()
    #expect(try fx.settings().tagSort == TagSort(field: .name, ascending: false))
  }

  @Test func creatingATagTrimsItsNameAndIgnoresBlankOrExistingNames() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    await store.send(.newTagTapped) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .create, text: "")
    }
    await store.send(.promptTextChanged("   ")) { $0.prompt?.text = "   " }
    await store.send(.promptSubmitted) { $0.prompt = nil }

    await store.send(.newTagTapped) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .create, text: "")
    }
    await store.send(.promptTextChanged("BUG")) { $0.prompt?.text = "BUG" }
    await store.send(.promptSubmitted) { $0.prompt = nil }

    await store.send(.newTagTapped) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .create, text: "")
    }
    await store.send(.promptTextChanged("  Docs  ")) { $0.prompt?.text = "  Docs  " }
    await store.send(.promptSubmitted) { $0.prompt = nil }
    let docs = Tag(id: generatedID(0), name: "Docs")
    await store.receive(.delegate(.tagCreated(docs)))
    let withDocs = summaries + [TagSummary(tag: docs, open: 0, total: 0)]
    await store.receive(.loaded(counts, withDocs)) {
      $0.tags = [
        TagSummary(tag: self.bug, open: 1, total: 2), TagSummary(tag: docs, open: 0, total: 0),
        TagSummary(tag: self.ui, open: 0, total: 1),
      ]
    }
    await observation.cancel()
    #expect(try fx.queue.read { try $0.fetchTags() }.map(\.name) == ["Bug", "Docs", "UI"])
  }

  @Test func renamingOntoAnotherTagsNameAsksToMergeAndKeepsTheID() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    await store.send(.renameTagTapped(bug)) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .rename(self.bug), text: "Bug")
    }
    await store.send(.promptTextChanged("ui")) { $0.prompt?.text = "ui" }
    // Another tag's name: asked whether to merge; no keeps both as they were.
    await store.send(.promptSubmitted) {
      $0.prompt = nil
      $0.confirmingMerge = SidebarFeature.TagMerge(source: self.bug, target: self.ui)
    }
    await store.send(.mergeCancelled) { $0.confirmingMerge = nil }
    await store.send(.renameTagTapped(bug)) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .rename(self.bug), text: "Bug")
    }
    await store.send(.promptTextChanged("Defect")) { $0.prompt?.text = "Defect" }
    await store.send(.promptSubmitted) { $0.prompt = nil }
    let defect = Tag(id: bug.id, name: "Defect")
    await store.receive(.delegate(.tagRenamed(defect)))
    let renamed = [
      TagSummary(tag: defect, open: 1, total: 2), TagSummary(tag: ui, open: 0, total: 1),
    ]
    await store.receive(.loaded(counts, renamed)) { $0.tags = renamed }
    // A blank rename is ignored.
    await store.send(.renameTagTapped(defect)) {
      $0.prompt = SidebarFeature.TagPrompt(purpose: .rename(defect), text: "Defect")
    }
    await store.send(.promptTextChanged("")) { $0.prompt?.text = "" }
    await store.send(.promptSubmitted) { $0.prompt = nil }
    await observation.cancel()
  }

  @Test func deletingATagAsksFirst() async throws {
    let store = makeStore()
    let observation = await store.send(.task)
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = self.counts
      $0.tags = self.summaries
    }
    await store.send(.deleteTagTapped(ui)) { $0.confirmingDelete = self.ui }
    await store.send(.deleteCancelled) { $0.confirmingDelete = nil }
    #expect(try fx.queue.read { try $0.fetchTags() }.count == 2)
    await store.send(.deleteTagTapped(ui)) { $0.confirmingDelete = self.ui }
    await store.send(.deleteConfirmed) { $0.confirmingDelete = nil }
    await store.receive(.delegate(.tagDeleted(ui.id)))
    await store.receive(.loaded(counts, [summaries[0]])) { $0.tags = [self.summaries[0]] }
    await observation.cancel()
    #expect(try fx.queue.read { try $0.fetchTags() } == [bug])
  }

  /// Renaming Bug onto UI and saying yes: every issue that had Bug has UI, and Bug goes.
  @Test func aMergeConfirmedKeepsEveryIssuesTags() async throws {
    let store = makeStore()
    store.exhaustivity = .off
    let observation = await store.send(.task)
    await store.skipReceivedActions()
    let bugIssues = try fx.queue.read { db in
      try db.fetchIssues(IssueRequest(filter: .tag(self.bug.id), showCompleted: true, now: Date()))
        .map(\.id)
    }
    #expect(!bugIssues.isEmpty)
    await store.send(.renameTagTapped(bug))
    await store.send(.promptTextChanged("UI"))
    await store.send(.promptSubmitted) {
      $0.confirmingMerge = SidebarFeature.TagMerge(source: self.bug, target: self.ui)
    }
    await store.send(.mergeConfirmed) { $0.confirmingMerge = nil }
    await store.receive(.delegate(.tagsMerged(source: bug, into: ui)))
    await store.skipReceivedActions()
    await observation.cancel()
    let (tags, issueTags) = try fx.queue.read { db in
      (try db.fetchTags(), try bugIssues.map { try db.fetchIssue(id: $0)?.tags.map(\.id) })
    }
    let kept = TagName.keptID(merging: bug.id, into: ui.id)
    #expect(tags == [Tag(id: kept, name: "UI")])
    #expect(issueTags.allSatisfy { $0 == [kept] }, "\(issueTags)")
  }

  @Test func awardsAreRequestedFromTheRoot() async {
    let store = makeStore()
    await store.send(.awardsTapped)
    await store.receive(.delegate(.awardsRequested))
  }
}
