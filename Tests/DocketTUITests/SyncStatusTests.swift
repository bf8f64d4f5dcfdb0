import DocketCore
import DocketFeatures
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
    #expect(
      try status {
        $0.remote = "/r"
        $0.lastError = "The remote folder /r is not there"
      }.contains("Sync failed: The remote folder /r is not there"))
  }
}
