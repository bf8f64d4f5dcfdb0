import DocketTestSupport
import Foundation
import Terminal
import Testing

/// What a run of the docket binary printed and how it ended.
struct Run {
  var status: Int32
  var output: String
  var error: String

  var lines: [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
      output.hasSuffix("\n") ? 1 : 0)
  }

  func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(output.utf8)) }
}

/// A temporary home for one test: a database path inside it, and the built binary to run.
final class Sandbox: Sendable {
  private let directory: TemporaryDirectory
  let database: String
  var folder: URL { directory.url }

  static let binary: URL = {
    // A build elsewhere (`make stress` under the sanitizers) names its own.
    if let given = ProcessInfo.processInfo.environment["DOCKET_BINARY"] {
      return URL(fileURLWithPath: given)
    }
    // Tests/DocketCLITests/Support.swift → the package root → .build/debug/docket
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/docket")
  }()

  init() throws {
    directory = try TemporaryDirectory(prefix: "docket-cli")
    database = directory.path("docket.sqlite")
  }

  func path(_ name: String) -> String { directory.path(name) }

  /// A scripted editor for `EDITOR` or `VISUAL`: a shell script that does `body` to the file it
  /// is given. The command runs the script through `/bin/sh` rather than executing the file: a
  /// program another test spawns at the moment this one writes the file inherits the open
  /// descriptor, and executing a file open for writing fails with "Text file busy".
  func editor(_ body: String) throws -> String {
    let path = path("editor-\(UUID().uuidString).sh")
    try Data("\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
    return "/bin/sh '\(path)'"
  }

  /// Runs `docket` with `arguments` (and `--db` of this sandbox unless `database` is false), in
  /// English unless the environment says otherwise, with nothing on standard input.
  @discardableResult
  func docket(
    _ arguments: [String], database useDatabase: Bool = true,
    environment extra: [String: String] = [:],
    input: String? = nil
  ) throws -> Run {
    var environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    environment.merge(extra) { $1 }
    let outputFile = path("out-\(UUID().uuidString)")
    let errorFile = path("err-\(UUID().uuidString)")
    var inputFile = "/dev/null"
    if let input {
      inputFile = path("in-\(UUID().uuidString)")
      try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile))
    }
    defer {
      for file in [outputFile, errorFile] + (input == nil ? [] : [inputFile]) {
        try? FileManager.default.removeItem(atPath: file)
      }
    }
    let status = try Child.run(
      Self.binary.path, (useDatabase ? ["--db", database] : []) + arguments,
      environment: environment, input: inputFile, output: outputFile, error: errorFile)
    return Run(
      status: status,
      output: try String(contentsOfFile: outputFile, encoding: .utf8),
      error: try String(contentsOfFile: errorFile, encoding: .utf8))
  }

  /// What sqlite3 prints for `sql` on `database`.
  func sqlite(_ database: String, _ sql: String) throws -> String {
    let output = path("sqlite-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(atPath: output) }
    _ = try Child.run("/usr/bin/sqlite3", [database, sql], output: output)
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  /// SQLite's integrity check and FTS5's, as sqlite3 prints them: "ok\n" when the database and
  /// its search index are whole.
  func integrityCheck(_ database: String) throws -> String {
    try sqlite(
      database,
      "PRAGMA integrity_check; INSERT INTO issue_fts(issue_fts) VALUES ('integrity-check');")
  }

  /// Writes a file in Docket's own format with `count` issues (each with a fresh id, tagged
  /// `tag` when given) for `docket import`, and returns its path.
  func docketFile(
    _ name: String, count: Int, tag: String? = nil,
    issue: (Int) -> (title: String, detail: String, completed: Bool)
  ) throws -> String {
    let tagID = "00000000-0000-0000-0000-00000000000a"
    let tags = tag.map { "{\"id\":\"\(tagID)\",\"name\":\"\($0)\"}" } ?? ""
    var lines = ["{\"format\":\"docket\",\"version\":1,\"tags\":[\(tags)],\"issues\":["]
    for index in 0..<count {
      let (title, detail, completed) = issue(index)
      lines.append(
        (index == 0 ? "" : ",")
          + "{\"id\":\"\(UUID().uuidString.lowercased())\",\"title\":\"\(title)\",\"detail\":\"\(detail)\",\"priority\":\"medium\",\"completed\":\(completed),\"created\":\"2026-01-01T00:00:00Z\",\"modified\":null,\"tags\":[\(tag == nil ? "" : "\"\(tagID)\"")]}"
      )
    }
    lines.append("]}")
    let file = path(name)
    try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Adds an issue and returns its reference.
  func add(_ arguments: [String]) throws -> String {
    let run = try docket(["add"] + arguments)
    #expect(run.status == 0, "add failed: \(run.error)")
    return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// A program started with `posix_spawn` and waited for with `waitpid`: standard input from
/// /dev/null, output to a file or nowhere. Foundation's `Process` on Linux now and then misses
/// the end of a child killed at once, and the test then waits for ever; this never does.
struct Child {
  let pid: pid_t

  init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String = "/dev/null", output: String = "/dev/null", error: String = "/dev/null"
  ) throws {
    // Signals as a new program expects them: none blocked (the test's thread blocks some), each
    // to its default.
    pid = try SpawnedProgram.start(
      executable, arguments, environment: environment, input: input, output: output, error: error,
      defaultingAll: true)
  }

  /// Waits for the end; the exit status, or 128 + the signal that ended it.
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      // Another waiter took it: its status is unknown, and never counts as success.
      guard errno == EINTR else { return -1 }
    }
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// Runs to the end: its status.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String = "/dev/null", output: String = "/dev/null", error: String = "/dev/null"
  ) throws -> Int32 {
    try Child(
      executable, arguments, environment: environment, input: input, output: output, error: error
    ).wait()
  }
}
