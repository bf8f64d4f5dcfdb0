import Foundation
import Locking
import Testing

@testable import DocketCLI

/// `docket import` and `docket export` as a person runs them: files, standard input, dry runs,
/// summaries, refusals that change nothing, and the real Taskwarrior on both sides.
@Suite struct ImportExportCommandTests {
  let box: Sandbox

  init() throws { box = try Sandbox() }

  func write(_ name: String, _ text: String) throws -> String {
    let path = box.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static let githubIssues = """
    [
      {"number": 7, "title": "Crash on start", "body": "", "labels": [{"name": "needs triage"}], "state": "OPEN", "createdAt": "2025-11-01T08:00:00Z", "updatedAt": "2025-11-02T08:00:00Z", "closedAt": null},
      {"number": 8, "title": "Dark mode", "body": "Please.", "labels": [{"name": "enhancement"}, {"name": "UI"}], "state": "CLOSED", "createdAt": "2025-11-01T09:00:00Z", "updatedAt": "2025-11-03T09:00:00Z", "closedAt": "2025-11-03T09:00:00Z"}
    ]
    """

  @Test func githubImportSaysWhatItDidAndASecondUpdates() throws {
    let file = try write("issues.json", Self.githubIssues)
    let dry = try box.docket(["import", file, "--repo", "acme/app", "--dry-run"])
    #expect(dry.status == 0, "\(dry.error)")
    #expect(
      dry.output
        == "Dry run, nothing written. An import would give: 2 issues and 3 tags new.\n")
    #expect(try box.docket(["list", "--filter", "all", "--json"]).output == "[]\n")
    let first = try box.docket(["import", file, "--repo", "acme/app"])
    #expect(first.output == "Imported: 2 issues and 3 tags new.\n")
    #expect(first.error == "", "no progress display off a terminal")
    // Without the repository named, the issues would be matched by number alone: said.
    let unnamed = try box.docket(["import", file, "--dry-run"])
    #expect(unnamed.error.contains("does not name its GitHub repository"), "\(unnamed.error)")
    let changed = try write(
      "issues2.json",
      Self.githubIssues.replacingOccurrences(of: "Crash on start", with: "Crash at start"))
    let second = try box.docket(["import", changed, "--repo", "acme/app", "--json"])
    let summary = try #require(try second.json() as? [String: Any])
    #expect(summary["format"] as? String == "github")
    #expect(summary["updated"] as? Int == 1)
    #expect(summary["unchanged"] as? Int == 1)
    #expect((summary["created"] as? [String: Int]) == ["issues": 0, "tags": 0])
    let listed = try #require(
      try box.docket(["list", "--filter", "all", "--json"]).json() as? [[String: Any]])
    #expect(listed.count == 2)
    #expect(listed.contains { $0["title"] as? String == "Crash at start" })
    let german = try box.docket(["import", changed, "--repo", "acme/app", "--lang", "de"])
    #expect(german.output == "Importiert: 0 Vorgänge und 0 Tags neu, 2 unverändert.\n")
  }

  /// A file that cannot be imported names the first bad record, exits 1, and leaves the database
  /// file as it was, byte for byte.
  @Test(arguments: [
    ("not json at all", "line 1: found n where a value should be"),
    ("[{\"number\": 1}]", "not a file Docket can import"),
    (
      "[{\"number\": 1, \"title\": \"a\", \"state\": \"OPEN\", \"createdAt\": \"2025-11-01T08:00:00Z\"},\n {\"number\": 2, \"title\": \"b\", \"state\": \"OPEN\", \"createdAt\": \"yesterday\"}]",
      "line 2, record 2: “yesterday” is not a valid createdAt"
    ),
    (
      "[{\"number\": 1, \"title\": \"a\", \"state\": \"OPEN\", \"createdAt\": \"2025-11-01T08:00:00Z\"},\n {\"number\": 2, \"title\": \"b\", \"sta",
      "line 2, record 2: the file ends in the middle (cut off?)"
    ),
  ])
  func aBadFileChangesNothing(text: String, message: String) throws {
    _ = try box.add(["Already here"])
    let before = try Data(contentsOf: URL(fileURLWithPath: box.database))
    let file = try write("bad.json", text)
    let run = try box.docket(["import", file])
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("docket: cannot import \(file): "), "\(run.error)")
    #expect(run.error.contains(message), "\(run.error)")
    #expect(run.error.hasSuffix(". Nothing was imported.\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: box.database)) == before)
  }

  @Test func invalidUTF8IsNamedAndNothingChanges() throws {
    _ = try box.add(["Already here"])
    let before = try Data(contentsOf: URL(fileURLWithPath: box.database))
    var bytes = Array("[{\"number\": 1, \"title\": \"caf".utf8)
    bytes += [0xE9]  // Latin-1, not UTF-8
    bytes += Array("\", \"state\": \"OPEN\", \"createdAt\": \"2025-11-01T08:00:00Z\"}]".utf8)
    let path = box.path("latin1.json")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let run = try box.docket(["import", path])
    #expect(run.status == 1)
    #expect(run.error.contains("bytes that are not UTF-8 text"), "\(run.error)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: box.database)) == before)
    let missing = try box.docket(["import", box.path("nothing-here.json")])
    #expect(missing.status == 1 && missing.error.contains("cannot read"))
    let wrongFormat = try box.docket(["import", path, "--format", "csv"])
    #expect(wrongFormat.status == 2)
    let empty = try write("empty.json", " \n")
    let nothing = try box.docket(["import", empty])
    #expect(nothing.status == 1)
    #expect(nothing.error == "docket: \(empty) is empty: there is nothing to import.\n")
  }

  /// `-o` naming what is no file (a pipe, a device) writes to it as it is, never replacing it;
  /// naming a folder is refused with the reason.
  @Test func exportsIntoAPipeWithoutReplacingIt() throws {
    #expect(try box.docket(["add", "Through a pipe"]).status == 0)
    let pipe = box.path("pipe")
    try #require(mkfifo(pipe, 0o600) == 0)
    // The test is the reader, there before the writer, so the writer never waits for one; the
    // export (one issue) fits in the pipe's buffer, read once the writer is done.
    let reader = open(pipe, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let run = try box.docket(["export", "-o", pipe])
    #expect(run.status == 0, "\(run.error)")
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while case let count = read(reader, &buffer, buffer.count), count > 0 {
      received += buffer[..<count]
    }
    let text = String(decoding: received, as: UTF8.self)
    #expect(text.hasPrefix(#"{"format":"docket""#) && text.contains("Through a pipe"))
    var status = stat()
    #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    let folder = try box.docket(["export", "-o", box.folder.path])
    #expect(folder.status == 1)
    #expect(
      folder.error.contains(": Is a directory; nothing was written there."), "\(folder.error)")
  }

  /// A CSV export read on a terminal shows what a title holds, and obeys none of it: its cells
  /// are as stored, so an escape sequence would otherwise reach the terminal raw.
  @Test func anExportOnATerminalIsSafeThere() throws {
    #expect(try box.docket(["add", "Evil \u{1B}[31mred\u{1B}[0m é 🐛"]).status == 0)
    let output = Locked("")
    let console = Console(
      write: { text in output.withLock { $0 += text } }, writeError: { _ in },
      readLine: { nil }, outputIsTerminal: true, inputIsTerminal: true, width: 80, colors: false)
    let status = DocketCommandLine(
      arguments: ["export", "--format", "csv", "--db", box.database], environment: ["LANG": "C"],
      console: console
    ).run()
    let text = output.withLock { $0 }
    #expect(status == 0)
    #expect(text.contains("Evil ␛[31mred␛[0m é 🐛"), "\(text)")
    // Lines end in a line break alone there: a carriage return would show as a picture.
    #expect(!text.contains("\u{1B}") && !text.contains("␍"))
  }

  /// Pieces of output that end inside a character are shown whole, never as replacements.
  @Test func aTerminalStreamWaitsForTheRestOfACharacter() {
    var shown = ""
    let stream = TerminalSafeStream { shown += $0 }
    for byte in Array("é 🐛 ✓\u{7}\r\nnext".utf8) { [byte].withUnsafeBytes { stream.take($0) } }
    stream.finish()
    #expect(shown == "é 🐛 ✓␇\nnext")
  }

  @Test func exportsToAFileAndBackFromStandardInput() throws {
    _ = try box.add(["First", "--tag", "UI Design", "--priority", "high"])
    _ = try box.add(["=SUM(A1)", "--detail", "line one\nline, two"])
    let backup = box.path("backup.json")
    let run = try box.docket(["export", "-o", backup])
    #expect(run.status == 0 && run.output == "")
    let text = try String(contentsOfFile: backup, encoding: .utf8)
    #expect(text.hasPrefix("{\"format\":\"docket\",\"version\":1,"))
    // No temporary file is left beside it.
    let siblings = try FileManager.default.contentsOfDirectory(atPath: box.folder.path)
    #expect(!siblings.contains { $0.hasSuffix(".tmp") })
    let other = try Sandbox()
    let imported = try other.docket(["import", "-"], input: text)
    #expect(imported.output == "Imported: 2 issues and 1 tag new.\n", "\(imported.error)")
    let original = try box.docket(["list", "--filter", "all", "--json"]).output
    #expect(try other.docket(["list", "--filter", "all", "--json"]).output == original)
    let csvPath = box.path("issues.csv")
    #expect(try box.docket(["export", "--format", "csv", "-o", csvPath]).status == 0)
    let csv = [UInt8](try Data(contentsOf: URL(fileURLWithPath: csvPath)))
    #expect(csv.starts(with: [0xEF, 0xBB, 0xBF]), "a byte order mark, for spreadsheets")
    let csvText = String(decoding: csv.dropFirst(3), as: UTF8.self)
    #expect(csvText.hasPrefix("id,title,detail,priority,completed,created,modified,tags\r\n"))
    #expect(csvText.contains(",'=SUM(A1),\"line one\nline, two\",low,"))
    // A new file is private, as the database is.
    let made = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
    #expect(made == 0o600)
    // Written again over a file of its own: the file keeps its permissions.
    // Writable by others, as no usual umask (022, 002, 077) leaves a new file.
    chmod(backup, 0o646)
    #expect(try box.docket(["export", "-o", backup]).status == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
    #expect(mode == 0o646)
    // A folder that does not exist: a clear error, nothing written.
    let nowhere = try box.docket(["export", "-o", box.path("no/such/folder/x.json")])
    #expect(nowhere.status == 1)
    #expect(
      nowhere.error
        == "docket: cannot write \(box.path("no/such/folder/x.json")): No such file or directory; nothing was written there.\n",
      "\(nowhere.error)")
  }

  // MARK: Taskwarrior, the real one

  /// A Taskwarrior of its own, in a folder of the sandbox.
  func task(_ arguments: [String], data: String, input: String? = nil) throws -> String {
    let rc = box.path("taskrc-\(URL(fileURLWithPath: data).lastPathComponent)")
    if !FileManager.default.fileExists(atPath: rc) {
      try "data.location=\(data)\nconfirmation=off\nverbose=nothing\n".write(
        toFile: rc, atomically: true, encoding: .utf8)
    }
    var inputFile = "/dev/null"
    if let input {
      inputFile = box.path("task-input-\(UUID().uuidString)")
      try input.write(toFile: inputFile, atomically: true, encoding: .utf8)
    }
    let output = box.path("task-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(atPath: output) }
    _ = try Child.run(
      "/usr/bin/task", ["rc:" + rc] + arguments,
      environment: ["HOME": box.folder.path, "PATH": "/usr/bin:/bin"], input: inputFile,
      output: output)
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  @Test func fromTaskwarriorAndBack() throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/task"),
      "make deps installs taskwarrior")
    let tasks = box.path("tasks")
    _ = try task(
      ["add", "Fix the build", "+ci", "+linux", "priority:H", "project:docket.core"], data: tasks)
    _ = try task(["1", "annotate", "looked at the logs"], data: tasks)
    _ = try task(["add", "Write docs", "priority:L"], data: tasks)
    _ = try task(["add", "Weekly review", "recur:weekly", "due:tomorrow"], data: tasks)
    _ = try task(["add", "Gone"], data: tasks)
    _ = try task(["add", "Shipped", "priority:M"], data: tasks)
    _ = try task(["add", "Plain"], data: tasks)
    _ = try task(["/Gone/", "delete"], data: tasks)
    _ = try task(["/Shipped/", "done"], data: tasks)
    let exported = try task(["export"], data: tasks)
    let imported = try box.docket(["import", "-"], input: exported)
    #expect(imported.status == 0, "\(imported.error)")
    // The recurring task: its template skipped, its first instance an issue.
    #expect(
      imported.output
        == "Imported: 5 issues and 3 tags new, 1 deleted task skipped, 1 recurring template skipped.\n"
    )
    let issues = try #require(
      try box.docket(["list", "--filter", "all", "--json"]).json() as? [[String: Any]])
    let byTitle = Dictionary(uniqueKeysWithValues: issues.map { ($0["title"] as! String, $0) })
    #expect(
      Set(byTitle.keys) == ["Fix the build", "Write docs", "Weekly review", "Shipped", "Plain"])
    #expect(byTitle["Fix the build"]?["priority"] as? String == "high")
    #expect(
      (byTitle["Fix the build"]?["tags"] as? [String])?.sorted() == ["ci", "docket.core", "linux"])
    #expect(byTitle["Shipped"]?["completed"] as? Bool == true)
    #expect(byTitle["Plain"]?["priority"] as? String == "low")
    let detail = try box.docket(["show", byTitle["Fix the build"]!["ref"] as! String]).output
    #expect(detail.contains("  looked at the logs"))
    #expect(detail.contains("Taskwarrior:\nproject: docket.core"))
    // A second import of the same tasks updates nothing and makes nothing.
    #expect(
      try box.docket(["import", "-"], input: exported).output
        == "Imported: 0 issues and 0 tags new, 5 unchanged, 1 deleted task skipped, 1 recurring template skipped.\n"
    )

    // Back into an empty Taskwarrior: the same tasks.
    let back = box.path("back")
    let written = try box.docket(["export", "--format", "taskwarrior"]).output
    _ = try task(["import"], data: back, input: written)
    func taskList(in data: String) throws -> [String: [String: Any]] {
      let list =
        try JSONSerialization.jsonObject(with: Data(try task(["export"], data: data).utf8))
        as! [[String: Any]]
      return Dictionary(
        uniqueKeysWithValues: list.filter {
          ["pending", "completed", "waiting"].contains($0["status"] as! String)
        }
        .map { ($0["uuid"] as! String, $0) })
    }
    let before = try taskList(in: tasks)
    let after = try taskList(in: back)
    #expect(Set(after.keys) == Set(before.keys))
    for (uuid, original) in before {
      let copy = try #require(after[uuid])
      for field in ["description", "status", "priority", "project", "entry", "due", "recur"] {
        #expect(
          (copy[field] as? String) == (original[field] as? String),
          "\(original["description"]!): \(field)")
      }
      #expect(
        Set(copy["tags"] as? [String] ?? []) == Set(original["tags"] as? [String] ?? []),
        "\(original["description"]!): tags")
      let notes = { (task: [String: Any]) in
        (task["annotations"] as? [[String: Any]] ?? []).map {
          "\($0["entry"]!) \($0["description"]!)"
        }
      }
      #expect(notes(copy) == notes(original), "\(original["description"]!): annotations")
    }
    // Exported again into the same Taskwarrior: updated, not duplicated.
    _ = try task(["import"], data: back, input: written)
    #expect(try taskList(in: back).count == before.count)
  }

  /// Docket's issues through the real Taskwarrior and back change nothing: a detail of several
  /// lines, a tag with a space, exact times and an issue never modified come back as they were,
  /// and importing the same tasks again reports nothing updated.
  @Test func fromDocketThroughTaskwarriorAndBack() throws {
    try box.docket(["sample-data"])
    try box.docket(
      ["add", "Several lines", "--detail", "first\nsecond\n\nthird", "--tag", "UI Design"])
    let before = try box.docket(["list", "--filter", "all", "--json"]).output
    let written = try box.docket(["export", "--format", "taskwarrior"]).output
    let tasks = box.path("round")
    _ = try task(["import"], data: tasks, input: written)
    let exported = try task(["export"], data: tasks)
    for _ in 0..<2 {
      let imported = try box.docket(["import", "-"], input: exported)
      #expect(imported.status == 0, "\(imported.error)")
      #expect(
        imported.output == "Imported: 0 issues and 0 tags new, 13 unchanged.\n",
        "\(imported.output)")
    }
    #expect(try box.docket(["list", "--filter", "all", "--json"]).output == before)
    #expect(try box.docket(["tag", "list"]).output.contains("UI_Design") == false)
  }
}
