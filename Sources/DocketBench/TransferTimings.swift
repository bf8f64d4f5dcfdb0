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
  // Every open issue of the corpus listed, as `docket list | less` reads it: a whole list of
  // real text, the one set beside Taskwarrior's own list of the same tasks.
  var listRuns: [ProcessRun] = []
  let listed = scratch + "/listed.txt"
  for _ in 0..<5 {
    listRuns.append(timeProcess(binary, ["list", "--db", imported], outputPath: listed))
  }
  let openIssues =
    ((try? String(contentsOfFile: listed, encoding: .utf8))?.split(separator: "\n").count ?? 1)
    - 1
  // The backup restored: the export imported into an empty database.
  let backup = scratch + "/backup.json"
  _ = timeProcess(binary, ["export", "--db", imported, "-o", backup])
  var restoreRuns: [ProcessRun] = []
  for _ in 0..<3 {
    restoreRuns.append(timeProcess(binary, ["import", backup, "--db", fresh("restored.sqlite")]))
  }
  for (name, measured) in [
    ("import", emptyRuns), ("import into full", fullRuns), ("export", exportRuns),
    ("restore", restoreRuns), ("list", listRuns),
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
  table.add(
    name: "docket list of the imported corpus's \(openIssues) open issues, to a file",
    size: entries, samples: listRuns.map(\.milliseconds), budget: 200)
  // 150 MB, in MiB as the table counts.
  memory.append(
    ("docket import (changelogs, empty db)", emptyRuns.map(\.peakMemoryMiB).max() ?? 0, 143))
  memory.append(("docket export (changelogs)", exportRuns.map(\.peakMemoryMiB).max() ?? 0, 100))
  memory.append(
    ("docket import of the export (restore)", restoreRuns.map(\.peakMemoryMiB).max() ?? 0, 143))
}
