import Foundation
import Testing

/// The mouse in a real terminal: tmux passes the reports of a click and of the wheel to the app.
@Suite struct TmuxMouseTests {
  /// Where `text` first shows on the screen: its column and row (zero-based).
  static func position(of text: String, in screen: String) -> (x: Int, y: Int)? {
    for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if let range = line.range(of: text) {
        return (line.distance(from: line.startIndex, to: range.lowerBound), row)
      }
    }
    return nil
  }

  static func occurrences(of text: String, in screen: String) -> Int {
    screen.components(separatedBy: text).count - 1
  }

  @Test func aClickSelectsAnIssueAndTheWheelMovesOn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-mouse-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("second"), withIntermediateDirectories: true)
    let database = folder.appendingPathComponent("docket.sqlite").path
    for number in 1...12 {
      TmuxEndToEndTests.docket([
        "add", String(format: "Mouse issue %02d", number), "--db", database,
      ])
    }
    let command =
      "LANG=C.UTF-8 TERM=xterm-256color \(TmuxEndToEndTests.binary) --db \(database); sleep 30"
    let pane = try TmuxPane(command: command, columns: 120, rows: 30, folder: folder)
    try pane.waitFor("Mouse issue 12")
    // The app asked the terminal for mouse reports.
    #expect(try Self.mouseReporting(pane) == "1")

    // A click (press and release, as a terminal reports them) on the fifth issue shows it in the
    // detail pane: its title is then on the screen twice.
    let screen = try pane.screen()
    let fifth = try #require(Self.position(of: "Mouse issue 05", in: screen))
    try pane.type(
      "\u{1B}[<0;\(fifth.x + 1);\(fifth.y + 1)M\u{1B}[<0;\(fifth.x + 1);\(fifth.y + 1)m")
    try pane.waitFor("the fifth issue in the detail") {
      Self.occurrences(of: "Mouse issue 05", in: $0) == 2
    }
    // A notch of the wheel over the list moves three issues on.
    try pane.type("\u{1B}[<65;\(fifth.x + 1);\(fifth.y + 1)M")
    try pane.waitFor("the eighth issue in the detail") {
      Self.occurrences(of: "Mouse issue 08", in: $0) == 2
        && Self.occurrences(of: "Mouse issue 05", in: $0) == 1
    }
    // And back up.
    try pane.type("\u{1B}[<64;\(fifth.x + 1);\(fifth.y + 1)M")
    try pane.waitFor("the fifth issue again") {
      Self.occurrences(of: "Mouse issue 05", in: $0) == 2
    }
    // Quitting gives the mouse back to the terminal.
    try pane.press("q")
    try pane.waitFor("the shell's screen again") { !$0.contains("Mouse issue 12") }
    #expect(try Self.mouseReporting(pane) == "0")

    // With --no-mouse the terminal keeps the mouse for its own selection and scrolling.
    let keeping = try TmuxPane(
      command:
        "LANG=C.UTF-8 TERM=xterm-256color \(TmuxEndToEndTests.binary) --db \(database) --no-mouse; sleep 30",
      columns: 120, rows: 30, folder: folder.appendingPathComponent("second"))
    try keeping.waitFor("Mouse issue 12")
    #expect(try Self.mouseReporting(keeping) == "0")
    try keeping.press("q")
  }

  /// "1" while the program in the pane has mouse reporting on, "0" when not.
  static func mouseReporting(_ pane: TmuxPane) throws -> String {
    try pane.tmux(["display-message", "-p", "-t", "docket", "#{mouse_any_flag}"], capture: true)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
