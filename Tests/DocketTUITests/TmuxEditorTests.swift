import Foundation
import Testing

/// While the person's editor has the terminal, what they type is the editor's: the app reads
/// none of it (it would run the letters as commands afterwards). A key typed as the editor
/// closes is the app's, once the terminal is back.
@Suite struct TmuxEditorTests {
  @Test func keysTypedInTheEditorReachTheEditorOnly() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-editor-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("docket.sqlite").path
    TmuxEndToEndTests.docket(["add", "Editor issue", "--detail", "old text", "--db", database])
    // An editor that reads one line from the terminal and makes it the text. It runs through
    // /bin/sh: a program spawned by another test while this file is written would hold it open,
    // and executing it would then fail with "Text file busy".
    let editor = folder.appendingPathComponent("editor.sh").path
    // Once it has the line it says so and waits (bounded) for the test's go-ahead: the key
    // typed meanwhile is typed for the app, which must get it once it has the terminal back.
    let goAhead = folder.appendingPathComponent("go-ahead").path
    try """
    printf 'EDITOR-READY\\n'
    read line < /dev/tty
    printf '%s' "$line" > "$1"
    printf 'EDITOR-DONE\\n'
    n=0
    while [ ! -e '\(goAhead)' ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done

    """.write(toFile: editor, atomically: true, encoding: .utf8)
    let command =
      "LANG=C.UTF-8 TERM=xterm-256color VISUAL='/bin/sh \(editor)' \(TmuxEndToEndTests.binary) --db \(database); echo DOCKET-ENDED $?; sleep 30"
    let pane = try TmuxPane(command: command, columns: 120, rows: 30, folder: folder)
    try pane.waitFor("Editor issue")
    try pane.press("j")
    try pane.waitFor("old text")
    try pane.press("E")
    try pane.waitFor("EDITOR-READY")
    // Letters that are commands in the app: n would make an issue, x close this one.
    try pane.type("nx new text")
    try pane.press("Enter")
    try pane.waitFor("EDITOR-DONE")
    // The terminal echoes the q (it is the person's terminal still); the app must not lose it.
    try pane.press("q")
    try pane.waitFor("the q echoed") { $0.contains("EDITOR-DONE\nq") }
    try Data().write(to: URL(fileURLWithPath: goAhead))
    try pane.waitFor("DOCKET-ENDED 0")
    let text = TmuxEndToEndTests.docket(["list", "--filter", "all", "--json", "--db", database])
    let issues = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    #expect(issues.count == 1, "keys typed in the editor made issues: \(text)")
    #expect(issues.first?["detail"] as? String == "nx new text")
    #expect(issues.first?["completed"] as? Bool == false)
  }
}
