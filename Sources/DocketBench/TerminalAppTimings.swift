import Composable
import Database
import DocketCore
import DocketFeatures
import DocketTUI
import Foundation
import Terminal

/// Typing a word into the search field, letter by letter: for each letter, the time from the
/// debounce firing to the frame that shows the new list.
@MainActor
func searchKeystrokeTimings(database: DatabaseQueue, word: String = "build") async throws
  -> [Double]
{
  let store = Store(
    initialState: ScreenFeature.State(app: AppFeature.State(), columns: 160, rows: 48),
    reducer: ScreenFeature()
  ) {
    $0.database = database
    $0.locale = "en"
  }
  var batches = 0
  let observation = store.observe { batches += 1 }
  defer { observation.cancel() }
  var renderer = Renderer()
  let l10n = DocketStrings.localizer(language: "en")
  func frame() {
    _ = renderer.frame(ScreenView(state: store.state, l10n: l10n, now: Date()).render())
  }

  store.send(.app(.task))
  for _ in 0..<2000 where !store.state.app.list.hasLoaded {
    try await Task.sleep(for: .milliseconds(1))
  }
  frame()
  store.send(.key(.character("/")))
  var samples: [Double] = []
  for round in 0..<3 {
    for letter in word {
      store.send(.key(.character(letter)))
      frame()
      // The debounce firing, then the new page arriving from the database, then the frame.
      let start = ContinuousClock.now
      let before = batches
      store.send(.app(.list(.searchDebounced)))
      for _ in 0..<100_000 where batches < before + 2 { await Task.yield() }
      frame()
      let elapsed = ContinuousClock.now - start
      // A person types slower than this loop: the count that follows a full page (a frame
      // later) and the pause before the debounce fires are over before the next keystroke.
      try await Task.sleep(for: .milliseconds(60))
      if round > 0 {
        samples.append(
          Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
      }
    }
    for _ in word { store.send(.key(.backspace)) }
    store.send(.app(.list(.searchDebounced)))
    try await Task.sleep(for: .milliseconds(400))
  }
  return samples
}

/// The release app in a tmux pane on `database`: its peak memory once it has drawn, and the CPU
/// it uses over ten idle seconds.
func idleAppMeasurements(binary: String, database: String) -> (
  peakMiB: Double, idleCPUSeconds: Double
)? {
  let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-bench-tmux-\(getpid())"
  ).path
  func tmux(_ arguments: [String]) { _ = timeProcess("/usr/bin/tmux", ["-S", socket] + arguments) }
  tmux(["new-session", "-d", "-s", "bench", "-x", "160", "-y", "48", "\(binary) --db \(database)"])
  // The app is known by its whole command line: another Docket on another database is not it.
  let command = [binary, "--db", database]
  var app: Int32?
  defer {
    tmux(["kill-server"])
    unlink(socket)
    // The app quits on the hang-up tmux sends; should a server not send it, the app must still
    // not be left holding the database.
    if let app {
      Thread.sleep(forTimeInterval: 1)
      if processID(of: command) == app { kill(app, SIGKILL) }
    }
  }
  Thread.sleep(forTimeInterval: 3)
  guard let pid = processID(of: command) else { return nil }
  app = pid
  let cpuBefore = cpuSeconds(pid)
  Thread.sleep(forTimeInterval: 10)
  let cpuAfter = cpuSeconds(pid)
  let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
  let peak =
    status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
  return (peak / 1024, cpuAfter - cpuBefore)
}

/// The process whose arguments are `command`, not this one.
private func processID(of command: [String]) -> Int32? {
  let wanted = command.joined(separator: "\0") + "\0"
  guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
    return nil
  }
  for entry in entries {
    guard let pid = Int32(entry), pid != getpid(),
      let arguments = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
    else { continue }
    if arguments == wanted { return pid }
  }
  return nil
}

/// User and system CPU time of a process so far, in seconds.
private func cpuSeconds(_ pid: Int32) -> Double {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return 0 }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  // After the command: state is field 3, utime field 14, stime field 15.
  let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
  return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}
