import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Locking
import Terminal
import Testing

@testable import DocketTUI

/// The screen feature's keys, exhaustively: every change of state and every action a key causes
/// is asserted, and each test ends with no effect left running.
@MainActor
@Suite struct ScreenKeyTests {
  let fixture: ScreenFixture
  let clock = TestClock()

  init() throws { fixture = try ScreenFixture() }

  func makeStore(_ state: ScreenFeature.State) -> TestStore<
    ScreenFeature.State, ScreenFeature.Action
  > {
    screenStore(state, fixture: fixture, clock: clock)
  }

  @Test func helpQuitSyncAndFocus() async throws {
    let store = makeStore(try fixture.state(columns: 120, rows: 30))
    await store.send(.key(.character("?"))) { $0.mode = .help }
    // Any key closes the help, and does nothing else.
    await store.send(.key(.character("q"))) { $0.mode = .browsing }
    await store.send(.key(.tab)) { $0.focus = .filters }
    // Without a detail, Tab goes between the filters and the list.
    await store.send(.key(.tab)) { $0.focus = .list }
    await store.send(.key(.backTab)) { $0.focus = .filters }
    await store.send(.key(.escape)) { $0.focus = .list }
    await store.send(.key(.character("q"))) { $0.wantsQuit = true }
    await store.finish()
  }

  @Test func tabGoesFiltersListDetailAndShiftTabBack() async throws {
    let store = makeStore(
      try fixture.state(columns: 120, rows: 30, select: "Fix login layout on narrow screens"))
    await store.send(.key(.tab)) { $0.focus = .detail }
    await store.send(.key(.tab)) { $0.focus = .filters }
    await store.send(.key(.tab)) { $0.focus = .list }
    await store.send(.key(.backTab)) { $0.focus = .filters }
    await store.send(.key(.backTab)) { $0.focus = .detail }
    // Esc goes back to the list, as on a phone.
    await store.send(.key(.escape)) { $0.focus = .list }
    await store.send(.key(.character("q"))) { $0.wantsQuit = true }
    await store.finish()
  }

  /// `S` syncs now and says how it went; without a remote, how to set one.
  @Test func sSyncsNowAndSaysTheResult() async throws {
    let store = screenStore(
      try fixture.state(columns: 120, rows: 30), fixture: fixture, clock: clock
    ) {
      // Without a remote the sync never starts.
      $0.sync = SyncClient {
        Testing.Issue.record("a sync ran without a remote")
        return SyncReport()
      }
    }
    await store.send(.key(.character("S"))) { $0.announcesSync = true }
    await store.receive(.app(.sync(.syncTapped))) { $0.app.sync.isSyncing = true }
    let message = "No remote is set. Set one with: docket remote set PATH"
    await store.receive(.app(.sync(.failed(message)))) {
      $0.app.sync.isSyncing = false
      $0.app.sync.lastError = message
      $0.announcesSync = false
      $0.announcement = message
    }
    await store.finish()
  }

  /// An encrypted remote this device has no key for: the passphrase prompt opens by itself, the
  /// typing is kept in the screen (never in a feature's state), a wrong passphrase is said and
  /// asked again, Esc puts it off, `S` syncs and the prompt comes back when the sync asks, the
  /// right one syncs. Letters typed never reach what is beneath.
  @Test func theEncryptedRemotesPassphraseIsAskedForHere() async throws {
    var initial = try fixture.state(columns: 120, rows: 30)
    initial.app.sync.remote = "/r"
    try fixture.queue.write { try $0.setRemote("/r") }
    let message = "The remote is encrypted."
    let opened = Locked(false)
    let store = screenStore(initial, fixture: fixture, clock: clock) {
      $0.sync = SyncClient(
        run: {
          guard opened.withLock({ $0 }) else {
            throw SyncFailure(message, needsPassphrase: true)
          }
          return SyncReport()
        },
        unlock: { passphrase in
          guard passphrase == "ok phrase" else { throw SyncFailure("Does not open.") }
          opened.withLock { $0 = true }
        })
    }
    await store.send(.app(.sync(.passphraseNeeded(message)))) {
      $0.app.sync.lastError = message
      $0.app.sync.needsPassphrase = true
      $0.app.sync.isEncrypted = true
      $0.mode = .typing(.passphrase)
    }
    // `q` and `d` type, and quit or delete nothing.
    await store.send(.key(.character("q"))) { $0.field = TextField("q") }
    await store.send(.key(.character("d"))) { $0.field = TextField("qd") }
    await store.send(.key(.enter)) {
      $0.field = TextField()
      $0.announcesSync = true
    }
    await store.receive(.app(.sync(.passphraseSubmitted("qd")))) { $0.app.sync.isUnlocking = true }
    await store.receive(.app(.sync(.unlockFailed("Does not open.")))) {
      $0.app.sync.isUnlocking = false
      $0.app.sync.passphraseError = "Does not open."
      $0.announcesSync = false
      $0.announcement = "Does not open."
    }
    // Esc: put off; the status line says how to come back.
    await store.send(.key(.escape)) {
      $0.mode = .browsing
      $0.passphrasePutOff = true
      $0.announcement = "Sync waits for the passphrase: S asks again."
    }
    let l10n = DocketStrings.localizer(language: "en")
    let line =
      ScreenView(state: store.state, l10n: l10n, now: snapshotNow).render().lines
      .dropLast().last ?? ""
    #expect(line.contains("Encrypted remote: S gives its passphrase"))
    // `S` syncs; the prompt is back at once, and stays when the sync asks again.
    await store.send(.key(.character("S"))) {
      $0.passphrasePutOff = false
      $0.announcement = nil
      $0.announcesSync = true
    }
    await store.receive(.app(.sync(.syncTapped))) {
      $0.app.sync.isSyncing = true
      $0.mode = .typing(.passphrase)
    }
    await store.receive(.app(.sync(.passphraseNeeded(message)))) {
      $0.app.sync.isSyncing = false
    }
    for character in "ok phrase" {
      await store.send(.key(.character(character))) {
        $0.field = TextField($0.field.text + String(character))
      }
    }
    let shown = ScreenView(state: store.state, l10n: l10n, now: snapshotNow).render().lines
      .joined(separator: "\n")
    #expect(shown.contains("•••••••••"))
    #expect(!shown.contains("ok phrase"))
    await store.send(.key(.enter)) { $0.field = TextField() }
    await store.receive(.app(.sync(.passphraseSubmitted("ok phrase")))) {
      $0.app.sync.isUnlocking = true
      $0.app.sync.passphraseError = nil
    }
    await store.receive(.app(.sync(.unlocked))) {
      $0.app.sync.isUnlocking = false
      $0.app.sync.needsPassphrase = false
      $0.app.sync.lastError = nil
      $0.app.sync.isSyncing = true
      $0.mode = .browsing
    }
    await store.receive(.app(.sync(.finished(SyncReport(), at: snapshotNow)))) {
      $0.app.sync.isSyncing = false
      $0.app.sync.lastSync = snapshotNow
      $0.app.sync.lastReport = SyncReport()
      $0.announcesSync = false
      $0.announcement = "↑ 0 changes, ↓ 0 changes"
    }
    await store.finish()
  }

  /// The prompt does not open over a question or an overlay, which keep their keys.
  @Test func thePassphrasePromptWaitsForAnOverlayToClose() async throws {
    var initial = try fixture.conflictsState(columns: 120, rows: 30)
    initial.app.sync.remote = "/r"
    let store = screenStore(initial, fixture: fixture, clock: clock)
    await store.send(.app(.sync(.passphraseNeeded("Encrypted.")))) {
      $0.app.sync.lastError = "Encrypted."
      $0.app.sync.needsPassphrase = true
      $0.app.sync.isEncrypted = true
    }
    #expect(store.state.mode == .browsing)
    // Closed, the prompt opens.
    store.exhaustivity = .off
    await store.send(.key(.escape))
    await store.skipReceivedActions()
    #expect(store.state.app.conflicts == nil)
    #expect(store.state.mode == .typing(.passphrase))
    await store.finish()
  }

  /// Typed over an overlay (the prompt was open when it came), letters are the passphrase's:
  /// `d` dismisses no conflict, `q` closes nothing.
  @Test func lettersTypedInThePromptNeverReachAnOverlayBeneath() async throws {
    var initial = try fixture.conflictsState(columns: 120, rows: 30)
    initial.app.sync.remote = "/r"
    initial.app.sync.needsPassphrase = true
    initial.mode = .typing(.passphrase)
    let store = screenStore(initial, fixture: fixture, clock: clock)
    store.exhaustivity = .off
    let conflicts = store.state.app.conflicts
    for letter: Character in ["d", "q", "u"] { await store.send(.key(.character(letter))) }
    await store.skipReceivedActions()
    #expect(store.state.field.text == "dqu")
    #expect(store.state.app.conflicts == conflicts)
    #expect(store.state.mode == .typing(.passphrase))
    await store.finish()
  }

  /// With a remote, `S` says the sync's result when it comes; a sync that runs by itself says
  /// nothing.
  @Test func sSaysTheResultOfTheSyncItAskedFor() async throws {
    try fixture.queue.write { try $0.setRemote("/tmp/docket-remote-for-tests") }
    var report = SyncReport()
    report.pulled = 2
    let result = report
    var state = try fixture.state(columns: 120, rows: 30)
    state.app.sync.remote = "/tmp/docket-remote-for-tests"
    let store = screenStore(state, fixture: fixture, clock: clock) {
      $0.sync = SyncClient { result }
    }
    await store.send(.key(.character("S"))) { $0.announcesSync = true }
    await store.receive(.app(.sync(.syncTapped))) { $0.app.sync.isSyncing = true }
    await store.receive(.app(.sync(.finished(report, at: snapshotNow)))) {
      $0.app.sync.isSyncing = false
      $0.app.sync.lastSync = snapshotNow
      $0.app.sync.lastReport = report
      $0.announcesSync = false
      $0.announcement = "↑ 0 changes, ↓ 2 changes"
    }
    // The timer's sync: its result changes the state and says nothing.
    await store.send(.app(.sync(.timerFired))) { $0.app.sync.isSyncing = true }
    await store.receive(.app(.sync(.finished(report, at: snapshotNow)))) {
      $0.app.sync.isSyncing = false
    }
    #expect(store.state.announcement == "↑ 0 changes, ↓ 2 changes")
    await store.finish()
  }

  /// `H` shows the issue's history under its detail, kept live, and hides it again.
  @Test func hShowsAndHidesTheHistory() async throws {
    let store = makeStore(
      try fixture.state(columns: 120, rows: 30, select: "Fix login layout on narrow screens"))
    let id = try #require(store.state.app.detail?.issue.id)
    await store.send(.key(.character("H")))
    await store.receive(.app(.detail(.historyToggled))) {
      $0.app.detail?.historyShown = true
      $0.announcement = "History shown."
    }
    let history = try fixture.queue.read { try $0.history(ofIssue: id) }
    #expect(history.first.map { if case .created = $0.what { true } else { false } } == true)
    await store.receive(.app(.detail(.historyLoaded(history)))) {
      $0.app.detail?.history = history
    }
    await store.send(.key(.character("H"))) { $0.announcement = nil }
    await store.receive(.app(.detail(.historyToggled))) {
      $0.app.detail?.historyShown = false
      $0.app.detail?.history = []
      $0.announcement = "History hidden."
    }
    await store.finish()
  }

  @Test func theFilterPaneMovesWithinItsRowsAndChoosesAFilter() async throws {
    let store = makeStore(try fixture.state(columns: 100, rows: 30))
    // Two panes: `f` brings the filter pane.
    await store.send(.key(.character("f"))) { $0.focus = .filters }
    await store.send(.key(.character("k")))
    await store.send(.key(.character("j"))) { $0.sidebarRow = 1 }
    await store.send(.key(.down)) { $0.sidebarRow = 2 }
    let last = store.state.sidebarFilters.count - 1
    for row in 3...last {
      await store.send(.key(.character("j"))) { $0.sidebarRow = row }
    }
    await store.send(.key(.character("j")))
    await store.send(.key(.up)) { $0.sidebarRow = last - 1 }
    for row in stride(from: last - 2, through: 1, by: -1) {
      await store.send(.key(.character("k"))) { $0.sidebarRow = row }
    }
    // Enter chooses Completed; with two panes the list takes the keyboard.
    await store.send(.key(.enter)) { $0.focus = .list }
    await store.receive(.app(.sidebar(.filterTapped(.completed)))) {
      $0.app.sidebar.selection = .completed
    }
    await store.receive(.app(.sidebar(.delegate(.filterChanged(.completed))))) {
      $0.announcement = "Showing: Completed"
    }
    await store.receive(.app(.list(.setFilter(.completed, showCompleted: false)))) {
      $0.app.list.filter = .completed
      $0.app.list.issues = []
      $0.app.list.total = 0
      $0.app.list.hasLoaded = false
    }
    let completed = try fixture.queue.read {
      try $0.fetchIssues(IssueRequest(filter: .completed, now: snapshotNow), limit: 100)
    }
    await store.receive(
      .app(.list(.loaded(IssuePage(issues: completed, total: completed.count))))
    ) {
      $0.app.list.issues = completed
      $0.app.list.total = completed.count
      $0.app.list.hasLoaded = true
    }
    await store.send(.app(.stop))
    await store.finish()
  }

  /// The filter pane's tag sort menu: `c` sorts by count, and `c` again flips it; `c` outside
  /// the menu, under Open, says the switch does not apply there.
  @Test func theTagSortMenuFlipsAndShowCompletedAppliesWhereItMeansSomething() async throws {
    let store = makeStore(try fixture.state(columns: 120, rows: 30))
    await store.send(.key(.character("c"))) {
      $0.announcement =
        "Showing completed issues applies to Recent and the tags; choose one of them first."
    }
    await store.send(.key(.tab)) {
      $0.focus = .filters
      $0.announcement = nil
    }
    await store.send(.key(.character("s"))) { $0.mode = .tagSortMenu }
    await store.send(.key(.character("c"))) { $0.mode = .browsing }
    let byCount = TagSort(field: .count)
    await store.receive(.app(.sidebar(.tagSortChosen(.count)))) {
      $0.app.sidebar.tagSort = byCount
      $0.app.sidebar.tags = byCount.sorted($0.app.sidebar.tags, showCompleted: false)
      $0.announcement = "Tags sorted by Count, descending"
    }
    await store.send(.key(.character("s"))) {
      $0.mode = .tagSortMenu
      $0.announcement = nil
    }
    await store.send(.key(.character("c"))) { $0.mode = .browsing }
    let fewestFirst = TagSort(field: .count, ascending: true)
    await store.receive(.app(.sidebar(.tagSortChosen(.count)))) {
      $0.app.sidebar.tagSort = fewestFirst
      $0.app.sidebar.tags = fewestFirst.sorted($0.app.sidebar.tags, showCompleted: false)
      $0.announcement = "Tags sorted by Count, ascending"
    }
    await store.send(.app(.stop))
    await store.finish()
    #expect(try fixture.queue.read { try $0.fetchSettings() }.tagSort == fewestFirst)
  }

  @Test func theSortMenuChoosesAndClosesOnAnyOtherKey() async throws {
    let store = makeStore(try fixture.state(columns: 120, rows: 30))
    await store.send(.key(.character("s"))) { $0.mode = .sortMenu }
    await store.send(.key(.character("z"))) { $0.mode = .browsing }
    await store.send(.key(.character("s"))) { $0.mode = .sortMenu }
    await store.send(.key(.character("t"))) { $0.mode = .browsing }
    await store.receive(.app(.list(.sortChosen(.title)))) {
      $0.app.list.sort = IssueSort(field: .title)
      $0.announcement = "Sorted by Title, ascending"
    }
    let byTitle = try fixture.queue.read {
      try $0.fetchIssues(
        IssueRequest(filter: .open, sort: IssueSort(field: .title), now: snapshotNow), limit: 100)
    }
    await store.receive(.app(.list(.loaded(IssuePage(issues: byTitle, total: byTitle.count))))) {
      $0.app.list.issues = byTitle
    }
    await store.send(.app(.stop))
    await store.finish()
    #expect(try fixture.queue.read { try $0.fetchSettings() }.issueSort == IssueSort(field: .title))
  }

  @Test func theSearchFieldTypesDebouncesAndLeaves() async throws {
    let store = makeStore(try fixture.state(columns: 120, rows: 30))
    await store.send(.key(.character("/"))) { $0.mode = .typing(.search) }
    await store.send(.key(.character("x"))) { $0.field = TextField("x") }
    await store.receive(.app(.list(.searchTextChanged("x")))) { $0.app.list.search.text = "x" }
    await store.send(.key(.character("y"))) { $0.field = TextField("xy") }
    await store.receive(.app(.list(.searchTextChanged("xy")))) { $0.app.list.search.text = "xy" }
    // Only the last keystroke's debounce fires.
    await clock.advance(by: IssueListFeature.debounce)
    await store.receive(.app(.list(.searchDebounced))) {
      $0.app.list.query = SearchQuery(text: ["xy"])
    }
    await store.receive(.app(.list(.loaded(IssuePage(issues: [], total: 0))))) {
      $0.app.list.issues = []
      $0.app.list.total = 0
    }
    // Esc clears the search and stays in it; the whole list comes back. A second Esc leaves.
    await store.send(.key(.escape)) { $0.field = TextField() }
    await store.receive(.app(.list(.searchCleared))) {
      $0.app.list.search = SearchField()
      $0.app.list.query = .empty
      $0.announcement = "Search cleared."
    }
    let open = try fixture.queue.read {
      try $0.fetchIssues(IssueRequest(filter: .open, now: snapshotNow), limit: 100)
    }
    await store.receive(.app(.list(.loaded(IssuePage(issues: open, total: open.count))))) {
      $0.app.list.issues = open
      $0.app.list.total = open.count
    }
    #expect(store.state.input == .search)
    await store.send(.key(.escape)) {
      $0.mode = .browsing
      $0.announcement = nil
    }
    await store.receive(.app(.list(.searchCleared))) { $0.announcement = "Search cleared." }
    await store.send(.app(.stop))
    await store.finish()
  }

  @Test func listKeysSelectOpenAndFocusTheDetail() async throws {
    let store = makeStore(try fixture.state(columns: 120, rows: 30))
    let issues = store.state.app.list.issues
    // Enter without a detail does nothing.
    await store.send(.key(.enter))
    await store.send(.key(.character("j")))
    await store.receive(.app(.list(.issueTapped(issues[0].id)))) {
      $0.app.list.selection = issues[0].id
    }
    await store.receive(.app(.list(.delegate(.selectionChanged(issues[0].id))))) {
      $0.app.detail = DetailFeature.State(issue: issues[0], allTags: $0.app.list.tags)
    }
    await store.receive(.app(.detail(.task)))
    await store.receive(.app(.detail(.loaded(issues[0], store.state.app.list.tags)))) {
      $0.app.detail?.allTags = $0.app.list.tags
    }
    await store.send(.key(.enter)) { $0.focus = .detail }
    // In the detail, `k` goes back to the list and moves there.
    await store.send(.key(.character("k"))) { $0.focus = .list }
    await store.receive(.app(.list(.issueTapped(issues[0].id))))
    await store.send(.app(.stop))
    await store.finish()
  }

  /// Every action says what it did on the status line, and the next action clears what the
  /// last one said: a rename is announced, and "History shown." does not stay through the
  /// awards.
  @Test func eachActionSaysItselfAndClearsTheLast() async throws {
    var state = try fixture.state(
      columns: 120, rows: 30, select: "Fix login layout on narrow screens")
    state.focus = .filters
    state.sidebarRow = ScreenFeature.State.smartFilters.count
    let store = makeStore(state)
    store.exhaustivity = .off
    let tag = try #require(store.state.highlightedTag)
    await store.send(.key(.character("r")))
    await store.send(.key(.control("u")))
    for character in "Renamed tag" { await store.send(.key(.character(character))) }
    await store.send(.key(.enter))
    await store.skipReceivedActions()
    #expect(store.state.announcement == "Tag renamed: Renamed tag", "\(tag.name)")
    await store.send(.key(.tab))
    await store.send(.key(.character("H")))
    await store.skipReceivedActions()
    #expect(store.state.announcement == "History shown.")
    await store.send(.key(.character("a")))
    await store.skipReceivedActions()
    #expect(store.state.app.awards != nil && store.state.announcement == nil)
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
  }
}
