import DocketCore
import Foundation

/// Sync through a folder by the release binary, whole process: 10 000 changes pushed by one
/// device and pulled by another, a sync with nothing new, and a new device catching up on the
/// benchmark's database (from the snapshot its first sync leaves in the folder).
@MainActor
func syncTimings(database path: String, size: Int) {
  guard let binary = docketBinary() else { return }
  let folder = (path as NSString).deletingLastPathComponent
  let scratch = folder + "/sync-\(getpid())"
  try? FileManager.default.removeItem(atPath: scratch)
  try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  func docket(_ arguments: [String], _ database: String) -> ProcessRun {
    let run = timeProcess(binary, arguments + ["--db", database])
    if run.status != 0 {
      FileHandle.standardError.write(
        Data("docket \(arguments.joined(separator: " ")) exited with \(run.status)\n".utf8))
    }
    return run
  }

  // 10 000 new issues on one device: 10 000 changes.
  let changes = 10_000
  let file = scratch + "/changes.json"
  writeNewIssues(to: file, titles: (0..<changes).map { "Change \($0) of the sync benchmark" })
  let plain = exchangeTimings(
    label: "docket sync", budget: 2000, file: file, changes: changes, scratch: scratch + "/",
    docket: docket
  ) { round in [scratch + "/remote-\(round)"] }
  // The same through an encrypted folder: a push and a pull at most 15 % more (the key is
  // derived when the remote is set, not in these runs); a sync with nothing new within 20 ms.
  let passphraseFile = scratch + "/passphrase"
  try? "a passphrase for the benchmark\n".write(
    toFile: passphraseFile, atomically: true, encoding: .utf8)
  let sealing = ["--passphrase-file", passphraseFile]
  exchangeTimings(
    label: "docket sync, encrypted", budgets: [plain[0] * 1.15, plain[1] * 1.15, 20], file: file,
    changes: changes, scratch: scratch + "/sealed-", docket: docket,
    remote: { round in [scratch + "/sealed-remote-\(round)"] + sealing },
    first: ["--encrypt"])
  postgresSyncTimings(file: file, changes: changes, scratch: scratch, docket: docket)
  hostileAndJoiningTimings(scratch: scratch, docket: docket)

  // A new device catching up on the benchmark's database. The budget is for 100 000 issues (the
  // image grows with the database: at a million it is ten times the copy and the check), and
  // none is set at a million.
  var plainCatchUp = 0.0
  for encrypted in [false, true] {
    let label = encrypted ? "docket sync, encrypted" : "docket sync"
    let remote = scratch + (encrypted ? "/sealed-remote-full" : "/remote-full")
    let first = scratch + (encrypted ? "/sealed-first.sqlite" : "/first.sqlite")
    try? FileManager.default.copyItem(atPath: path, toPath: first)
    shiftStamps(first)
    _ = docket(["remote", "set", remote] + (encrypted ? ["--encrypt"] + sealing : []), first)
    let firstSync = docket(["sync"], first)
    var catchUp: [ProcessRun] = []
    for round in 0..<3 {
      let newcomer = scratch + (encrypted ? "/sealed-" : "/") + "newcomer-\(round).sqlite"
      _ = docket(["remote", "set", remote] + (encrypted ? sealing : []), newcomer)
      catchUp.append(docket(["sync"], newcomer))
    }
    table.add(
      name: "\(label): first push of the \(size) (with a snapshot)", size: size,
      samples: [firstSync.milliseconds], budget: nil)
    let samples = catchUp.map(\.milliseconds)
    table.add(
      name: "\(label): a new device catches up on \(size)", size: size, samples: samples,
      budget: encrypted ? plainCatchUp * 1.15 : Budgets.at(size)?.catchUp)
    plainCatchUp = samples.sorted()[samples.count / 2]
    // No budget is set for it: the snapshot is read whole, and it grows with the database.
    memory.append(("\(label): catching up", catchUp.map(\.peakMemoryMiB).max() ?? 0, 300))
  }
}

/// The same through a PostgreSQL space on loopback (the server `make bench` starts, named by
/// `DOCKET_TEST_POSTGRES`), and how long after B's push its change is on A's screen (the release
/// app in tmux, listening).
@MainActor
func postgresSyncTimings(
  file: String, changes: Int, scratch: String, docket: (_: [String], _: String) -> ProcessRun
) {
  guard let server = ProcessInfo.processInfo.environment["DOCKET_TEST_POSTGRES"] else {
    print("(no PostgreSQL server: run through `make bench` for the PostgreSQL timings)")
    return
  }
  let run = String(getpid())
  exchangeTimings(
    label: "PostgreSQL", budget: 3000, file: file, changes: changes, scratch: scratch + "/pg-",
    docket: docket
  ) { round in [server, "--space", "bench\(run)x\(round)"] }

  // B pushes; A's app, open in tmux, shows it.
  guard let binary = docketBinary() else { return }
  let space = "bench\(run)live"
  let a = scratch + "/pg-live-a.sqlite"
  let b = scratch + "/pg-live-b.sqlite"
  for database in [a, b] { _ = docket(["remote", "set", server, "--space", space], database) }
  _ = docket(["add", "Live benchmark"], a)
  _ = docket(["sync"], a)
  _ = docket(["sync"], b)
  let socket = scratch + "/tmux-live"
  let capture = scratch + "/screen.txt"
  func tmux(_ arguments: [String]) {
    _ = timeProcess("/usr/bin/tmux", ["-S", socket] + arguments, outputPath: capture)
  }
  func screen() -> String {
    tmux(["capture-pane", "-p", "-t", "live"])
    return (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
  }
  tmux(["new-session", "-d", "-s", "live", "-x", "160", "-y", "48", "\(binary) --db \(a)"])
  defer { tmux(["kill-server"]) }
  var samples: [Double] = []
  var ready = false
  for _ in 0..<100 where !ready {
    ready = screen().contains("Live benchmark")
    Thread.sleep(forTimeInterval: 0.05)
  }
  Thread.sleep(forTimeInterval: 1)
  for round in 0..<5 {
    let title = "Pushed from B \(round)"
    _ = docket(["add", title], b)
    _ = docket(["sync"], b)
    let pushed = ContinuousClock.now
    var seen = false
    for _ in 0..<500 where !seen {
      seen = screen().contains(title)
    }
    let elapsed = ContinuousClock.now - pushed
    if seen {
      samples.append(
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
  }
  table.add(
    name: "PostgreSQL: B's push on A's screen (live)", size: 1, samples: samples, budget: 1000)
}

/// Three rounds of: `changes` new issues on a sender pushed, pulled on a receiver, and five syncs
/// with nothing new; `remote(round)` is what `docket remote set` is given.
@MainActor
/// Pushes, pulls and syncs with nothing new, three rounds: the medians (push, pull, nothing new).
/// `first` is what the sender's `remote set` adds (`--encrypt`); `budgets`, when given, are the
/// rows' own.
@discardableResult
func exchangeTimings(
  label: String, budget: Double = 0, budgets: [Double]? = nil, file: String, changes: Int,
  scratch: String, docket: (_: [String], _: String) -> ProcessRun, remote: (Int) -> [String],
  first: [String] = []
) -> [Double] {
  var pushRuns: [ProcessRun] = []
  var pullRuns: [ProcessRun] = []
  var idleRuns: [ProcessRun] = []
  for round in 0..<3 {
    let sender = scratch + "sender-\(round).sqlite"
    let receiver = scratch + "receiver-\(round).sqlite"
    _ = docket(["import", file], sender)
    _ = docket(["remote", "set"] + remote(round) + first, sender)
    _ = docket(["remote", "set"] + remote(round), receiver)
    pushRuns.append(docket(["sync"], sender))
    pullRuns.append(docket(["sync"], receiver))
    for _ in 0..<5 { idleRuns.append(docket(["sync"], receiver)) }
  }
  let runs = [pushRuns, pullRuns, idleRuns].map { $0.map(\.milliseconds) }
  let names = [
    "\(label): push \(changes) changes", "\(label): pull the \(changes) on another device",
    "\(label) with nothing new",
  ]
  for index in 0..<3 {
    table.add(
      name: names[index], size: changes, samples: runs[index],
      budget: budgets?[index] ?? (index == 2 ? 20 : budget))
  }
  return runs.map { $0.sorted()[$0.count / 2] }
}

/// A change file of 100 MB in the folder, under another device's name (a hostile one: Docket
/// writes at most 8 MiB to one): the sync refuses it by its size. And a device joining after
/// 5 000 changes pushed in 50 files.
@MainActor
func hostileAndJoiningTimings(
  scratch: String, docket: (_: [String], _: String) -> ProcessRun
) {
  let remote = scratch + "/remote-hostile"
  let reader = scratch + "/hostile-reader.sqlite"
  _ = docket(["remote", "set", remote], reader)
  _ = docket(["sync"], reader)
  let device = UUID().uuidString.lowercased()
  try? FileManager.default.createDirectory(
    atPath: remote + "/" + device, withIntermediateDirectories: true)
  let hostile = remote + "/" + device + "/00000001.changes"
  _ = FileManager.default.createFile(atPath: hostile, contents: nil)
  if let handle = FileHandle(forWritingAtPath: hostile) {
    let header = Array(
      "{\"docket\":\"changes\",\"version\":1,\"device\":\"\(device)\",\"name\":\"X\",\"number\":\"1\",\"count\":1}\n"
        .utf8)
    handle.write(Data(header))
    let piece = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<100 { handle.write(piece) }
    try? handle.close()
  }
  var refusals: [ProcessRun] = []
  for _ in 0..<3 { refusals.append(docket(["sync"], reader)) }
  table.add(
    name: "docket sync: a 100 MB change file refused", size: 1,
    samples: refusals.map(\.milliseconds), budget: 1000)
  memory.append(("docket sync: a 100 MB change file", refusals.map(\.peakMemoryMiB).max() ?? 0, 64))

  // 5 000 changes in 50 files, then a new device.
  let shared = scratch + "/remote-join"
  let sender = scratch + "/join-sender.sqlite"
  _ = docket(["remote", "set", shared], sender)
  for file in 0..<50 {
    let batch = scratch + "/join-\(file).json"
    writeNewIssues(to: batch, titles: (0..<100).map { "Change \(file * 100 + $0)" })
    _ = docket(["import", batch], sender)
    _ = docket(["sync"], sender)
  }
  var joins: [ProcessRun] = []
  for round in 0..<3 {
    let newcomer = scratch + "/joiner-\(round).sqlite"
    _ = docket(["remote", "set", shared], newcomer)
    joins.append(docket(["sync"], newcomer))
  }
  table.add(
    name: "docket sync: a device joins after 5 000 changes in 50 files", size: 5_000,
    samples: joins.map(\.milliseconds), budget: 500)
}

/// Writes a Docket export of new low-priority issues with these titles (each a change to sync).
func writeNewIssues(to path: String, titles: [String]) {
  var lines = ["{\"format\":\"docket\",\"version\":1,\"tags\":[],\"issues\":["]
  for (index, title) in titles.enumerated() {
    lines.append(
      (index == 0 ? "" : ",")
        + "{\"id\":\"\(UUID().uuidString.lowercased())\",\"title\":\"\(title)\","
        + "\"detail\":\"\",\"priority\":\"low\",\"completed\":false,"
        + "\"created\":\"2026-11-30T09:00:00Z\",\"modified\":null,\"tags\":[]}")
  }
  lines.append("]}")
  try? lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

/// The benchmark's database is made as of its own moment (`now`, in 2027): its stamps are moved
/// to a day ago, as a database used up to yesterday has them, or its first sync would find its
/// clock ahead and repair it (what `TrustTests` measure, not this).
func shiftStamps(_ path: String) {
  do {
    let db = try DocketDatabase.connection(path: path)
    let clock = try db.fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0
    let offset = clock - HybridClock.stamp(Date().addingTimeInterval(-86_400))
    guard offset > 0 else { return }
    try db.transaction {
      try db.execute("UPDATE changes SET hlc = hlc - ?", [offset])
      try db.execute("UPDATE sync_clock SET hlc = hlc - ?", [offset])
    }
  } catch {
    FileHandle.standardError.write(Data("moving the stamps back failed: \(error)\n".utf8))
  }
}
