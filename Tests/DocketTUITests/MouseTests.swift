import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// Where a click lands is found from the same layout the screen is drawn from: for every row
/// drawn, the click on it hits what the row shows.
@Suite struct MouseLayoutTests {
  @Test(arguments: [(160, 48), (100, 30), (60, 20)])
  func clicksHitWhatIsDrawnThere(columns: Int, rows: Int) throws {
    let fixture = try ScreenFixture(extraTags: 30)
    for focus in [ScreenFeature.Pane.filters, .list] {
      let state = try fixture.state(
        columns: columns, rows: rows, select: "Fix login layout on narrow screens", focus: focus)
      let buffer = ScreenView(
        state: state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
      ).render()
      let layout = ScreenLayout(state)
      for shown in layout.panes {
        let inner = ScreenLayout.inner(shown.rect, screenReader: false)
        let x = inner.x + 1
        // The text of each row of the screen, as far as it lies in this pane (elsewhere blank).
        let lines = (0..<state.rows).map { y in
          inner.y <= y && y < inner.maxY
            ? (inner.x..<inner.maxX).map { buffer[$0, y].text }.joined() : ""
        }
        switch shown.pane {
        case .list:
          var hits = 0
          for (index, issue) in state.app.list.issues.enumerated() {
            guard let y = lines.firstIndex(where: { $0.contains(issue.title.prefix(12)) }) else {
              continue
            }
            #expect(layout.target(x: x, y: y, state: state) == .issue(index), "\(issue.title)")
            hits += 1
          }
          #expect(hits > 0)
          #expect(layout.target(x: x, y: inner.y, state: state) == .search)
        case .filters:
          for (index, name) in ["Open", "Completed", "Recent"].enumerated() {
            let y = try #require(lines.firstIndex { $0.contains(name) })
            #expect(layout.target(x: x, y: y, state: state) == .filter(index))
          }
          var hits = 0
          for (offset, summary) in state.app.sidebar.tags.enumerated() {
            guard
              let y = lines.firstIndex(where: {
                $0.hasPrefix("  " + summary.tag.name + " ")
                  || $0.hasPrefix("● " + summary.tag.name + " ")
              })
            else { continue }
            #expect(layout.target(x: x, y: y, state: state) == .filter(3 + offset))
            hits += 1
          }
          #expect(hits > 0)
        case .detail:
          #expect(layout.target(x: x, y: inner.y, state: state) == .pane(.detail))
        }
      }
      // Outside every pane (the title bar) nothing is hit.
      #expect(layout.target(x: 1, y: 0, state: state) == nil)
    }
  }
}

/// What clicks and the wheel do, exhaustively: every change of state and every action.
@MainActor
@Suite struct MouseTests {
  let fixture: ScreenFixture
  let clock = TestClock()

  init() throws { fixture = try ScreenFixture() }

  func makeStore(_ state: ScreenFeature.State) -> TestStore<
    ScreenFeature.State, ScreenFeature.Action
  > {
    screenStore(state, fixture: fixture, clock: clock)
  }

  static func click(_ x: Int, _ y: Int) -> ScreenFeature.Action {
    .key(.mouse(MouseEvent(kind: .press(button: 0), x: x, y: y)))
  }

  /// The row of the list pane that shows issue `index`, and a column inside the pane.
  func position(ofIssue index: Int, in state: ScreenFeature.State) -> (x: Int, y: Int) {
    let layout = ScreenLayout(state)
    let list = layout.panes.first { $0.pane == .list }!
    let inner = ScreenLayout.inner(list.rect, screenReader: state.screenReader)
    let rows = ScreenLayout.listRows(inner, state)
    return (inner.x + 2, rows.y + index - state.listScroll.first)
  }

  /// A list scrolled down stays where it is when a row in view is clicked: the click selects
  /// the issue under the pointer, and the rows do not move from under it.
  @Test func aClickOnAScrolledListLeavesItsRowsWhereTheyAre() async throws {
    var state = try fixture.state(columns: 100, rows: 12, focus: .list)
    let issues = state.app.list.issues
    state.app.list.selection = try #require(issues.last).id
    state.keepSelectionsInView()
    let first = state.listScroll.first
    #expect(first > 0, "the list is scrolled")
    let store = makeStore(state)
    let spot = position(ofIssue: first, in: state)
    await store.send(Self.click(spot.x, spot.y))
    await store.receive(.app(.list(.issueTapped(issues[first].id)))) {
      $0.app.list.selection = issues[first].id
    }
    await store.receive(.app(.list(.delegate(.selectionChanged(issues[first].id))))) {
      $0.app.detail = DetailFeature.State(issue: issues[first], allTags: $0.app.list.tags)
    }
    await store.receive(.app(.detail(.task)))
    await store.receive(.app(.detail(.loaded(issues[first], store.state.app.list.tags)))) {
      $0.app.detail?.allTags = $0.app.list.tags
    }
    #expect(store.state.listScroll.first == first)
    // A key up from the top row of the window moves the window one row.
    await store.send(.key(.up))
    await store.receive(.app(.list(.issueTapped(issues[first - 1].id)))) {
      $0.app.list.selection = issues[first - 1].id
      $0.listScroll.first = first - 1
    }
    await store.skipReceivedActions()
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
  }

  @Test func aClickSelectsAnIssueAndASecondOpensIt() async throws {
    let store = makeStore(try fixture.state(columns: 160, rows: 48, focus: .filters))
    let issues = store.state.app.list.issues
    let spot = position(ofIssue: 2, in: store.state)
    await store.send(Self.click(spot.x, spot.y)) { $0.focus = .list }
    await store.receive(.app(.list(.issueTapped(issues[2].id)))) {
      $0.app.list.selection = issues[2].id
    }
    await store.receive(.app(.list(.delegate(.selectionChanged(issues[2].id))))) {
      $0.app.detail = DetailFeature.State(issue: issues[2], allTags: $0.app.list.tags)
    }
    await store.receive(.app(.detail(.task)))
    await store.receive(.app(.detail(.loaded(issues[2], store.state.app.list.tags)))) {
      $0.app.detail?.allTags = $0.app.list.tags
    }
    // The selected issue, clicked again, opens: the detail takes the keyboard.
    await store.send(Self.click(spot.x, spot.y)) { $0.focus = .detail }
    // A release, the right button and a click on the title bar do nothing.
    await store.send(.key(.mouse(MouseEvent(kind: .release, x: spot.x, y: spot.y))))
    await store.send(.key(.mouse(MouseEvent(kind: .press(button: 2), x: spot.x, y: spot.y))))
    await store.send(Self.click(3, 0))
    await store.send(.app(.stop))
    await store.finish()
  }

  @Test func theWheelMovesThroughTheListAndTheFilters() async throws {
    let store = makeStore(
      try fixture.state(
        columns: 160, rows: 48, select: "Fix login layout on narrow screens", focus: .list))
    let issues = store.state.app.list.issues
    let start = try #require(issues.firstIndex { $0.id == store.state.app.list.selection })
    let spot = position(ofIssue: 0, in: store.state)
    let target = min(start + ScreenFeature.wheelStep, issues.count - 1)
    await store.send(.key(.mouse(MouseEvent(kind: .wheelDown, x: spot.x, y: spot.y))))
    await store.receive(.app(.list(.issueTapped(issues[target].id)))) {
      $0.app.list.selection = issues[target].id
    }
    await store.receive(.app(.list(.delegate(.selectionChanged(issues[target].id))))) {
      $0.app.detail = DetailFeature.State(issue: issues[target], allTags: $0.app.list.tags)
    }
    await store.receive(.app(.detail(.task)))
    await store.receive(.app(.detail(.loaded(issues[target], store.state.app.list.tags)))) {
      $0.app.detail?.allTags = $0.app.list.tags
    }
    // Over the filter pane the wheel moves its highlight, which it shows by taking the focus.
    let filters = ScreenLayout(store.state).panes.first { $0.pane == .filters }!.rect
    let wheelDown = ScreenFeature.Action.key(
      .mouse(MouseEvent(kind: .wheelDown, x: filters.x + 2, y: filters.y + 2)))
    await store.send(wheelDown) {
      $0.focus = .filters
      $0.sidebarRow = 3
    }
    await store.send(.key(.mouse(MouseEvent(kind: .wheelUp, x: filters.x + 2, y: filters.y + 2)))) {
      $0.sidebarRow = 0
    }
    await store.send(.app(.stop))
    await store.finish()
  }

  @Test func aClickOnTheSearchLineSearchesAndClicksWaitWhileTyping() async throws {
    let store = makeStore(try fixture.state(columns: 100, rows: 30, focus: .list))
    let list = ScreenLayout(store.state).panes.first { $0.pane == .list }!.rect
    await store.send(Self.click(list.x + 3, list.y + 1)) { $0.mode = .typing(.search) }
    // While the search is typed, clicks do nothing.
    let spot = position(ofIssue: 1, in: store.state)
    await store.send(Self.click(spot.x, spot.y))
    await store.send(.key(.escape)) { $0.mode = .browsing }
    await store.receive(.app(.list(.searchCleared))) { $0.announcement = "Search cleared." }
    // A click closes the help, and does nothing else.
    await store.send(.key(.character("?"))) {
      $0.mode = .help
      $0.announcement = nil
    }
    await store.send(Self.click(spot.x, spot.y)) { $0.mode = .browsing }
    await store.send(.app(.stop))
    await store.finish()
  }
}
