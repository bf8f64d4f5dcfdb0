import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Localization
import Testing

@testable import DocketTUI

/// The sync part of the status line: shown only with a remote (or a sync asked for), the time of
/// the last sync (with its date on another day), syncing, or why it failed.
@Suite struct SyncStatusTests {
  let fixture: ScreenFixture
  let l10n = DocketStrings.localizer(language: "en")

  init() throws { fixture = try ScreenFixture() }

  func status(_ change: (inout SyncFeature.State) -> Void) throws -> String {
    var state = try fixture.state(columns: 100, rows: 24)
    change(&state.app.sync)
    let screen = ScreenView(state: state, l10n: l10n, now: snapshotNow).render().lines
    return screen[screen.count - 2]
  }

  @Test func whatTheStatusLineSaysOfSync() throws {
    #expect(!(try status { _ in }).contains("ync"))
    #expect(try status { $0.remote = "/r" }.hasSuffix("Not synced yet"))
    let sameDay = snapshotNow.addingTimeInterval(-60)
    #expect(
      try status {
        $0.remote = "/r"
        $0.lastSync = sameDay
      }.hasSuffix("✓ Synced \(LocalTime.clock(sameDay))"))
    let dayBefore = snapshotNow.addingTimeInterval(-86_400)
    #expect(
      try status {
        $0.remote = "/r"
        $0.lastSync = dayBefore
      }.hasSuffix("✓ Synced \(LocalTime.minutes(dayBefore))"))
    #expect(try status { $0.isSyncing = true }.hasSuffix("⟳ Syncing…"))
    // Without a remote, a failed `S` is said once (the announcement), not kept on the line.
    #expect(!(try status { $0.lastError = "No remote is set." }).contains("Sync failed"))
    #expect(
      try status {
        $0.remote = "/r"
        $0.lastError = "The remote folder /r is not there"
      }.contains("Sync failed: The remote folder /r is not there"))
    // A live remote whose server went away says so, before an older error.
    #expect(
      try status {
        $0.remote = "postgres://db.example.org/tracker"
        $0.lastError = "an older failure"
        $0.liveProblem = "Connection refused"
      }.hasSuffix("Server unreachable, retrying: Connection refused"))
  }

  /// What the last sync had to say besides stays on the line after the time, as a warning.
  @Test func theLastSyncsNoteFollowsTheTime() throws {
    let sameDay = snapshotNow.addingTimeInterval(-60)
    var report = SyncReport()
    report.newDevice = .copied
    let line = try status {
      $0.remote = "/r"
      $0.lastSync = sameDay
      $0.lastReport = report
    }
    #expect(line.contains("✓ Synced \(LocalTime.clock(sameDay)) · This database is a copy"))
    #expect(
      try status {
        $0.remote = "/r"
        $0.lastSync = sameDay
        $0.lastReport = SyncReport()
      }
      .hasSuffix("✓ Synced \(LocalTime.clock(sameDay))"))
  }

  /// `H`: the history under the issue's detail, newest first, a lost value marked.
  @Test func theHistoryUnderTheDetail() throws {
    var state = try fixture.state(
      columns: 160, rows: 48, select: "Fix login layout on narrow screens", focus: .detail)
    let id = try #require(state.app.detail?.issue.id)
    var history = try fixture.queue.read { try $0.history(ofIssue: id) }
    var lost = try #require(history.first)
    lost.what = .title
    lost.old = .text("Old title")
    lost.new = .text("Lost title")
    lost.lost = true
    lost.stamp += 1
    history.append(lost)
    state.app.detail?.historyShown = true
    state.app.detail?.history = history
    let screen = ScreenView(state: state, l10n: l10n, now: snapshotNow).render().lines
    let heading = try #require(screen.firstIndex { $0.contains("│History") })
    // Newest first: the lost edit, under its time and device, its mark wrapped after it.
    #expect(screen[heading + 2].contains("title: “Old title” → “Lost title”  (lost a"))
    #expect(screen[heading + 3].contains("conflict, not applied)"))
    #expect(screen.dropFirst(heading).contains { $0.contains("created “") })
  }
}
