import Database
import DocketCore
import DocketTransfer
import Foundation

/// Times the docket binary on an existing database of `size` issues.
@MainActor
func cliTimings(database path: String) throws {
  guard let binary = docketBinary() else { return }
  let queue = try DocketDatabase.open(path: path)
  let someID = try queue.read {
    try $0.fetchOne("SELECT id FROM issues ORDER BY id LIMIT 1 OFFSET 500", as: String.self)
  }!
  let commonTag = try queue.read { try $0.tagSummaries() }.max { $0.total < $1.total }!
  let size = try queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } ?? 0
  let reference = String(someID.replacingOccurrences(of: "-", with: "").prefix(8))
  let listFile = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-bench-list-\(getpid()).txt"
  ).path
  defer { try? FileManager.default.removeItem(atPath: listFile) }
  let budgets = Budgets.at(size)
  let command = budgets?.command
  let whole = budgets?.wholeList
  let commands: [(String, [String], String, Double?, Int)] = [
    ("docket list --limit 50", ["list", "--limit", "50"], "/dev/null", budgets?.page, 15),
    ("docket list (all open, to a file)", ["list"], listFile, whole, 5),
    ("docket list --json (all open, to a file)", ["list", "--json"], "/dev/null", whole, 5),
    ("docket list fix build", ["list", "fix", "build", "--limit", "50"], "/dev/null", command, 15),
    (
      "docket list tag:\(commonTag.tag.name) priority:high",
      ["list", "tag:\(commonTag.tag.name)", "priority:high", "--limit", "50"], "/dev/null",
      command, 15
    ),
    ("docket show REF", ["show", reference], "/dev/null", command, 15),
    ("docket add", ["add", "Benchmark issue", "--tag", "Bug"], "/dev/null", command, 15),
  ]
  startupComparison(binary: binary, path: path, reference: reference, someID: someID, size: size)
  for (name, arguments, output, budget, most) in commands {
    var runsOf: [ProcessRun] = []
    for _ in 0..<(min(runs, most) + 2) {
      runsOf.append(timeProcess(binary, arguments + ["--db", path], outputPath: output))
    }
    let measured = Array(runsOf.dropFirst(2))
    if let failed = measured.first(where: { $0.status != 0 }) {
      FileHandle.standardError.write(Data("\(name) exited with \(failed.status)\n".utf8))
    }
    table.add(name: name, size: size, samples: measured.map(\.milliseconds), budget: budget)
    let memoryBudget = name.contains("all open") ? budgets?.wholeListMiB ?? 100 : 100
    memory.append((name, measured.map(\.peakMemoryMiB).max() ?? 0, memoryBudget))
  }
  if let lines = try? String(contentsOfFile: listFile, encoding: .utf8).split(separator: "\n").count
  {
    listedIssues = lines - 1
  }
}

/// `docket --version`, `docket list --limit 50` and `docket show REF` side by side with the
/// `sqlite3` shell running the same statements on the same database, as a ratio.
@MainActor
func startupComparison(binary: String, path: String, reference: String, someID: String, size: Int) {
  func median(_ executable: String, _ arguments: [String]) -> Double {
    var samples: [Double] = []
    for _ in 0..<(min(runs, 21) + 2) {
      let run = timeProcess(executable, arguments)
      if run.status != 0 {
        FileHandle.standardError.write(
          Data("\(executable) \(arguments) exited with \(run.status)\n".utf8))
      }
      samples.append(run.milliseconds)
    }
    let measured = samples.dropFirst(2).sorted()
    return measured[measured.count / 2]
  }
  let version = timedRuns(binary, ["--version"])
  table.add(name: "docket --version", size: size, samples: version, budget: 3)
  guard
    let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first(where: {
      FileManager.default.isExecutableFile(atPath: $0)
    }),
    let queue = try? DocketDatabase.open(path: path),
    let settings = try? queue.read({ try $0.fetchSettings() }),
    let pageSQL = try? queue.read({
      try $0.firstPageSQL(
        IssueRequest(
          sort: settings.issueSort, showCompleted: settings.showCompleted, now: Date()),
        limit: 50)
    }),
    let id = UUID(uuidString: someID)
  else {
    FileHandle.standardError.write(
      Data("no sqlite3 shell: install it to compare (apt-get install sqlite3)\n".utf8))
    return
  }
  let showSQL = (try? queue.read { $0.issueSQL(id: id) }) ?? ""
  var comparisons: [(String, Double, Double)] = []
  for (name, arguments, sql) in [
    ("docket list --limit 50", ["list", "--limit", "50", "--db", path], pageSQL),
    ("docket show REF", ["show", reference, "--db", path], showSQL),
  ] {
    comparisons.append((name, median(binary, arguments), median(shell, [path, sql])))
  }
  let versionMedian = version.sorted()[version.count / 2]
  comparisonLines.append(
    String(format: "  %-28@ %7.2f ms", "docket --version" as NSString, versionMedian))
  for (name, docket, sqlite) in comparisons {
    comparisonLines.append(
      String(
        format:
          "  %-28@ %7.2f ms   sqlite3 shell, same statements %6.2f ms   ratio %4.2f× (goal 2.5×) %@",
        name as NSString, docket, sqlite, docket / sqlite, docket / sqlite <= 2.5 ? "ok" : "OVER"))
  }
}

/// Runs `executable` and returns the times of all but the first two (warm-up) runs.
@MainActor
func timedRuns(_ executable: String, _ arguments: [String]) -> [Double] {
  var samples: [Double] = []
  for _ in 0..<(min(runs, 21) + 2) {
    samples.append(timeProcess(executable, arguments).milliseconds)
  }
  return Array(samples.dropFirst(2))
}

/// The release docket binary next to this benchmark, if it was built.
func docketBinary() -> String? {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  let path = folder.appendingPathComponent("docket").path
  guard FileManager.default.isExecutableFile(atPath: path) else {
    FileHandle.standardError.write(
      Data("no docket binary at \(path); build it with swift build -c release\n".utf8))
    return nil
  }
  return path
}
