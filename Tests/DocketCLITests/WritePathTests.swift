import DocketCore
import Foundation
import Testing

/// The write path as people meet it: an editor open for minutes while other shells change the
/// same issue, and reads while another program writes.
@Suite struct WritePathTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  func issue(_ reference: String) throws -> [String: Any] {
    try #require(try box.docket(["show", reference, "--json"]).json() as? [String: Any])
  }

  /// While the editor is open, another shell closes the issue and adds a tag; then the editor
  /// changes the title and adds a tag of its own. Nothing is lost.
  @Test func anEditorSaveKeepsWhatOtherShellsChangedMeanwhile() throws {
    let reference = try box.add(["Draft", "--tag", "A"])
    let docket = Sandbox.binary.path
    let editor = try box.editor(
      """
      "\(docket)" --db "\(box.database)" close \(reference) >/dev/null || exit 3
      "\(docket)" --db "\(box.database)" edit \(reference) --tag=+B >/dev/null || exit 4
      sleep 0.2
      sed -i 's/^Title: .*/Title: Edited in the editor/; s/^Tags: .*/Tags: A, C/' "$1"
      """)
    let run = try box.docket(["edit", reference], environment: ["EDITOR": editor])
    #expect(run.status == 0, "\(run.error)")
    let stored = try issue(reference)
    #expect(stored["title"] as? String == "Edited in the editor")
    #expect(stored["completed"] as? Bool == true)
    #expect(stored["tags"] as? [String] == ["A", "B", "C"])
    // Nothing was overwritten, so nothing is reported.
    #expect(!run.error.contains("Changed elsewhere"))
  }

  /// A field changed in both places takes the editor's value, and the command says which.
  @Test func aFieldChangedInBothPlacesTakesTheEditorsValueAndIsNamed() throws {
    let reference = try box.add(["Draft"])
    let docket = Sandbox.binary.path
    let editor = try box.editor(
      """
      "\(docket)" --db "\(box.database)" edit \(reference) --title "From another shell" --priority high >/dev/null || exit 3
      sed -i 's/^Title: .*/Title: From the editor/' "$1"
      """)
    let run = try box.docket(["edit", reference], environment: ["EDITOR": editor])
    #expect(run.status == 0, "\(run.error)")
    let stored = try issue(reference)
    #expect(stored["title"] as? String == "From the editor")
    #expect(stored["priority"] as? String == "high")
    #expect(run.error == "Saved. Changed elsewhere meanwhile, and now as in this edit: title.\n")
  }

  /// An issue deleted while its form was open stays deleted, and the command says so.
  @Test func anIssueDeletedWhileEditedIsAClearError() throws {
    let reference = try box.add(["Doomed"])
    let docket = Sandbox.binary.path
    let editor = try box.editor(
      """
      "\(docket)" --db "\(box.database)" delete \(reference) --yes >/dev/null || exit 3
      sed -i 's/^Title: .*/Title: Too late/' "$1"
      """)
    let run = try box.docket(["edit", reference], environment: ["EDITOR": editor])
    #expect(run.status == 1)
    #expect(run.error.contains("was deleted while it was being edited"))
    #expect(try box.docket(["list", "--filter", "all"]).output.isEmpty)
  }

  /// Flags read and write in one transaction: two shells adding different tags at once keep both.
  @Test func concurrentFlagEditsKeepEveryTag() throws {
    let reference = try box.add(["Shared"])
    let tags = (0..<8).map { "T\($0)" }
    let runs = try tags.map { tag in
      try Child(Sandbox.binary.path, ["--db", box.database, "edit", reference, "--tag", tag])
    }
    #expect(runs.map { $0.wait() } == Array(repeating: 0, count: tags.count))
    #expect(try issue(reference)["tags"] as? [String] == tags)
  }

  /// Another program holds the write lock for the whole test (a long import, a sync): every read
  /// command still answers. Had one waited for the lock it would have failed after the ten-second
  /// busy timeout with "database is locked".
  @Test func readCommandsNeverWaitForAWriter() throws {
    let reference = try box.add(["Readable", "--tag", "Bug"])
    let writer = try DocketDatabase.connection(path: box.database)
    try writer.execute("BEGIN IMMEDIATE")
    try writer.execute("UPDATE issues SET title = 'Uncommitted'")
    defer { try? writer.execute("ROLLBACK") }
    let started = ContinuousClock.now
    for arguments in [
      ["list"], ["list", "tag:Bug", "--json"], ["list", "--filter", "all", "--limit", "5"],
      ["show", reference], ["tag", "list"], ["tag", "list", "--json"], ["awards"],
      ["completions", "bash"],
    ] {
      let run = try box.docket(arguments)
      #expect(run.status == 0, "\(arguments): \(run.error)")
      #expect(!run.output.contains("Uncommitted"), "\(arguments) saw an uncommitted write")
    }
    // Eight commands; one that waited for the lock alone would take ten seconds.
    #expect(ContinuousClock.now - started < .seconds(8))
  }
}

/// Tag flags of `docket edit`: the last word about a name counts.
@Suite struct EditTagFlagTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func addingThenRemovingANameLeavesItOffAndMakesNoTag() throws {
    let reference = try box.add(["Tagged", "--tag", "Keep"])
    let run = try box.docket(["edit", reference, "--tag", "+Temp", "--tag", "-temp"])
    #expect(run.status == 0)
    let tags = try box.docket(["tag", "list", "--json"]).json() as? [[String: Any]]
    #expect(tags?.compactMap { $0["name"] as? String } == ["Keep"])
    _ = try box.docket(["edit", reference, "--tag", "-keep", "--tag", "+Keep"])
    let issue = try box.docket(["show", reference, "--json"]).json() as? [String: Any]
    #expect(issue?["tags"] as? [String] == ["Keep"])
  }
}
