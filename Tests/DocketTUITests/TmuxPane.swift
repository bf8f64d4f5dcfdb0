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
    defer { if capture { try? FileManager.default.removeItem(atPath: output) } }
    guard let status = Self.run("tmux", ["-S", socket] + arguments, output: output) else {
      throw TmuxMissing()
    }
    // A pane that could not start, or is gone (its program ended), fails here and says so,
    // where it would otherwise show up later as a screen that never came.
    guard status == 0 else { throw TmuxFailed(arguments: arguments, status: status) }
    guard capture else { return "" }
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }

  /// Runs a program (found on the PATH) with standard input from /dev/null, output to `output`
  /// and errors dropped, and waits for it: its raw wait status, or nil when it cannot start.
  static func run(_ program: String, _ arguments: [String], output: String = "/dev/null")
    -> Int32?
  {
    // With no signal blocked: a test runs on a worker thread, which blocks nearly all of them, and
    // a tmux server that inherited that never ended on `kill-server` (nor the app in its pane).
    guard
      let pid = try? SpawnedProgram.start(
        program, arguments, output: output, searchingPath: true, defaultingAll: true)
    else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return status
  }

  struct TmuxFailed: Error, CustomStringConvertible {
    var arguments: [String]
    /// The raw wait status.
    var status: Int32
    var description: String {
      let how =
        status & 0x7f == 0
        ? "exited with \((status >> 8) & 0xff)" : "ended by signal \(status & 0x7f)"
      return "tmux \(arguments.joined(separator: " ")) \(how)"
    }
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

  /// Waits (at most `seconds`, polling) until the screen satisfies `condition`. Generous: a wait
  /// ends as soon as the screen is there, and in the first seconds of a whole `make test` the
  /// two cores are shared by dozens of processes (an 8-second wait of the editor's test once ran
  /// out there).
  func waitFor(
    _ description: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
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
    throw TimedOut(waitingFor: description, screen: last)
  }

  func waitFor(
    _ text: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try waitFor("“\(text)”", seconds: seconds, sourceLocation: sourceLocation) { $0.contains(text) }
  }

  /// What was waited for and the screen when the wait ended, also in the error itself: a CI log
  /// once showed the error without the issue recorded beside it.
  struct TimedOut: Error, CustomStringConvertible {
    var waitingFor: String
    var screen: String
    var description: String { "waited for \(waitingFor); the screen was:\n\(screen)" }
  }
}
