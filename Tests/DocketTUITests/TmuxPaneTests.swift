import Foundation
import Testing

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

  /// A tmux command that fails says so: a pane whose program has ended is no screen to wait on.
  @Test func aPaneThatIsGoneFailsClearly() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-tmux-pane-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pane = try TmuxPane(command: "sleep 600", columns: 40, rows: 5, folder: folder)
    // While the pane lives, its screen is read without a failure.
    _ = try pane.screen()
    try pane.tmux(["kill-session", "-t", "docket"])
    #expect(throws: TmuxPane.TmuxFailed.self) { try pane.screen() }
    #expect(throws: TmuxPane.TmuxFailed.self) { try pane.press("q") }
  }
}
