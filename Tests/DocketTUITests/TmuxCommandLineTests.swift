import Foundation
import Testing

/// Commands of the command line that behave otherwise on a terminal (the tmux helper lives here).
@Suite struct TmuxCommandLineTests {
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

  /// `docket import -` with a terminal on standard input says what `-` is for, instead of
  /// waiting for a file to be typed.
  @Test func importFromATerminalSaysWhatToDo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("docket.sqlite").path
    let command =
      "LANG=C.UTF-8 \(TmuxEndToEndTests.binary) import - --db \(database); echo EXIT=$?; sleep 30"
    let pane = try TmuxPane(command: command, columns: 120, rows: 10, folder: folder)
    try pane.waitFor("EXIT=2")
    try pane.waitFor("the advice") { $0.contains("pipe one in (task export | docket import -)") }
  }
}
