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
  var lines = ["{\"format\":\"docket\",\"version\":1,\"tags\":[],\"issues\":["]
  for index in 0..<changes {
    lines.append(
      (index == 0 ? "" : ",")
        + "{\"id\":\"\(UUID().uuidString.lowercased())\",\"title\":\"Change \(index) of the sync benchmark\","
        + "\"detail\":\"\",\"priority\":\"low\",\"completed\":false,"
        + "\"created\":\"2026-11-30T09:00:00Z\",\"modified\":null,\"tags\":[]}")
  }
  lines.append("]}")
  let file = scratch + "/changes.json"
  try? lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
  var pushRuns: [ProcessRun] = []
  var pullRuns: [ProcessRun] = []
  var idleRuns: [ProcessRun] = []
  for round in 0..<3 {
    let remote = scratch + "/remote-\(round)"
    let sender = scratch + "/sender-\(round).sqlite"
    let receiver = scratch + "/receiver-\(round).sqlite"
    _ = docket(["import", file], sender)
    _ = docket(["remote", "set", remote], sender)
    _ = docket(["remote", "set", remote], receiver)
    pushRuns.append(docket(["sync"], sender))
    pullRuns.append(docket(["sync"], receiver))
    for _ in 0..<5 { idleRuns.append(docket(["sync"], receiver)) }
  }
  table.add(
    name: "docket sync: push \(changes) changes", size: changes,
    samples: pushRuns.map(\.milliseconds), budget: 2000)
  table.add(
    name: "docket sync: pull the \(changes) on another device", size: changes,
    samples: pullRuns.map(\.milliseconds), budget: 2000)
  table.add(
    name: "docket sync with nothing new", size: changes,
    samples: idleRuns.map(\.milliseconds), budget: 20)

  // A new device catching up on the benchmark's database.
  let remote = scratch + "/remote-full"
  let first = scratch + "/first.sqlite"
  try? FileManager.default.copyItem(atPath: path, toPath: first)
  _ = docket(["remote", "set", remote], first)
  let firstSync = docket(["sync"], first)
  var catchUp: [ProcessRun] = []
  for round in 0..<3 {
    let newcomer = scratch + "/newcomer-\(round).sqlite"
    _ = docket(["remote", "set", remote], newcomer)
    catchUp.append(docket(["sync"], newcomer))
  }
  table.add(
    name: "docket sync: first push of the \(size) (with a snapshot)", size: size,
    samples: [firstSync.milliseconds], budget: nil)
  table.add(
    name: "docket sync: a new device catches up on \(size)", size: size,
    samples: catchUp.map(\.milliseconds), budget: 5000)
  // No budget is set for it: the snapshot is read whole (61 MB for 100 000 issues).
  memory.append(("docket sync: catching up", catchUp.map(\.peakMemoryMiB).max() ?? 0, 300))
}
