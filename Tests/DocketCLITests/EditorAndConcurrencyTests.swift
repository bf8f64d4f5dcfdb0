import DocketCLI
import Foundation
import Locking
import Testing

@Suite struct EditorTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  @Test func theEditorChangesFieldsTagsAndDetail() throws {
    let reference = try box.add(["Draft", "--tag", "Bug"])
    let script = try box.editor(
      """
      sed -i 's/^Title: .*/Title: Final title/; s/^Priority: .*/Priority: high/; s/^Completed: .*/Completed: yes/; s/^Tags: .*/Tags: Bug, Brand New/' "$1"
      printf 'First line of detail\\n# not a comment here\\n' >> "$1"
      """)
    let run = try box.docket(["edit", reference], environment: ["EDITOR": script])
    #expect(run.status == 0, "\(run.error)")
    let issue = try #require(
      try box.docket(["show", reference, "--json"]).json() as? [String: Any])
    #expect(issue["title"] as? String == "Final title")
    #expect(issue["priority"] as? String == "high")
    #expect(issue["completed"] as? Bool == true)
    #expect(issue["tags"] as? [String] == ["Brand New", "Bug"])
    #expect(issue["detail"] as? String == "First line of detail\n# not a comment here")
  }

  @Test func visualWinsOverEditor() throws {
    let reference = try box.add(["Draft"])
    let visual = try box.editor("sed -i 's/^Title: .*/Title: From visual/' \"$1\"")
    let plain = try box.editor("sed -i 's/^Title: .*/Title: From editor/' \"$1\"")
    _ = try box.docket(["edit", reference], environment: ["VISUAL": visual, "EDITOR": plain])
    #expect(try box.docket(["show", reference]).lines.first?.hasPrefix("From visual") == true)
  }

  @Test func anUnchangedFileChangesNothing() throws {
    let reference = try box.add(["Untouched"])
    let run = try box.docket(["edit", reference], environment: ["EDITOR": "true"])
    #expect(run.status == 0)
    #expect(run.error == "Nothing changed.\n")
    let issue = try #require(
      try box.docket(["show", reference, "--json"]).json() as? [String: Any])
    #expect(issue["modified"] is NSNull)
  }

  @Test func aFormThatDoesNotParseLeavesTheIssueAsItWas() throws {
    let reference = try box.add(["Keep me", "--priority", "medium"])
    let before = try box.docket(["show", reference, "--json"]).output
    for (script, reason) in [
      (
        "sed -i 's/^Priority: .*/Priority: urgent/' \"$1\"",
        "the priority must be low, medium or high, not “urgent”"
      ),
      ("sed -i 's/^Title: .*/Title:/' \"$1\"", "the title is missing or empty"),
      ("sed -i 's/^Tags:/Labels:/' \"$1\"", "unknown field “Labels”"),
      (
        "sed -i 's/^Completed: .*/Completed: maybe/' \"$1\"",
        "Completed must be yes or no, not “maybe”"
      ),
    ] {
      let run = try box.docket(
        ["edit", reference], environment: ["EDITOR": try box.editor(script)])
      #expect(run.status == 1)
      #expect(run.error.contains(reason), "\(run.error)")
      #expect(run.error.hasSuffix("the issue was left as it was.\n"))
    }
    #expect(try box.docket(["show", reference, "--json"]).output == before)
  }

  /// Each mistake is reported at the line it is on, counted as the editor counts them.
  @Test func aFormErrorNamesTheLineOfItsField() throws {
    let reference = try box.add(["Keep me"])
    for (field, script) in [
      ("Priority:", "sed -i 's/^Priority: .*/Priority: urgent/' \"$1\""),
      ("Completed:", "sed -i 's/^Completed: .*/Completed: maybe/' \"$1\""),
      ("Title:", "sed -i 's/^Title: .*/Title:/' \"$1\""),
    ] {
      let form = box.path("form.txt")
      let run = try box.docket(
        ["edit", reference],
        environment: ["EDITOR": try box.editor("cp \"$1\" '\(form)'\n" + script)])
      let lines = try String(contentsOfFile: form, encoding: .utf8).components(separatedBy: "\n")
      let number = try #require(lines.firstIndex { $0.hasPrefix(field) }) + 1
      #expect(run.status == 1)
      #expect(run.error.contains("line \(number)"), "\(field) \(run.error)")
    }
  }

  /// A tag whose name holds a comma is written in quotes, so a form saved with only its title
  /// changed keeps the tag as it was.
  @Test func aTagWithACommaSurvivesTheForm() throws {
    let reference = try box.add([
      "Tagged", "--tag", "x,y", "--tag", "\"quoted\" one", "--tag", "Bug",
    ])
    let script = try box.editor("sed -i 's/^Title: .*/Title: Renamed/' \"$1\"")
    let run = try box.docket(["edit", reference], environment: ["EDITOR": script])
    #expect(run.status == 0, "\(run.error)")
    let issue = try #require(
      try box.docket(["show", reference, "--json"]).json() as? [String: Any])
    #expect(issue["title"] as? String == "Renamed")
    #expect(Set(issue["tags"] as? [String] ?? []) == ["x,y", "\"quoted\" one", "Bug"])
    let tags = try box.docket(["tag", "list", "--json"]).output
    #expect(!tags.contains("\"name\":\"x\""), "\(tags)")
    // Written by hand, a quoted name with a comma is one tag too.
    let added = try box.editor("sed -i 's/^Tags: .*/Tags: Bug, \"a, b\"/' \"$1\"")
    #expect(try box.docket(["edit", reference], environment: ["EDITOR": added]).status == 0)
    let after = try #require(
      try box.docket(["show", reference, "--json"]).json() as? [String: Any])
    #expect(Set(after["tags"] as? [String] ?? []) == ["a, b", "Bug"])
  }

  /// A title is one line where it is typed; one an older version stored over two lines is
  /// shown on one and stays editable.
  @Test func aTitleIsOneLine() throws {
    let refused = try box.docket(["add", "first\nsecond"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("A title is one line"), "\(refused.error)")
    let reference = try box.add(["Plain"])
    #expect(try box.docket(["edit", reference, "--title", "a\nb"]).status == 2)
    let before = try box.sqlite(box.database, "SELECT count(*) FROM sqlite_master")
    // By hand, as an older version left it (the triggers on a title call Docket's own
    // functions, which the sqlite3 shell has not, so they are set aside meanwhile).
    let triggers = try box.sqlite(
      box.database,
      """
      SELECT group_concat(sql, ';') FROM sqlite_master
      WHERE name IN ('issues_capture_update', 'issues_after_text_update')
      """)
    _ = try box.sqlite(
      box.database,
      """
      DROP TRIGGER issues_capture_update; DROP TRIGGER issues_after_text_update;
      INSERT INTO issue_fts (issue_fts, rowid, title, detail)
        SELECT 'delete', seq, title, detail FROM issues;
      UPDATE issues SET title = 'old' || char(10) || 'title';
      INSERT INTO issue_fts (rowid, title, detail) SELECT seq, title, detail FROM issues;
      \(triggers.trimmingCharacters(in: .whitespacesAndNewlines));
      """)
    #expect(try box.sqlite(box.database, "SELECT count(*) FROM sqlite_master") == before)
    let script = try box.editor("printf 'A detail\\n' >> \"$1\"")
    let run = try box.docket(["edit", reference], environment: ["EDITOR": script])
    #expect(run.status == 0, "\(run.error)")
    let issue = try #require(
      try box.docket(["show", reference, "--json"]).json() as? [String: Any])
    #expect(issue["detail"] as? String == "A detail")
    // Left as it was stored: only the detail was edited.
    #expect(issue["title"] as? String == "old\ntitle")
  }

  /// The form is in a folder of its own that only its owner may enter, in a file only its owner
  /// may read, both gone afterwards; a file left that is not UTF-8 is refused, said in words.
  @Test func theFormIsPrivateAndTextThatIsNotUTF8IsRefused() throws {
    let reference = try box.add(["Private"])
    let seen = box.path("seen.txt")
    let script = try box.editor(
      """
      stat -c '%a' "$1" "$(dirname "$1")" > '\(seen)' 2>/dev/null \\
        || stat -f '%Lp' "$1" "$(dirname "$1")" > '\(seen)'
      echo "$1" >> '\(seen)'
      printf 'Title: \\377\\376\\n' > "$1"
      """)
    let run = try box.docket(["edit", reference], environment: ["EDITOR": script])
    #expect(run.status == 1)
    #expect(
      run.error
        == "docket: the editor left a file that is not UTF-8 text; the issue was left as it was.\n"
    )
    let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
    #expect(lines.prefix(2) == ["600", "700"])
    let form = String(try #require(lines.last))
    #expect(!FileManager.default.fileExists(atPath: form))
    #expect(!FileManager.default.fileExists(atPath: (form as NSString).deletingLastPathComponent))
    #expect(try box.docket(["show", reference]).lines.first?.hasPrefix("Private") == true)
  }

  @Test func aFailingEditorLeavesTheIssueAsItWas() throws {
    let reference = try box.add(["Keep me"])
    let run = try box.docket(["edit", reference], environment: ["EDITOR": "false"])
    #expect(run.status == 1)
    #expect(
      run.error == "docket: the editor (false) ended with status 1; the issue was left as it was.\n"
    )
  }
}

@Suite struct ConfirmationTests {
  /// The confirmation on a terminal, through the library with a scripted console.
  func run(_ arguments: [String], answer: String?, database: String) -> (Int32, String) {
    let output = Locked("")
    let console = Console(
      write: { text in output.withLock { $0 += text } },
      writeError: { text in output.withLock { $0 += text } },
      readLine: { answer }, outputIsTerminal: true, inputIsTerminal: true, width: 100, colors: false
    )
    let status = DocketCommandLine(
      arguments: arguments + ["--db", database], environment: ["LANG": "C"], console: console
    ).run()
    return (status, output.withLock { $0 })
  }

  @Test func onATerminalDeleteAsksAndOnlyYesDeletes() throws {
    let box = try Sandbox()
    let reference = try box.add(["Maybe doomed"])
    let (noStatus, noOutput) = run(["delete", reference], answer: "n", database: box.database)
    #expect(noStatus == 0)
    #expect(
      noOutput == "  \(reference)  Maybe doomed\nDelete 1 issue? [y/N] Nothing was deleted.\n")
    #expect(try box.docket(["show", reference]).status == 0)
    let (endStatus, _) = run(["delete", reference], answer: nil, database: box.database)
    #expect(endStatus == 0)
    #expect(try box.docket(["show", reference]).status == 0)
    let (yesStatus, yesOutput) = run(["delete", reference], answer: "yes", database: box.database)
    #expect(yesStatus == 0)
    // Deleted, and how to take it back said to the person who asked.
    #expect(
      yesOutput.hasSuffix(
        "Deleted \(reference): Maybe doomed\n"
          + "docket restore \(reference) brings it back within 30 days.\n"))
    #expect(try box.docket(["show", reference]).status == 2)
  }
}

@Suite struct ConcurrencyTests {
  @Test func twoAddLoopsInParallelLoseNothing() async throws {
    let box = try Sandbox()
    _ = try box.docket(["list"])
    let failures = try await withThrowingTaskGroup(of: [String].self) { group in
      for loop in 0..<2 {
        group.addTask {
          var failures: [String] = []
          for index in 0..<200 {
            let run = try box.docket(["add", "loop \(loop) issue \(index)"])
            if run.status != 0 { failures.append(run.error) }
          }
          return failures
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
    let all = try box.docket(["list", "--filter", "all", "--json"])
    #expect((try all.json() as? [Any])?.count == 400)
  }
}
