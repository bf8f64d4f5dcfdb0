import Foundation
import Testing

@Suite struct TmuxEndToEndTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
  static let binary =
    ProcessInfo.processInfo.environment["DOCKET_BINARY"]
    ?? root.appendingPathComponent(".build/debug/docket").path

  /// Runs the binary (posix_spawn and waitpid): what it printed.
  @discardableResult
  static func docket(_ arguments: [String]) -> String {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-output-\(UUID().uuidString)"
    ).path
    defer { unlink(output) }
    _ = TmuxPane.run(binary, arguments, output: output)
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }

  @Test func createSearchCompleteDeleteAndQuit() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("docket.sqlite").path
    let stty = folder.appendingPathComponent("stty.txt").path
    Self.docket(["add", "Another issue", "--db", database])

    let command =
      "LANG=C.UTF-8 TERM=xterm-256color \(Self.binary) --db \(database); stty -a > \(stty); echo DOCKET-EXITED; sleep 30"
    let pane = try TmuxPane(command: command, columns: 120, rows: 30, folder: folder)
    try pane.waitFor("Another issue")

    // A new issue with a new tag.
    try pane.press("n")
    try pane.waitFor("▸ Title:")
    try pane.type("Tmux test issue")
    try pane.press("Enter", "Tab", "Tab", "Tab")
    try pane.waitFor("▸ Tags:")
    try pane.press("t")
    try pane.waitFor("New tag:")
    try pane.type("e2e")
    try pane.press("Enter")
    try pane.waitFor("[x] e2e")
    try pane.press("C-s")
    try pane.waitFor("Issue saved: Tmux test issue")

    // Found with a token: the other issue leaves the list.
    try pane.press("/")
    try pane.type("tag:e2e")
    try pane.press("Enter")
    try pane.waitFor("the search narrowed to the tagged issue") {
      $0.contains("Search: [tag:e2e]") && $0.contains("Tmux test issue")
        && !$0.contains("Another issue")
    }

    // Completed: it leaves the Open list, and the status line says so.
    try pane.press("j")
    try pane.waitFor("Priority: ▽ Low")
    try pane.press("x")
    try pane.waitFor("Issue closed: Tmux test issue")

    // Deleted, after a confirmation.
    try pane.press("/", "C-u")
    try pane.type("is:completed tmux")
    try pane.press("Enter")
    try pane.waitFor("the completed issue found") { $0.contains("✓ Tmux test issue") }
    try pane.press("j")
    try pane.waitFor("Status:   ✓ Completed")
    try pane.press("d")
    try pane.waitFor("Delete this issue?")
    try pane.press("y")
    try pane.waitFor("Issue deleted.")

    // Quit: the terminal is the shell's again, in its normal mode.
    try pane.press("q")
    try pane.waitFor("DOCKET-EXITED")
    let settings = try String(contentsOfFile: stty, encoding: .utf8)
    #expect(settings.contains(" icanon") && !settings.contains("-icanon"))
    #expect(settings.contains(" echo ") && !settings.contains("-echo "))
    #expect(!(try pane.screen()).contains("Docket · Open"))

    // What the app did is in the database.
    let text = Self.docket(["list", "--filter", "all", "--db", database])
    #expect(text.contains("Another issue") && !text.contains("Tmux test issue"))
  }
}
