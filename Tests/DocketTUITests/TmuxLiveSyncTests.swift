import Foundation
import Testing

/// Two devices on a PostgreSQL space (the test server of `make test`): with the app open on A, an
/// edit pushed from B shows on A's screen within a second, with nothing polling the server.
@Suite struct TmuxLiveSyncTests {
  struct PostgresMissing: Error, CustomStringConvertible {
    var description: String {
      "No PostgreSQL server for the tests: run them through `make test` (scripts/with-postgres.sh)."
    }
  }

  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Runs the binary on `database` (posix_spawn and waitpid, as `TmuxPane` starts tmux): its
  /// wait status, 0 when it succeeded.
  @discardableResult
  func docket(_ database: String, _ arguments: [String], output: String = "/dev/null") throws
    -> Int32
  {
    TmuxPane.run(TmuxEndToEndTests.binary, arguments + ["--db", database], output: output) ?? -1
  }

  @Test func anEditPushedFromAnotherDeviceShowsWithinASecond() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let environment = ProcessInfo.processInfo.environment
    guard let server = environment["DOCKET_TEST_POSTGRES"],
      let passwords = environment["PGPASSFILE"]
    else { throw PostgresMissing() }
    let space = "live" + UUID().uuidString.lowercased().prefix(8)
    let a = folder.appendingPathComponent("a.sqlite").path
    let b = folder.appendingPathComponent("b.sqlite").path
    for database in [a, b] {
      #expect(try docket(database, ["remote", "set", server, "--space", space]) == 0)
    }
    #expect(try docket(a, ["add", "Made on A"]) == 0)
    #expect(try docket(a, ["sync"]) == 0)
    #expect(try docket(b, ["sync"]) == 0)

    let command =
      "LANG=C.UTF-8 TERM=xterm-256color PGPASSFILE=\(passwords) \(TmuxEndToEndTests.binary) --db \(a); sleep 30"
    let pane = try TmuxPane(command: command, columns: 120, rows: 30, folder: folder)
    try pane.waitFor("the first sync") { $0.contains("Made on A") && $0.contains("✓ Synced") }
    // The listener connects beside the first sync; a push before it is fetched when it does.
    Thread.sleep(forTimeInterval: 0.5)

    // An edit on B of the issue A made, and a new issue: each on A's screen within a second of
    // B's push.
    let listed = folder.appendingPathComponent("list.txt").path
    #expect(try docket(b, ["list", "--json"], output: listed) == 0)
    let issues =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: listed))) as? [[String: Any]]
    let reference = try #require(issues?.first?["id"] as? String)
    #expect(try docket(b, ["edit", reference, "--title", "Renamed on B"]) == 0)
    #expect(try docket(b, ["sync"]) == 0)
    try pane.waitFor("Renamed on B", seconds: 1)
    #expect(try docket(b, ["add", "Pushed from B"]) == 0)
    #expect(try docket(b, ["sync"]) == 0)
    try pane.waitFor("Pushed from B", seconds: 1)
    try pane.press("q")
  }
}
