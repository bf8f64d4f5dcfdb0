import Foundation

/// Import and export of the changelog corpus by the release binary, whole process: into an empty
/// database, into the benchmark's database (a copy of it each run), and the export of what was
/// imported.
@MainActor
func transferTimings(database path: String, size: Int) {
  guard let binary = docketBinary() else { return }
  let folder = (path as NSString).deletingLastPathComponent
  guard let corpus = ChangelogCorpus.file(in: folder) else {
    print("(no Debian changelogs on this machine: no import benchmark)")
    return
  }
  let scratch = folder + "/transfer-\(getpid())"
  try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  func fresh(_ name: String, copying source: String? = nil) -> String {
    let target = scratch + "/" + name
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: target + suffix)
    }
    if let source { try? FileManager.default.copyItem(atPath: source, toPath: target) }
    return target
  }
  var emptyRuns: [ProcessRun] = []
  var fullRuns: [ProcessRun] = []
  for _ in 0..<3 {
    let empty = fresh("empty.sqlite")
    emptyRuns.append(timeProcess(binary, ["import", corpus.path, "--db", empty]))
    let full = fresh("full.sqlite", copying: path)
    fullRuns.append(timeProcess(binary, ["import", corpus.path, "--db", full]))
  }
  let imported = scratch + "/empty.sqlite"
  var exportRuns: [ProcessRun] = []
  for _ in 0..<5 {
    exportRuns.append(timeProcess(binary, ["export", "--db", imported], outputPath: "/dev/null"))
  }
  // The backup restored: the export imported into an empty database.
  let backup = scratch + "/backup.json"
  _ = timeProcess(binary, ["export", "--db", imported, "-o", backup])
  var restoreRuns: [ProcessRun] = []
  for _ in 0..<3 {
    restoreRuns.append(timeProcess(binary, ["import", backup, "--db", fresh("restored.sqlite")]))
  }
  for (name, measured) in [
    ("import", emptyRuns), ("import into full", fullRuns), ("export", exportRuns),
    ("restore", restoreRuns),
  ] {
    if let failed = measured.first(where: { $0.status != 0 }) {
      FileHandle.standardError.write(Data("docket \(name) exited with \(failed.status)\n".utf8))
    }
  }
  let entries = corpus.entries
  // The budget into a full database is the one for 100 000 issues; none is set at a million.
  table.add(
    name: "docket import (\(entries) changelog entries, empty db)", size: entries,
    samples: emptyRuns.map(\.milliseconds), budget: 2000)
  table.add(
    name: "docket import (the same, into a database of \(size))", size: entries,
    samples: fullRuns.map(\.milliseconds), budget: Budgets.at(size)?.importIntoFull)
  table.add(
    name: "docket export (the \(entries) imported, Docket JSON)", size: entries,
    samples: exportRuns.map(\.milliseconds), budget: 1000)
  table.add(
    name: "docket import of that export (a backup restored, empty db)", size: entries,
    samples: restoreRuns.map(\.milliseconds), budget: nil)
  // 150 MB, in MiB as the table counts.
  memory.append(
    ("docket import (changelogs, empty db)", emptyRuns.map(\.peakMemoryMiB).max() ?? 0, 143))
  memory.append(("docket export (changelogs)", exportRuns.map(\.peakMemoryMiB).max() ?? 0, 100))
  memory.append(
    ("docket import of the export (restore)", restoreRuns.map(\.peakMemoryMiB).max() ?? 0, 143))
}
