import Database
import DocketCore
import DocketTransfer
import Foundation

// Docket's benchmarks: in-process timings of the core's queries on synthetic databases.
// Run with `make bench` (release build, 100 000 issues), `make bench SIZES=1000000` for a million,
// `make bench SIZES=10000 ARGS="--runs 9"` for a quick look.

var sizes = [100_000]
var runs = 31
var keepFolder: String?
var cliDatabase: String?
var webDatabase: String?
var transferDatabase: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--cli-timings":
    cliDatabase = arguments.next()
  case "--keystrokes":
    // Only the app's keystroke timings, on an existing database (for profiling).
    let database = try DocketDatabase.open(path: arguments.next() ?? "")
    let samples = try await searchKeystrokeTimings(database: database)
    let sorted = samples.sorted()
    print(
      String(
        format: "keystroke → frame: median %.2f ms, worst %.2f ms", sorted[sorted.count / 2],
        sorted.last ?? 0))
    print(samples.map { String(format: "%.1f", $0) }.joined(separator: " "))
    exit(0)
  case "--search", "--count":
    // Only a search's first page, or its count as the app counts (up to 1 001), many times, on
    // an existing database (for profiling).
    let counts = argument == "--count"
    let database = try DocketDatabase.open(path: arguments.next() ?? "")
    let request = IssueRequest(
      filter: .open, search: try SearchParser.parse(arguments.next() ?? ""),
      now: Date(timeIntervalSince1970: 1_800_000_000))
    var samples: [Double] = []
    for _ in 0..<200 {
      let start = ContinuousClock.now
      if counts {
        _ = try database.read {
          try $0.countIssues(request, limit: IssueRequest.shownCountLimit + 1)
        }
      } else {
        _ = try database.read { try $0.fetchIssues(request, limit: 50) }
      }
      let elapsed = ContinuousClock.now - start
      samples.append(
        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    samples.sort()
    print(
      (counts ? "count" : "first page")
        + String(format: ": median %.2f ms, worst %.2f ms", samples[100], samples[199]))
    exit(0)
  case "--parse":
    // Only the reading of an import file, five times (for profiling): the file's bytes, then its
    // records made issues.
    let path = arguments.next() ?? ""
    for _ in 0..<5 {
      let start = ContinuousClock.now
      guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("DocketBench: cannot read \(path)\n".utf8))
        exit(1)
      }
      let bytes = [UInt8](data)
      let loaded = ContinuousClock.now
      let batch = try TransferReader.read(bytes)
      let done = ContinuousClock.now
      print("read \(loaded - start), records \(done - loaded): \(batch.issues.count) issues")
    }
    exit(0)
  case "--web":
    // Only the web timings, on an existing database (it gains and loses a tag).
    webDatabase = arguments.next()
  case "--transfer":
    // Only the import and export timings, beside an existing database (its folder gets the
    // corpus; imports into it go to a copy).
    transferDatabase = arguments.next()
  case "--sizes":
    sizes = (arguments.next() ?? "").split(separator: ",").compactMap { Int($0) }
  case "--runs":
    runs = Int(arguments.next() ?? "") ?? runs
  case "--keep":
    keepFolder = arguments.next()
  default:
    FileHandle.standardError.write(
      Data(
        """
        usage: DocketBench [--sizes 10000,100000] [--runs 31] [--keep FOLDER]
               DocketBench --web DB | --transfer DB | --keystrokes DB
               DocketBench --search DB TEXT | --count DB TEXT | --parse FILE

        """.utf8))
    exit(2)
  }
}

let now = Date(timeIntervalSince1970: 1_800_000_000)
let table = BenchmarkTable()
var memory: [(name: String, mebibytes: Double, budget: Double)] = []
var cliDatabasePath: String?
var foldersToRemove: [URL] = []
var listedIssues: Int?
/// The start-up comparison with the sqlite3 shell, printed after the table.
var comparisonLines: [String] = []
/// What `docket serve` used with its live pages open, printed after the memory.
var webLines: [String] = []

/// How many issues the database at `path` holds.
func issueCount(at path: String) throws -> Int {
  try DocketDatabase.open(path: path).read {
    try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self)
  } ?? 0
}

// Only one part, on an existing database: the table, the memory and that part's lines.
if let webDatabase {
  webTimings(database: webDatabase, size: try issueCount(at: webDatabase))
} else if let transferDatabase {
  transferTimings(database: transferDatabase, size: try issueCount(at: transferDatabase))
}
if webDatabase != nil || transferDatabase != nil {
  table.print()
  printMemory()
  for line in webLines { print(line) }
  exit(0)
}

// The whole-process timings run in a fresh, small copy of this program: Linux counts the memory
// of the process that starts a program in the program's peak, so a large parent would hide it.
if let cliDatabase {
  // First, while this process is small: a program it starts counts its size in the program's
  // peak memory.
  let size = try issueCount(at: cliDatabase)
  transferTimings(database: cliDatabase, size: size)
  // Before the sync timings, which grow this process (a program started after them was counted
  // at over 100 MiB, though it peaks at 16).
  try cliTimings(database: cliDatabase)
  syncTimings(database: cliDatabase, size: size)
  webTimings(database: cliDatabase, size: size)
  let tuiDatabase = try DocketDatabase.open(path: cliDatabase)
  let keystrokes = try await searchKeystrokeTimings(database: tuiDatabase)
  let keystrokeIssues =
    try tuiDatabase.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } ?? 0
  let budgets = Budgets.at(keystrokeIssues)
  table.add(
    name: "app: search keystroke → frame (after debounce)", size: keystrokeIssues,
    samples: keystrokes,
    budget: budgets?.keystrokeMedian, worstBudget: budgets?.keystrokeWorst)
  table.print(header: false)
  if let listedIssues { print("(docket list wrote \(listedIssues) open issues)") }
  if !comparisonLines.isEmpty {
    print("")
    print("start-up, whole process, against the sqlite3 shell on the same database (medians):")
    for line in comparisonLines { print(line) }
  }
  printMemory()
  for line in webLines { print(line) }
  if let binary = docketBinary(),
    let idle = idleAppMeasurements(binary: binary, database: cliDatabase)
  {
    print("")
    print("terminal app on this database (release binary in tmux, 160×48):")
    print(
      String(
        format: "  peak memory %6.1f MiB (budget 80) %@", idle.peakMiB,
        idle.peakMiB <= 80 ? "ok" : "OVER"))
    print(String(format: "  CPU over 10 s idle %5.2f s", idle.idleCPUSeconds))
  }
  exit(0)
}

for size in sizes {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-bench-\(UUID().uuidString)")
  if keepFolder == nil { foldersToRemove.append(folder) }
  let path: String
  let queue: DatabaseQueue
  if let keepFolder {
    // A kept database is generated once and reused: the benchmarks write (inserts, `docket add`),
    // so they run on a fresh copy of it each time. A million issues take minutes to generate.
    let kept = "\(keepFolder)/bench-\(size).sqlite"
    if !FileManager.default.fileExists(atPath: kept) {
      try FileManager.default.createDirectory(
        atPath: keepFolder, withIntermediateDirectories: true)
      try generate(size, at: kept + ".partial")
      try FileManager.default.moveItem(atPath: kept + ".partial", toPath: kept)
      for suffix in ["-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: kept + ".partial" + suffix)
      }
    } else {
      FileHandle.standardError.write(Data("reusing \(kept)\n".utf8))
    }
    // Only the main file is copied: the kept database is brought to the current schema once
    // (a million issues take minutes to migrate) and its log folded into the file first, so the
    // copy is whole and every run times the same file.
    let busy = try DocketDatabase.open(path: kept).withConnection {
      try $0.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)", as: Int.self)
    }
    precondition(busy == 0, "the kept database \(kept) is in use: its log cannot be folded in")
    path = "\(keepFolder)/bench-\(size).work.sqlite"
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    try FileManager.default.copyItem(atPath: kept, toPath: path)
    queue = try DocketDatabase.open(path: path, now: { now })
  } else {
    path = folder.appendingPathComponent("bench.sqlite").path
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try generate(size, at: path)
    queue = try DocketDatabase.open(path: path, now: { now })
  }

  let summaries = try queue.read { try $0.tagSummaries() }.sorted { $0.total > $1.total }
  let commonTag = summaries.first!
  let rareTag = summaries.last!
  // The tag nearest one issue in forty: where the query changes strategy.
  let middleTag = summaries.min { abs($0.total * 40 - size) < abs($1.total * 40 - size) }!

  let budgets = Budgets.at(size)
  func measure(_ name: String, budget: Double?, _ body: () throws -> Void) throws {
    for _ in 0..<3 { try body() }
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      try body()
      let elapsed = ContinuousClock.now - start
      samples.append(
        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    table.add(name: name, size: size, samples: samples, budget: budget)
  }

  func firstPage(_ request: IssueRequest) throws {
    let page = try queue.read { try $0.fetchIssues(request, limit: 50) }
    precondition(
      !page.isEmpty || request.filter == .tag(rareTag.tag.id), "empty page for \(request)")
  }

  let filters: [(String, IssueFilter)] = [
    ("open", .open), ("completed", .completed), ("recent", .recent),
    ("tag \(commonTag.tag.name) (\(commonTag.total))", .tag(commonTag.tag.id)),
    ("tag \(middleTag.tag.name) (\(middleTag.total))", .tag(middleTag.tag.id)),
    ("tag \(rareTag.tag.name) (\(rareTag.total))", .tag(rareTag.tag.id)),
  ]
  for (filterName, filter) in filters {
    for field in IssueSort.Field.allCases {
      for ascending in [false, true] {
        let sort = IssueSort(field: field, ascending: ascending)
        let request = IssueRequest(filter: filter, sort: sort, showCompleted: true, now: now)
        try measure(
          "first page: \(filterName), \(sort.storageValue)", budget: budgets?.firstPage
        ) {
          try firstPage(request)
        }
      }
    }
  }
  let textSearch = IssueRequest(
    filter: .open, search: try SearchParser.parse("fix build"), now: now)
  try measure("search: fix build (first page)", budget: budgets?.search) {
    try firstPage(textSearch)
  }
  let rareText = IssueRequest(
    filter: .open, search: try SearchParser.parse("translate release"), now: now)
  try measure("search: translate release (first page)", budget: budgets?.search) {
    try firstPage(rareText)
  }
  let tokenSearch = IssueRequest(
    filter: .open, search: try SearchParser.parse("tag:\(commonTag.tag.name) priority:high"),
    now: now)
  try measure("search: tag:\(commonTag.tag.name) priority:high", budget: budgets?.search) {
    try firstPage(tokenSearch)
  }
  try measure("sidebar counts", budget: budgets?.sidebar) {
    _ = try queue.read { try $0.filterCounts(now: now) }
  }
  try measure("tag counts", budget: budgets?.tagCounts) {
    _ = try queue.read { try $0.tagSummaries() }
  }

  var seed: UInt64 = 1000
  let insertRuns = min(runs, 7)
  var samples: [Double] = []
  for _ in 0..<insertRuns {
    seed += 1
    let batch = SyntheticData(issueCount: 1000, tagCount: 0, seed: seed, now: now)
    let start = ContinuousClock.now
    try queue.write { try batch.insert(into: $0) }
    let elapsed = ContinuousClock.now - start
    samples.append(
      Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
  }
  table.add(name: "insert 1000 issues (one transaction)", size: size, samples: samples, budget: nil)
  try undoTimings(of: queue, at: path, size: size, sidebarBudget: budgets?.sidebar)

  // Whole-process timings of the release binary, on the largest database only.
  guard size == sizes.max() else { continue }
  try queue.withConnection { _ = try $0.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)", as: Int.self) }
  cliDatabasePath = path
}

table.print()
if let cliDatabasePath {
  let output = cliDatabasePath + ".timings.txt"
  let errors = cliDatabasePath + ".errors.txt"
  let child = timeProcess(
    CommandLine.arguments[0], ["--cli-timings", cliDatabasePath, "--runs", String(runs)],
    outputPath: output,
    errorPath: errors)
  if let text = try? String(contentsOfFile: output, encoding: .utf8) { print(text, terminator: "") }
  if let text = try? String(contentsOfFile: errors, encoding: .utf8) {
    FileHandle.standardError.write(Data(text.utf8))
  }
  if child.status != 0 {
    FileHandle.standardError.write(
      Data("the whole-process timings failed (exit \(child.status))\n".utf8))
  }
}
for folder in foldersToRemove { try? FileManager.default.removeItem(at: folder) }

/// Generates the synthetic database of `size` issues at `path`, in one file (no journal left).
func generate(_ size: Int, at path: String) throws {
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  let queue = try DocketDatabase.open(path: path, now: { now })
  let generated = try ContinuousClock().measure {
    _ = try queue.write {
      try SyntheticData(issueCount: size, tagCount: 30, seed: 1, now: now).insert(into: $0)
    }
  }
  try queue.withConnection {
    try $0.execute("PRAGMA optimize")
    _ = try $0.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)", as: Int.self)
  }
  FileHandle.standardError.write(Data("generated \(size) issues in \(generated)\n".utf8))
}
