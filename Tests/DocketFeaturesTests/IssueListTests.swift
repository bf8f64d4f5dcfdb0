import Composable
import ComposableTesting
import Foundation
import Testing

@testable import DocketCore
@testable import DocketFeatures

@MainActor
@Suite struct IssueListTests {
  let fx: Fixture
  let clock = TestClock()
  let bug: Tag
  let ui: Tag
  let build: Issue
  let login: Issue
  let translate: Issue
  let docs: Issue

  init() throws {
    fx = try Fixture(onDisk: true)
    bug = try fx.tag("Bug")
    ui = try fx.tag("UI")
    build = try fx.issue("Fix build on Linux", priority: .high, daysAgo: 1, tags: [bug])
    login = try fx.issue("Fix login layout", priority: .medium, daysAgo: 3, tags: [bug, ui])
    translate = try fx.issue("Übersetzung prüfen", priority: .low, daysAgo: 10, tags: [ui])
    docs = try fx.issue("Build docs", priority: .low, completed: true, daysAgo: 2, tags: [bug])
  }

  func makeStore(_ state: IssueListFeature.State = IssueListFeature.State()) -> TestStore<
    IssueListFeature.State, IssueListFeature.Action
  > {
    TestStore(
      initialState: state, reducer: { IssueListFeature() },
      withDependencies: fx.dependencies(clock: clock))
  }

  /// Starts the list and receives its first page and the tags.
  @discardableResult
  func start(_ store: TestStore<IssueListFeature.State, IssueListFeature.Action>, page: [Issue])
    async -> TestStoreTask
  {
    let task = await store.send(.task)
    await store.receive(.loaded(IssuePage(issues: page, total: page.count))) {
      $0.issues = page
      $0.total = page.count
      $0.hasLoaded = true
    }
    await store.receive(.tagsLoaded([bug, ui])) { $0.tags = [self.bug, self.ui] }
    return task
  }

  func typing(
    _ text: String, into store: TestStore<IssueListFeature.State, IssueListFeature.Action>
  ) async {
    await store.send(.searchTextChanged(text)) { $0.search.text = text }
  }

  /// Enter: typed tokens and exclusions become chips, plain words stay text, and the search runs
  /// at once (the debounce is not waited for).
  @Test func submittingTurnsTokensAndExclusionsIntoChips() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    await typing(#"fix -"login layout" tag:Bug"#, into: store)
    await store.send(.searchSubmitted) {
      $0.search = SearchField(chips: ["tag:Bug", #"-"login layout""#], text: "fix")
      $0.query = SearchQuery(text: ["fix"], excludedText: ["login layout"], tags: ["Bug"])
    }
    await store.receive(.loaded(IssuePage(issues: [build], total: 1))) {
      $0.issues = [self.build]
      $0.total = 1
    }
    // Removing the exclusion's chip brings its issue back.
    await store.send(.chipRemoved(1)) {
      $0.search.chips = ["tag:Bug"]
      $0.query = SearchQuery(text: ["fix"], tags: ["Bug"])
    }
    await store.receive(.loaded(IssuePage(issues: [build, login], total: 2))) {
      $0.issues = [self.build, self.login]
      $0.total = 2
    }
    await store.send(.stop)
    await store.finish()
  }

  @Test func aSubmittedFieldParsesToTheSameSearch() throws {
    for text in [
      "fix", "fix -crash", #"-"two words" tag:"UI Design" p:h is:open"#, "-tag:Bug plain",
      #""exact words" -x"#,
    ] {
      let field = SearchField(text: text)
      let submitted = field.submitted()
      #expect(try SearchParser.parse(submitted.fullText) == (try SearchParser.parse(text)))
      #expect((try SearchParser.parse(submitted.text)).chips.isEmpty, "\(text)")
    }
    // A bad token stays typed, to be corrected.
    #expect(
      SearchField(text: "priority:urgent").submitted() == SearchField(text: "priority:urgent"))
  }

  @Test func showsTheOpenIssuesByPriority() async {
    let store = makeStore()
    let task = await start(store, page: [build, login, translate])
    await task.cancel()
  }

  @Test func aBurstOfKeystrokesRunsOneQueryAfterTheDebounce() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    await typing("f", into: store)
    await clock.advance(by: .milliseconds(200))
    await typing("fi", into: store)
    await clock.advance(by: .milliseconds(200))
    await typing("fix bu", into: store)
    await clock.advance(by: .milliseconds(299))
    #expect(store.receivedActions.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searchDebounced) { $0.query = SearchQuery(text: ["fix", "bu"]) }
    await store.receive(.loaded(IssuePage(issues: [build], total: 1))) {
      $0.issues = [self.build]
      $0.total = 1
    }
    // The observation was replaced by a newer one, which runs on.
    await store.send(.stop)
    await store.finish()
  }

  @Test func everyTokenKindNarrowsTheList() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    let cases: [(String, SearchQuery, [Issue])] = [
      ("tag:bug", SearchQuery(tags: ["bug"]), [build, login]),
      (#"tag:Bug tag:"ui""#, SearchQuery(tags: ["Bug", "ui"]), [login]),
      ("-tag:UI", SearchQuery(excludedTags: ["UI"]), [build]),
      ("p:h p:l", SearchQuery(priorities: [.high, .low]), [build, translate]),
      ("is:completed", SearchQuery(statuses: [.completed]), [docs]),
      ("ubersetz", SearchQuery(text: ["ubersetz"]), [translate]),
      ("fix tag:ui", SearchQuery(text: ["fix"], tags: ["ui"]), [login]),
    ]
    for (text, query, expected) in cases {
      await typing(text, into: store)
      await clock.advance(by: .milliseconds(300))
      await store.receive(.searchDebounced) { $0.query = query }
      await store.receive(.loaded(IssuePage(issues: expected, total: expected.count))) {
        $0.issues = expected
        $0.total = expected.count
      }
    }
    // The observation was replaced by a newer one, which runs on.
    await store.send(.stop)
    await store.finish()
  }

  @Test func aBadTokenShowsAnInlineMessageAndKeepsTheList() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    await typing("priority:urgent", into: store)
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchDebounced) {
      $0.searchError = "Unknown priority “urgent” in priority:urgent: use low, medium or high."
    }
    await typing("priority:high", into: store)
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchDebounced) {
      $0.searchError = nil
      $0.query = SearchQuery(priorities: [.high])
    }
    await store.receive(.loaded(IssuePage(issues: [build], total: 1))) {
      $0.issues = [self.build]
      $0.total = 1
    }
    // The observation was replaced by a newer one, which runs on.
    await store.send(.stop)
    await store.finish()
  }

  @Test func suggestionsAppearOnHashNarrowAndLeaveOutChosenTokens() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    let high = SearchSuggestion(kind: .priority, label: "High", token: "priority:high")
    let medium = SearchSuggestion(kind: .priority, label: "Medium", token: "priority:medium")
    let low = SearchSuggestion(kind: .priority, label: "Low", token: "priority:low")
    let open = SearchSuggestion(kind: .status, label: "Open", token: "is:open")
    let completed = SearchSuggestion(kind: .status, label: "Completed", token: "is:completed")
    let bugTag = SearchSuggestion(kind: .tag, label: "Bug", token: "tag:Bug")
    let uiTag = SearchSuggestion(kind: .tag, label: "UI", token: "tag:UI")

    await store.send(.searchTextChanged("#")) {
      $0.search.text = "#"
      // Priorities low, medium, high, as the seed offers them.
      $0.suggestions = [bugTag, uiTag, low, medium, high, open, completed]
    }
    await store.send(.searchTextChanged("#u")) {
      $0.search.text = "#u"
      $0.suggestions = [bugTag, uiTag, medium]
    }
    await store.send(.searchTextChanged("#hi")) {
      $0.search.text = "#hi"
      $0.suggestions = [high]
    }
    await store.send(.suggestionChosen(high)) {
      $0.search = SearchField(chips: ["priority:high"], text: "")
      $0.suggestions = []
      $0.query = SearchQuery(priorities: [.high])
    }
    await store.receive(.loaded(IssuePage(issues: [build], total: 1))) {
      $0.issues = [self.build]
      $0.total = 1
    }
    await store.send(.searchTextChanged("tag:bug #")) {
      $0.search.text = "tag:bug #"
      $0.suggestions = [uiTag, low, medium, open, completed]
    }
    await store.send(.suggestionChosen(uiTag)) {
      $0.search = SearchField(chips: ["priority:high", "tag:UI"], text: "tag:bug")
      $0.suggestions = []
      $0.query = SearchQuery(tags: ["UI", "bug"], priorities: [.high])
    }
    await store.receive(.loaded(IssuePage(issues: [], total: 0))) {
      $0.issues = []
      $0.total = 0
    }
    await store.send(.chipRemoved(0)) {
      $0.search.chips = ["tag:UI"]
      $0.query = SearchQuery(tags: ["UI", "bug"])
    }
    await store.receive(.loaded(IssuePage(issues: [login], total: 1))) {
      $0.issues = [self.login]
      $0.total = 1
    }
    await store.send(.searchCleared) {
      $0.search = SearchField()
      $0.query = .empty
    }
    await store.receive(.loaded(IssuePage(issues: [build, login, translate], total: 3))) {
      $0.issues = [self.build, self.login, self.translate]
      $0.total = 3
    }
    // The observation was replaced by a newer one, which runs on.
    await store.send(.stop)
    await store.finish()
  }

  @Test func sortingFlipsReRunsAtOnceAndIsRemembered() async throws {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    await store.send(.sortMenuToggled) { $0.isSortMenuPresented = true }
    await store.send(.sortChosen(.title)) {
      $0.sort = IssueSort(field: .title, ascending: true)
      $0.isSortMenuPresented = false
    }
    await store.receive(.loaded(IssuePage(issues: [build, login, translate], total: 3)))
    await store.send(.sortChosen(.title)) { $0.sort = IssueSort(field: .title, ascending: false) }
    await store.receive(.loaded(IssuePage(issues: [translate, login, build], total: 3))) {
      $0.issues = [self.translate, self.login, self.build]
    }
    await store.send(.sortChosen(.date)) { $0.sort = IssueSort(field: .date, ascending: false) }
    await store.receive(.loaded(IssuePage(issues: [build, login, translate], total: 3))) {
      $0.issues = [self.build, self.login, self.translate]
    }
    await store.send(.stop)
    await store.finish()
    #expect(try fx.settings().issueSort == IssueSort(field: .date, ascending: false))
  }

  @Test func aFilterChangeReRunsAtOnceAndClearsTheSelection() async {
    let store = makeStore()
    await start(store, page: [build, login, translate])
    await store.send(.issueTapped(login.id)) { $0.selection = self.login.id }
    await store.receive(.delegate(.selectionChanged(login.id)))
    await store.send(.setFilter(.completed, showCompleted: true)) {
      $0.filter = .completed
      $0.showCompleted = true
      $0.issues = []
      $0.total = 0
      $0.hasLoaded = false
      $0.selection = nil
    }
    await store.receive(.loaded(IssuePage(issues: [docs], total: 1))) {
      $0.issues = [self.docs]
      $0.total = 1
      $0.hasLoaded = true
    }
    await store.send(.setFilter(.tag(bug.id), showCompleted: true)) {
      $0.filter = .tag(self.bug.id)
      $0.issues = []
      $0.total = 0
      $0.hasLoaded = false
    }
    await store.receive(.loaded(IssuePage(issues: [build, login, docs], total: 3))) {
      $0.issues = [self.build, self.login, self.docs]
      $0.total = 3
      $0.hasLoaded = true
    }
    // Show-completed off keeps the list's place but drops the completed issue.
    await store.send(.setFilter(.tag(bug.id), showCompleted: false)) { $0.showCompleted = false }
    await store.receive(.loaded(IssuePage(issues: [build, login], total: 2))) {
      $0.issues = [self.build, self.login]
      $0.total = 2
    }
    // The observation was replaced by a newer one, which runs on.
    await store.send(.stop)
    await store.finish()
  }

  @Test func choosingTheSelectedIssueAgainChangesNothing() async {
    let store = makeStore()
    await store.send(.issueTapped(build.id)) { $0.selection = self.build.id }
    await store.receive(.delegate(.selectionChanged(build.id)))
    await store.send(.issueTapped(build.id))
    await store.send(.selectionCleared) { $0.selection = nil }
    await store.receive(.delegate(.selectionChanged(nil)))
  }

  @Test func newAndDeleteAreRequestsToTheRoot() async {
    let store = makeStore()
    await store.send(.newIssueTapped)
    await store.receive(.delegate(.newIssueRequested))
    await store.send(.deleteTapped)
    await store.send(.issueTapped(build.id)) { $0.selection = self.build.id }
    await store.receive(.delegate(.selectionChanged(build.id)))
    await store.send(.deleteTapped)
    await store.receive(.delegate(.deleteRequested(build.id)))
  }

  @Test func aChangeFromAnotherProcessShowsUpAndLetsGoOfTheSelection() async throws {
    let store = makeStore()
    let task = await start(store, page: [build, login, translate])
    await store.send(.issueTapped(login.id)) { $0.selection = self.login.id }
    await store.receive(.delegate(.selectionChanged(login.id)))
    let other = try fx.otherProcess()
    try other.execute("UPDATE issues SET completed = 1 WHERE id = ?", [login.id])
    fx.queue.checkForExternalChanges()
    await store.receive(.loaded(IssuePage(issues: [build, translate], total: 2))) {
      $0.issues = [self.build, self.translate]
      $0.total = 2
      $0.selection = nil
    }
    await store.receive(.delegate(.selectionChanged(nil)))
    await task.cancel()
  }

  @Test func loadMoreWidensTheWindow() async throws {
    let many = try Fixture()
    for index in 0..<(IssueListFeature.pageSize + 5) {
      try many.issue(String(format: "issue %03d", index), daysAgo: Double(index))
    }
    let store = TestStore(
      initialState: IssueListFeature.State(sort: IssueSort(field: .title)),
      reducer: { IssueListFeature() },
      withDependencies: many.dependencies(clock: clock))
    store.exhaustivity = .off
    await store.send(.task)
    await store.receive(where: { if case .loaded = $0 { true } else { false } })
    #expect(store.state.issues.count == IssueListFeature.pageSize)
    #expect(store.state.total == IssueListFeature.pageSize + 5)
    await store.send(.loadMore) { $0.limit = 2 * IssueListFeature.pageSize }
    await store.receive(where: { if case .loaded = $0 { true } else { false } })
    #expect(store.state.issues.count == IssueListFeature.pageSize + 5)
    #expect(store.state.issues.last?.title == "issue 104")
    // The observation was replaced by a newer one, which runs on.
    await store.skipInFlightEffects()
  }
}
