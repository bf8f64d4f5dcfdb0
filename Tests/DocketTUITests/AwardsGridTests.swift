import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// The awards grid: arrows move by a badge, up and down by a row of the grid.
@MainActor
@Suite struct AwardsGridTests {
  @Test func arrowsMoveThroughTheGrid() async throws {
    let fixture = try ScreenFixture()
    var state = try fixture.state(columns: 100, rows: 30)
    state.app.awards = AwardsFeature.State()
    let store = screenStore(state, fixture: fixture, clock: TestClock())
    let columns = ScreenLayout.awardColumns(width: 100)
    #expect(columns == 4)
    await store.send(.key(.right))
    await store.receive(.app(.awards(.selectionMoved(by: 1)))) { $0.app.awards?.selected = 1 }
    await store.send(.key(.character("j")))
    await store.receive(.app(.awards(.selectionMoved(by: columns)))) {
      $0.app.awards?.selected = 1 + columns
    }
    await store.send(.key(.up))
    await store.receive(.app(.awards(.selectionMoved(by: -columns)))) {
      $0.app.awards?.selected = 1
    }
    await store.send(.key(.character("h")))
    await store.receive(.app(.awards(.selectionMoved(by: -1)))) { $0.app.awards?.selected = 0 }
    // The selected award's name, description and state show under the grid, marked without
    // colour: ★ unlocked, ☆ locked with how far it is.
    let lines = ScreenView(
      state: store.state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render().lines
    // Nothing counted yet: the first award is locked, with its progress.
    #expect(lines.contains { $0.contains("☆ Locked: 0 of 1 so far") })
    // The grid has `columns` badges a row: the award `columns` on stands under the second.
    let second = try #require(lines.firstIndex { $0.contains("☆ 10 Issues") })
    let below = try #require(lines.firstIndex { $0.contains("☆ 250 Issues") })
    #expect(below == second + 1)
    #expect(
      lines[second].range(of: "☆ 10 Issues")!.lowerBound.utf16Offset(in: lines[second])
        == lines[below].range(of: "☆ 250 Issues")!.lowerBound.utf16Offset(in: lines[below]))
    await store.send(.key(.escape))
    await store.receive(.app(.awards(.closeTapped)))
    await store.receive(.app(.awards(.delegate(.close)))) { $0.app.awards = nil }
  }

  /// On a screen too short for the whole grid, the grid scrolls to keep the selected badge in
  /// view, and says at the frame's edge that more is above or below.
  @Test func aShortScreenScrollsTheGrid() async throws {
    let fixture = try ScreenFixture()
    var state = try fixture.state(columns: 60, rows: 12)
    state.app.awards = AwardsFeature.State()
    let store = screenStore(state, fixture: fixture, clock: TestClock())
    let columns = ScreenLayout.awardColumns(width: 60)
    let count = AwardsFeature.State().awards.count
    let rows = (count + columns - 1) / columns
    let height = ScreenLayout.awardGridHeight(ScreenLayout(state).awardsInner(state))
    #expect(rows > height, "the grid is taller than the room here")
    // Down to the last row; the window follows one row at a time once the selection leaves it.
    var selected = 0
    for row in 1..<rows {
      let next = min(selected + columns, count - 1)
      await store.send(.key(.down))
      await store.receive(.app(.awards(.selectionMoved(by: columns)))) { [next, row] in
        $0.app.awards?.selected = next
        if row >= height { $0.awardScroll.first = row - height + 1 }
      }
      selected = next
    }
    let l10n = DocketStrings.localizer(language: "en")
    let buffer = ScreenView(state: store.state, l10n: l10n, now: snapshotNow).render()
    let name = l10n.name(of: store.state.app.awards!.awards[selected].award)
    // The selected award is in the window.
    #expect(buffer.lines.contains { $0.contains(name) }, "\(name)")
    #expect(buffer.lines.first { $0.contains("Awards") }?.contains("↑") == true)
  }
}
