import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// Conflicts by keys: C opens them (from an issue's detail, that issue's), u uses the selected
/// lost value and the status line says so, Esc closes; u undoes anywhere else.
@MainActor
@Suite struct ConflictsOverlayTests {
  @Test func keysOpenUseAndClose() async throws {
    let fixture = try ScreenFixture()
    var start = try fixture.conflictsState(columns: 100, rows: 30)
    let listed = try #require(start.app.conflicts?.conflicts)
    start.app.conflicts = nil
    let store = screenStore(start, fixture: fixture, clock: TestClock())
    store.exhaustivity = .off
    await store.send(.key(.character("C")))
    await store.receive(.app(.conflictsRequested(issue: nil))) {
      $0.app.conflicts = ConflictsFeature.State()
      $0.announcement = "Conflicts. u uses the selected lost value, d dismisses it, Esc closes."
    }
    await store.receive(.app(.conflicts(.loaded(listed)))) {
      $0.app.conflicts?.conflicts = listed
      $0.app.conflicts?.loaded = true
    }
    // The title's conflict is the second: chosen, and used.
    await store.send(.key(.down))
    await store.receive(.app(.conflicts(.selectionMoved(by: 1)))) {
      $0.app.conflicts?.selected = 1
    }
    let chosen = listed[1]
    #expect(chosen.field == "title")
    await store.send(.key(.character("u")))
    await store.receive(.app(.conflicts(.delegate(.finished(.used(chosen)))))) {
      $0.announcement =
        "Used the lost title of “Export to CSV and JSON”: “Export to a spreadsheet”."
    }
    #expect(
      try fixture.queue.read { try $0.fetchIssue(id: chosen.issueID) }?.title
        == "Export to a spreadsheet")
    await store.send(.key(.escape))
    await store.receive(.app(.conflicts(.delegate(.close)))) { $0.app.conflicts = nil }
    // Closed, u is undo: the use is taken back.
    await store.send(.key(.character("u")))
    let undidTheUse: (ScreenFeature.Action) -> Bool = {
      if case .app(.undoFinished(.done(let report))) = $0 {
        return report.summary
          == StepSummary(verb: .edit, count: 1, name: "Export to a spreadsheet")
      }
      return false
    }
    await store.receive(
      where: undidTheUse,
      assert: { $0.announcement = "Undid “edit Export to a spreadsheet”." })
    #expect(
      try fixture.queue.read { try $0.fetchIssue(id: chosen.issueID) }?.title
        == "Export to CSV and JSON")
    await store.skipInFlightEffects()
  }
}
