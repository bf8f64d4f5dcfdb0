import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketCore
@testable import DocketTUI

/// Every pane and state drawn at three sizes and compared with recorded screens.
@Suite struct ScreenSnapshotTests {
  @Test(arguments: Snapshot.sizes)
  func anEmptyDatabase(columns: Int, rows: Int) throws {
    Snapshot.check(
      try ScreenFixture(sample: false).state(columns: columns, rows: rows), named: "empty")
  }

  @Test(arguments: Snapshot.sizes)
  func sampleDataWithAnIssueSelected(columns: Int, rows: Int) throws {
    let state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens")
    Snapshot.check(state, named: "sample")
  }

  /// `--theme high-contrast`: the terminal's own colours, bold and reverse only.
  @Test(arguments: Snapshot.sizes)
  func highContrast(columns: Int, rows: Int) throws {
    let state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens")
    Snapshot.check(state, named: "high-contrast", palette: .highContrast)
  }

  @Test(arguments: Snapshot.sizes)
  func theDetailFocused(columns: Int, rows: Int) throws {
    let state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Write the sync guide", focus: .detail)
    Snapshot.check(state, named: "detail")
  }

  @Test(arguments: Snapshot.sizes)
  func longTitlesAndWideCharacters(columns: Int, rows: Int) throws {
    let state = try ScreenFixture(longTitles: true).state(
      columns: columns, rows: rows,
      select:
        "A very long title that goes on and on about the details of a problem nobody can reproduce on a Tuesday"
    )
    Snapshot.check(state, named: "long")
  }

  @Test(arguments: Snapshot.sizes)
  func aThousandTags(columns: Int, rows: Int) throws {
    var state = try ScreenFixture(extraTags: 1000).state(
      columns: columns, rows: rows, focus: .filters)
    state.sidebarRow = 500
    Snapshot.check(state, named: "tags")
  }

  @Test(arguments: Snapshot.sizes)
  func editingAnIssue(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens", focus: .detail)
    var draft = try #require(state.app.detail?.issue)
    draft.title = "Fix login layout on narrow screens and tablets"
    state.app.detail?.draft = draft
    state.editField = .tags
    state.tagChip = 2
    Snapshot.check(state, named: "editing")
  }

  @Test(arguments: Snapshot.sizes)
  func searchingWithSuggestions(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(columns: columns, rows: rows)
    state.mode = .typing(.search)
    state.field = TextField("fix #u")
    state.app.list.search = SearchField(chips: ["priority:high"], text: "fix #u")
    state.app.list.suggestions = [
      SearchSuggestion(kind: .tag, label: "Bug", token: "tag:Bug"),
      SearchSuggestion(kind: .tag, label: "UI Design", token: "tag:\"UI Design\""),
      SearchSuggestion(kind: .priority, label: "Medium", token: "priority:medium"),
    ]
    state.app.list.highlightedSuggestion = 1
    Snapshot.check(state, named: "search")
  }

  @Test(arguments: Snapshot.sizes)
  func theTagPromptWithAnError(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(columns: columns, rows: rows, focus: .filters)
    state.app.sidebar.prompt = SidebarFeature.TagPrompt(
      purpose: .create, text: "bug", errorMessage: "A tag named “Bug” already exists.")
    state.mode = .typing(.tagName)
    state.field = TextField("bug")
    Snapshot.check(state, named: "prompt")
  }

  @Test(arguments: Snapshot.sizes)
  func confirmingADelete(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Export to CSV", focus: .detail)
    state.app.detail?.confirmingDelete = true
    Snapshot.check(state, named: "delete")
  }

  @Test(arguments: Snapshot.sizes)
  func theAwards(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(columns: columns, rows: rows)
    var awards = AwardsFeature.State()
    awards.awards = AwardStatus.all(for: AwardCounts(issues: 12, closed: 4, tags: 6))
    state.app.awards = awards
    Snapshot.check(state, named: "awards")
  }

  @Test(arguments: Snapshot.sizes)
  func recentlyDeleted(columns: Int, rows: Int) throws {
    Snapshot.check(
      try ScreenFixture().deletedState(columns: columns, rows: rows), named: "deleted")
  }

  @Test(arguments: Snapshot.sizes)
  func conflicts(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().conflictsState(columns: columns, rows: rows)
    Snapshot.check(state, named: "conflicts")
    // Closed, the filter pane names them under the smart filters while there are some.
    state.app.conflicts = nil
    Snapshot.check(state, named: "conflicts-pane")
  }

  @Test(arguments: Snapshot.sizes)
  func theHelp(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(columns: columns, rows: rows)
    state.mode = .help
    Snapshot.check(state, named: "help")
  }

  /// The overlays in the other modes: German, screen reader, high contrast.
  @Test(arguments: Snapshot.sizes)
  func overlaysInEveryMode(columns: Int, rows: Int) throws {
    let fixture = try ScreenFixture()
    var awardsState = try fixture.state(columns: columns, rows: rows)
    var awards = AwardsFeature.State()
    awards.counts = AwardCounts(issues: 12, closed: 4, tags: 6)
    awards.awards = AwardStatus.all(for: awards.counts)
    awards.selected = 2
    awardsState.app.awards = awards
    var helpState = try fixture.state(columns: columns, rows: rows)
    helpState.mode = .help
    var deleteState = try fixture.state(
      columns: columns, rows: rows, select: "Export to CSV", focus: .detail)
    deleteState.app.detail?.confirmingDelete = true
    var promptState = try fixture.state(columns: columns, rows: rows, focus: .filters)
    promptState.app.sidebar.prompt = SidebarFeature.TagPrompt(
      purpose: .create, text: "bug", errorMessage: "A tag named “Bug” already exists.")
    promptState.mode = .typing(.tagName)
    promptState.field = TextField("bug")
    var sortState = try fixture.state(columns: columns, rows: rows)
    sortState.mode = .sortMenu
    var formState = try fixture.state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens", focus: .detail)
    let issue = formState.app.detail?.issue
    formState.app.detail?.draft = issue
    formState.editField = .priority
    let deletedState = try ScreenFixture().deletedState(columns: columns, rows: rows)
    let conflictsState = try ScreenFixture().conflictsState(columns: columns, rows: rows)
    var purgeState = try ScreenFixture().deletedState(columns: columns, rows: rows)
    let asked = purgeState.app.deleted?.selectedIssue
    purgeState.app.deleted?.confirmingPurge = asked
    let overlays = [
      (awardsState, "awards"), (helpState, "help"), (deleteState, "delete"),
      (promptState, "prompt"), (sortState, "sort"), (formState, "form"),
      (deletedState, "deleted"), (conflictsState, "conflicts"), (purgeState, "purge"),
    ]
    for (state, name) in overlays {
      Snapshot.check(state, named: name + "-de", language: "de")
      var reader = state
      reader.screenReader = true
      Snapshot.check(reader, named: name + "-reader")
      Snapshot.check(state, named: name + "-contrast", palette: .highContrast)
    }
  }

  @Test(arguments: Snapshot.sizes)
  func inGerman(columns: Int, rows: Int) throws {
    let state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens")
    Snapshot.check(state, named: "german", language: "de")
  }

  @Test(arguments: Snapshot.sizes)
  func forScreenReaders(columns: Int, rows: Int) throws {
    var state = try ScreenFixture().state(
      columns: columns, rows: rows, select: "Fix login layout on narrow screens")
    state.screenReader = true
    state.announcement = "Issue closed: Fix login layout"
    Snapshot.check(state, named: "reader")
  }
}

@Suite struct ScreenLayoutTests {
  @Test func panesByWidth() throws {
    let fixture = try ScreenFixture()
    func panes(_ columns: Int, focus: ScreenFeature.Pane, detail: Bool = true) throws
      -> [ScreenFeature.Pane]
    {
      let state = try fixture.state(
        columns: columns, rows: 30, select: detail ? "Export to CSV" : nil, focus: focus)
      return ScreenLayout.visiblePanes(state)
    }
    #expect(try panes(160, focus: .list) == [.filters, .list, .detail])
    #expect(try panes(120, focus: .detail) == [.filters, .list, .detail])
    #expect(try panes(119, focus: .list) == [.list, .detail])
    #expect(try panes(80, focus: .filters) == [.filters, .list])
    #expect(try panes(79, focus: .detail) == [.detail])
    #expect(try panes(60, focus: .filters) == [.filters])
    #expect(try panes(60, focus: .detail, detail: false) == [.list])
    // A screen reader gets one pane at any width, and the keys know it (`f`, Enter on a filter).
    var reader = try fixture.state(columns: 160, rows: 30, focus: .filters)
    reader.screenReader = true
    #expect(ScreenLayout.visiblePanes(reader) == [.filters])
    #expect(reader.paneCount == 1)
  }

  /// For a screen reader, which follows it, the cursor stands on the focused item; otherwise it
  /// is hidden but where text is typed.
  @Test func theCursorStandsOnTheFocusedItemForAScreenReaderOnly() throws {
    var state = try ScreenFixture().state(columns: 160, rows: 40, select: "Export to CSV")
    let l10n = DocketStrings.localizer(language: "en")
    #expect(ScreenView(state: state, l10n: l10n, now: snapshotNow).render().cursor == nil)
    state.mode = .typing(.search)
    let searching = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
    let typed = try #require(searching.cursor)
    #expect(searching.lines[typed.y].contains("Search"))
    state.mode = .browsing
    state.screenReader = true
    let buffer = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
    let cursor = try #require(buffer.cursor)
    #expect(buffer.lines[cursor.y].contains("Export to CSV"))
  }

  /// The detail pane wraps what does not fit rather than cutting it: a long title is read whole
  /// there, and the dates keep their "(2 months ago)".
  @Test func theDetailWrapsTheTitleAndTheDates() throws {
    let fixture = try ScreenFixture()
    let long = "A title long enough that no pane at a hundred columns holds it on one line"
    try fixture.queue.write { db in
      try db.execute("UPDATE issues SET title = ? WHERE title = 'Export to CSV'", [long])
    }
    let state = try fixture.state(columns: 100, rows: 30, select: long, focus: .detail)
    let screen = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render().lines
    let pane = screen.map { String($0.split(separator: "│").last ?? "") }
      .joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(pane.contains(long), "\(pane)")
    #expect(
      pane.range(of: #"Created: \S+ \S+ \(\d+ \w+ ago\)"#, options: .regularExpression) != nil,
      "\(pane)")
    #expect(!screen.contains { $0.contains("a…│") })
  }

  /// A screen reader reads a row from its start: the title, then the priority and the status
  /// in words, never the symbols alone.
  @Test func aRowForAScreenReaderIsInWords() throws {
    for (language, words) in [("en", "Medium priority, open"), ("de", "Priorität Mittel, offen")] {
      var state = try ScreenFixture().state(columns: 100, rows: 30)
      state.screenReader = true
      let screen = ScreenView(
        state: state, l10n: DocketStrings.localizer(language: language), now: snapshotNow
      ).render().lines
      let row = try #require(screen.first { $0.hasPrefix("Export to CSV") }, "\(screen)")
      #expect(row.contains(words), "\(row)")
      #expect(!screen.contains { $0.contains("■○") || $0.contains("▲○") })
    }
  }

  /// The hint says what `x` does to the issue it acts on: complete an open one, reopen one done.
  @Test func theHintForXFollowsTheIssue() throws {
    let l10n = DocketStrings.localizer(language: "en")
    let fixture = try ScreenFixture()
    let open = try fixture.state(columns: 160, rows: 30, select: "Export to CSV", focus: .list)
    #expect(
      ScreenView(state: open, l10n: l10n, now: snapshotNow).render().lines.last?.contains(
        "x complete") == true)
    let done = try fixture.queue.read { db in
      try db.fetchIssues(IssueRequest(filter: .completed, now: snapshotNow)).first!
    }
    var completed = open
    completed.app.list.issues = [done]
    completed.app.list.selection = done.id
    let hints = ScreenView(state: completed, l10n: l10n, now: snapshotNow).render().lines.last ?? ""
    #expect(hints.contains("x reopen") && !hints.contains("x complete"), "\(hints)")
  }

  /// A bad token's message is read whole: wrapped under the search line, never cut.
  @Test func aSearchErrorWraps() throws {
    var state = try ScreenFixture().state(columns: 60, rows: 20, focus: .list)
    let message =
      "“priority:urgent” is not a priority: use low, medium or high (or l, m, h) after priority:"
    state.app.list.searchError = message
    let screen = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render().lines
    let pane = screen.map { $0.replacingOccurrences(of: "│", with: " ") }
      .joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(pane.contains(message), "\(screen.joined(separator: "\n"))")
  }

  @Test func aTinyTerminalSaysSo() throws {
    let state = try ScreenFixture().state(columns: 15, rows: 4)
    let buffer = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render()
    #expect(buffer.lines[0] == "The terminal i…")
  }
}

@Suite struct ScreenCountTests {
  @Test func longListsSayMoreThanTheCountLimit() throws {
    var state = try ScreenFixture().state(columns: 100, rows: 20)
    state.app.list.total = IssueListFeature.countLimit + 1
    let buffer = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render()
    #expect(buffer.lines[0].hasPrefix(" Docket · Open · 1000+ issues"))
    state.app.list.total = 12
    let exact = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: "de"), now: snapshotNow
    ).render()
    #expect(exact.lines[0].hasPrefix(" Docket · Offen · 12 Vorgänge"))
  }
}
