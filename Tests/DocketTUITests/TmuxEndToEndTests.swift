import Foundation
import Terminal
import Testing

/// A tmux server of its own (a private socket), running one program in a pane of a fixed size.
final class TmuxPane {
  let socket: String
  let folder: URL

  init(command: String, columns: Int, rows: Int, folder: URL) throws {
    self.folder = folder
    // Not in `folder`: a test removes its folder when it ends, maybe before the pane's deinit
    // runs, and a server whose socket is gone cannot be told to stop (one was left running the
    // app).
    socket =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "docket-tmux-\(UUID().uuidString).sock"
      ).path
    try tmux([
      "new-session", "-d", "-s", "docket", "-x", String(columns), "-y", String(rows), command,
    ])
  }

  deinit {
    _ = try? tmux(["kill-server"])
    unlink(socket)
  }

  /// Runs a tmux command and waits for it; with `capture`, returns what it printed. Started with
  /// `posix_spawn`, its standard streams /dev/null and a file, and its signals as a shell gives
  /// them: the server that `new-session` starts lives on, and must hold nothing this test waits
  /// on and end when told.
  @discardableResult
  func tmux(_ arguments: [String], capture: Bool = false) throws -> String {
    let output =
      capture ? folder.appendingPathComponent("capture-\(UUID().uuidString).txt").path : "/dev/null"
    guard Self.run("tmux", ["-S", socket] + arguments, output: output) != nil else {
      throw TmuxMissing()
    }
    guard capture else { return "" }
    defer { try? FileManager.default.removeItem(atPath: output) }
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }

  /// Runs a program (found on the PATH) with standard input from /dev/null, output to `output`
  /// and errors dropped, and waits for it: its raw wait status, or nil when it cannot start.
  static func run(_ program: String, _ arguments: [String], output: String = "/dev/null")
    -> Int32?
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    // With no signal blocked: a test runs on a worker thread, which blocks nearly all of them, and
    // a tmux server that inherited that never ended on `kill-server` (nor the app in its pane).
    let started = SpawnAttributes.withFreshSignals(defaultingAll: true) {
      posix_spawnp(&pid, program, &actions, $0, argv, environ) == 0
    }
    guard started else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return status
  }

  struct TmuxMissing: Error, CustomStringConvertible {
    var description: String { "tmux could not be started; make deps installs it" }
  }

  /// Types text as it is, letter by letter.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", "docket", "-l", text]) }

  /// Presses named keys (`Enter`, `Tab`, `C-s`, `Escape`).
  func press(_ keys: String...) throws {
    for key in keys { try tmux(["send-keys", "-t", "docket", key]) }
  }

  func screen() throws -> String {
    try tmux(["capture-pane", "-p", "-t", "docket"], capture: true)
  }

  /// Waits (at most `seconds`, polling) until the screen satisfies `condition`.
  func waitFor(
    _ description: String, seconds: Double = 8, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: (String) -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if condition(last) { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Testing.Issue.record(
      Comment(rawValue: "Waited for \(description); the screen was:\n\(last)"),
      sourceLocation: sourceLocation)
    throw TimedOut()
  }

  func waitFor(
    _ text: String, seconds: Double = 8, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try waitFor("“\(text)”", seconds: seconds, sourceLocation: sourceLocation) { $0.contains(text) }
  }

  struct TimedOut: Error {}
}

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

/// A pane's tmux server ends with the pane, and the program in it, also when the test runs on a
/// thread that blocks signals (a server that inherited that mask outlived `kill-server`).
@Suite struct TmuxPaneTests {
  /// Whether `pid` is a process that has not ended (a zombie has ended; where `/proc` tells).
  static func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let state = stat.split(separator: ")").last?.split(separator: " ").first
    else { return true }
    return state != "Z"
  }

  @Test func theServerEndsWithThePane() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-pane-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // As a worker thread does: every signal blocked but those a fault raises.
    var blocked = sigset_t()
    sigfillset(&blocked)
    for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] { sigdelset(&blocked, fault) }
    var before = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &before)
    defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
    var pane: TmuxPane? = try TmuxPane(command: "sleep 600", columns: 40, rows: 5, folder: folder)
    let ids = try pane!.tmux(["display-message", "-p", "#{pid} #{pane_pid}"], capture: true)
      .split(separator: " ").compactMap {
        pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    try #require(ids.count == 2, "server and pane: \(ids)")
    let (server, program) = (ids[0], ids[1])
    #expect(Self.isRunning(server) && Self.isRunning(program))
    pane = nil
    // Bounded: five seconds for both to go.
    for _ in 0..<100 where Self.isRunning(server) || Self.isRunning(program) {
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(!Self.isRunning(server), "tmux server \(server) still running")
    #expect(!Self.isRunning(program), "the pane's program \(program) still running")
    // Not left behind when this fails.
    for pid in [program, server] where Self.isRunning(pid) { kill(pid, SIGKILL) }
  }
}
