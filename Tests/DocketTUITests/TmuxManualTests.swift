import Foundation
import Testing

/// `docket manual` on a terminal shows the page as `man` does; off a terminal it is roff.
@Suite struct TmuxManualTests {
  @Test func theManualIsShownOnATerminal() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-manual-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // `cat` as the pager: the page's end stays on the screen, footer and all.
    let command =
      "LANG=C.UTF-8 MANPAGER=cat PAGER=cat \(TmuxEndToEndTests.binary) manual; echo MANUAL-DONE; sleep 30"
    let pane = try TmuxPane(command: command, columns: 90, rows: 20, folder: folder)
    try pane.waitFor("MANUAL-DONE")
    try pane.waitFor("the page rendered") { screen in
      screen.contains("DOCKET(1)") && !screen.contains(".TH ") && !screen.contains(".SH ")
    }
  }
}
