import Foundation
import Testing

/// What a person meets of sync's trust rules on the command line (SPEC §10): values no device
/// may write are refused or shown as unknown, a server's address in libpq's keyword form keeps
/// its password out of the settings, a deleted issue's history is reached by its reference, and
/// an old backup brings back nothing sync deleted unless asked.
@Suite struct TrustCommandTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  func reference(_ run: Run) -> String {
    run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A database holding dates no device may write (an older version, a hand edit): every
  /// command that reads it shows them as unknown and goes on.
  @Test func datesOutOfRangeReadAsUnknownInEveryCommand() throws {
    let ref = reference(try box.docket(["add", "Odd dates", "--tag", "x"]))
    try box.docket(["add", "Fine"])
    // By hand, as another tool would: the trigger that records edits calls Docket's own
    // functions, which the sqlite3 shell has not, so it is set aside meanwhile.
    let trigger = try box.sqlite(
      box.database, "SELECT sql FROM sqlite_master WHERE name = 'issues_capture_update'")
    _ = try box.sqlite(
      box.database,
      """
      DROP TRIGGER issues_capture_update;
      UPDATE issues SET created = 1e300, modified = -1e18 WHERE title = 'Odd dates';
      \(trigger.trimmingCharacters(in: .whitespacesAndNewlines));
      """)
    #expect(
      try box.sqlite(box.database, "SELECT created FROM issues WHERE title = 'Odd dates'").contains(
        "e+300"))
    for arguments in [
      ["list"], ["list", "--json"], ["list", "--sort", "date"], ["show", ref],
      ["show", ref, "--json"], ["export"], ["export", "--format", "taskwarrior"],
      ["export", "--format", "csv"], ["tag", "list"], ["history", ref], ["awards"],
    ] {
      let run = try box.docket(arguments)
      #expect(run.status == 0, "\(arguments): \(run.error)")
      #expect(!run.error.contains("Fatal"), "\(arguments)")
    }
    let shown = try box.docket(["show", ref])
    #expect(shown.output.contains("????-??-?? ??:??"))
    let json = try box.docket(["show", ref, "--json"]).json() as! [String: Any]
    #expect(json["created"] as? String == "0000-00-00T00:00:00Z")
    #expect(try box.docket(["list"]).output.contains("date?"))
    // An export of it names the issue when read back, instead of taking a date that is none.
    let file = box.path("odd.json")
    try box.docket(["export", "-o", file])
    let again = try Sandbox()
    let imported = try again.docket(["import", file])
    #expect(imported.status == 1)
    #expect(imported.error.contains("created"))
  }

  /// What a person types: a title is one line (a line break is refused, saying where the
  /// rest goes), and texts past the limits every device holds to are refused, saying the limit.
  @Test func titlesAreOneLineAndTextsWithinTheirLimits() throws {
    let broken = try box.docket(["add", "first\nsecond"])
    #expect(broken.status == 2)
    #expect(broken.error.contains("--detail"), "\(broken.error)")
    let ref = reference(try box.docket(["add", "first second"]))
    let long = try box.docket(["add", String(repeating: "t", count: 1_001)])
    #expect(long.status == 2)
    #expect(long.error.contains("longer than 1000 characters"))
    let tag = try box.docket(["tag", "add", String(repeating: "g", count: 201)])
    #expect(tag.status == 2)
    let german = try box.docket(
      ["edit", ref, "--title", String(repeating: "t", count: 1_001)],
      environment: ["LANG": "de_DE.UTF-8"])
    #expect(german.status == 2)
    #expect(german.error.contains("länger als 1000 Zeichen"))
  }

  /// `remote set host=… password=…` is a PostgreSQL remote: the password goes to libpq's
  /// password file, never into the settings or on the screen, and no folder of that name is
  /// made.
  @Test func aKeywordAddressKeepsItsPasswordOut() throws {
    let address = "host=127.0.0.1 port=1 dbname=tracker user=ben password=s3cret-pw"
    let set = try box.docket(["remote", "set", address])
    #expect(set.status == 0, "\(set.error)")
    #expect(!set.output.contains("s3cret-pw"))
    #expect(set.output.contains("host=127.0.0.1 port=1 dbname=tracker user=ben"))
    let shown = try box.docket(["remote", "show", "--json"])
    #expect(!shown.output.contains("s3cret-pw"))
    #expect(!(try box.sqlite(box.database, "SELECT value FROM settings").contains("s3cret-pw")))
    let file = try String(contentsOfFile: box.path(".pgpass"), encoding: .utf8)
    #expect(file.contains("127.0.0.1:1:tracker:ben:s3cret-pw"))
    // A relative folder would be made where the command runs (this process's folder) or, taken
    // for a path from home, in the sandbox.
    let here = FileManager.default.currentDirectoryPath
    for name in [address, "host=127.0.0.1"] {
      #expect(!FileManager.default.fileExists(atPath: box.path(name)))
      #expect(!FileManager.default.fileExists(atPath: here + "/" + name))
    }
    // A folder with `=` in its path is still a folder.
    let folder = box.path("sync=here")
    #expect(try box.docket(["remote", "set", folder]).status == 0)
    #expect(FileManager.default.fileExists(atPath: folder))
  }

  /// A deleted issue's history by its short reference, headed by the title it had when it was
  /// deleted.
  @Test func theHistoryOfADeletedIssueByItsReference() throws {
    let ref = reference(try box.docket(["add", "First title"]))
    try box.docket(["edit", ref, "--title", "Title when deleted"])
    try box.docket(["delete", ref, "--yes"])
    let history = try box.docket(["history", ref])
    #expect(history.status == 0, "\(history.error)")
    #expect(history.lines.first == "Title when deleted")
    #expect(history.lines.last?.hasSuffix("deleted") == true)
    #expect(try box.docket(["history", "ffff"]).status == 2)
  }

  /// A reference that two issues there share is ambiguous, as for any command, even when only
  /// one deleted issue starts with it too: a deleted issue is found only when none there is.
  @Test func aReferenceAmbiguousAmongIssuesThereIsNotTakenForADeletedOne() throws {
    func issue(_ id: String, _ title: String) -> String {
      "{\"id\":\"\(id)\",\"title\":\"\(title)\",\"detail\":\"\",\"priority\":\"low\","
        + "\"completed\":false,\"created\":\"2026-01-01T00:00:00Z\",\"modified\":null,\"tags\":[]}"
    }
    let file = box.path("three.json")
    try
      ("{\"format\":\"docket\",\"version\":1,\"tags\":[],\"issues\":["
      + [
        issue("abcd1111-0000-4000-8000-000000000001", "One there"),
        issue("abcd2222-0000-4000-8000-000000000002", "Two there"),
        issue("abcd3333-0000-4000-8000-000000000003", "Deleted"),
      ].joined(separator: ",") + "]}").write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try box.docket(["import", file]).status == 0)
    #expect(try box.docket(["delete", "abcd3333", "--yes"]).status == 0)
    let ambiguous = try box.docket(["history", "abcd"])
    #expect(ambiguous.status == 2)
    #expect(ambiguous.error.contains("One there") && ambiguous.error.contains("Two there"))
    #expect(!ambiguous.output.contains("Deleted"))
    // A prefix only the deleted one has still finds it.
    let deleted = try box.docket(["history", "abcd3"])
    #expect(deleted.status == 0, "\(deleted.error)")
    #expect(deleted.lines.first == "Deleted")
  }

  /// An old backup imported where sync deleted one of its issues: it stays deleted, and the
  /// summary says so; asked to, the import brings it back.
  @Test func anImportKeepsDeletedWhatWasDeleted() throws {
    let ref = reference(try box.docket(["add", "Deleted since"]))
    try box.docket(["add", "Kept"])
    let backup = box.path("backup.json")
    try box.docket(["export", "-o", backup])
    try box.docket(["delete", ref, "--yes"])
    let imported = try box.docket(["import", backup])
    #expect(imported.status == 0)
    #expect(imported.output.contains("1 issue in the file was deleted since; kept deleted"))
    #expect(try box.docket(["show", ref]).status == 2)
    let restored = try box.docket(["import", backup, "--restore-deleted"])
    #expect(restored.output.contains("1 deleted issue brought back on every device"))
    #expect(try box.docket(["show", ref]).status == 0)
    let history = try box.docket(["history", ref, "--json"]).json() as! [String: Any]
    #expect((history["changes"] as! [[String: Any]]).count >= 3)
  }
}
