import Foundation
import Testing

/// `docket remote`, `docket sync` and `docket history`, as a person runs them, on two databases
/// that share a folder.
@Suite struct SyncCommandTests {
  let laptop: Sandbox
  let desktop: Sandbox
  let remote: String

  init() throws {
    laptop = try Sandbox()
    desktop = try Sandbox()
    remote = laptop.path("shared")
  }

  func reference(_ run: Run) -> String {
    run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func twoDevicesSyncThroughAFolder() throws {
    let ref = reference(try laptop.docket(["add", "Fix the printer", "-t", "office"]))
    #expect(try laptop.docket(["remote", "set", remote]).status == 0)
    #expect(try desktop.docket(["remote", "set", remote]).status == 0)
    #expect(try desktop.docket(["device", "name", "Desktop"]).status == 0)
    let first = try laptop.docket(["sync"])
    #expect(first.output == "↑ 3 changes, ↓ 0 changes\n")
    let pulled = try desktop.docket(["sync"])
    #expect(pulled.output == "↑ 0 changes, ↓ 3 changes\n")
    #expect(try desktop.docket(["list", "--json"]).output.contains("Fix the printer"))
    // Both edit the title; the later wins, the other stays in the history, marked.
    try laptop.docket(["edit", ref, "--title", "From the laptop"])
    try desktop.docket(["edit", ref, "--title", "From the desktop"])
    try laptop.docket(["sync"])
    let merged = try desktop.docket(["sync"])
    #expect(merged.lines.contains { $0.hasPrefix("1 value lost a conflict") })
    try laptop.docket(["sync"])
    for side in [laptop, desktop] {
      let shown = try side.docket(["show", ref, "--json"]).json() as! [String: Any]
      #expect(shown["title"] as? String == "From the desktop")
    }
    let history = try laptop.docket(["history", ref])
    #expect(history.status == 0)
    #expect(
      history.lines.contains {
        $0.contains("title: “Fix the printer” → “From the laptop”")
          && $0.hasSuffix("(lost a conflict, not applied)")
      })
    #expect(
      history.lines.contains {
        $0.contains("  Desktop  title: “Fix the printer” → “From the desktop”")
      })
    let json = try laptop.docket(["history", ref, "--json"]).json() as! [String: Any]
    let changes = json["changes"] as! [[String: Any]]
    #expect(changes.first?["change"] as? String == "create")
    #expect(changes.filter { $0["lost"] as? Bool == true }.count == 1)
  }

  @Test func remoteShowAndRemove() throws {
    #expect(
      try laptop.docket(["remote", "show"]).output
        == "No remote is set. Set one with: docket remote set PATH\n")
    try laptop.docket(["add", "One"])
    try laptop.docket(["remote", "set", remote])
    let shown = try laptop.docket(["remote", "show", "--json"]).json() as! [String: Any]
    #expect(shown["remote"] as? String == remote)
    #expect(shown["unpushedChanges"] as? Int == 1)
    #expect(shown["lastSync"] is NSNull)
    try laptop.docket(["sync"])
    let after = try laptop.docket(["remote", "show"])
    #expect(after.lines.contains("Waiting to be pushed: 0 changes"))
    #expect(after.lines.contains { $0.hasPrefix("Last sync: ") && !$0.hasSuffix("never") })
    #expect(try laptop.docket(["remote", "remove"]).output.hasPrefix("Remote removed: "))
    let sync = try laptop.docket(["sync"])
    #expect(sync.status == 1)
    #expect(sync.error.contains("No remote is set"))
    #expect(try laptop.docket(["list", "--json"]).output.contains("One"))
  }

  @Test func aRemoteFolderThatHoldsTheDatabaseIsRefused() throws {
    let run = try laptop.docket(["remote", "set", laptop.folder.path])
    #expect(run.status == 2)
    #expect(run.error.contains("is inside the remote folder"))
  }

  @Test func aMissingFolderSaysSoAndIsRemembered() throws {
    try laptop.docket(["add", "Kept"])
    try laptop.docket(["remote", "set", remote])
    try FileManager.default.removeItem(atPath: remote)
    let run = try laptop.docket(["sync"])
    #expect(run.status == 1)
    #expect(run.error.contains("The remote folder \(remote) is not there"))
    let shown = try laptop.docket(["remote", "show"])
    #expect(shown.lines.contains { $0.hasPrefix("Last error: The remote folder") })
    #expect(shown.lines.contains("Waiting to be pushed: 1 change"))
  }

  @Test func skippedFilesAreNamedInGerman() throws {
    try laptop.docket(["add", "Eins"])
    try laptop.docket(["remote", "set", remote])
    try desktop.docket(["remote", "set", remote])
    try laptop.docket(["sync"])
    let device = try FileManager.default.contentsOfDirectory(atPath: remote).first {
      $0.count == 36
    }!
    try "kaputt".write(
      toFile: remote + "/\(device)/00000002.changes", atomically: true, encoding: .utf8)
    let run = try desktop.docket(["sync"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(run.status == 0)
    #expect(run.lines.first == "↑ 0 Änderungen, ↓ 1 Änderung")
    #expect(
      run.lines.contains { $0 == "Übersprungen: \(device)/00000002.changes: keine Docket-Datei" }
    )
  }

  /// `docket sync` killed at moments spread over a long push: the database stays whole, and the
  /// next sync completes it.
  @Test func aSyncKilledAnywhereLosesNothing() throws {
    let file = try laptop.docketFile("many.json", count: 4000) { ("Issue \($0)", "", false) }
    #expect(try laptop.docket(["import", file]).status == 0)
    try laptop.docket(["remote", "set", remote])
    // 8 kills from 0.02 s to 0.2 s into the sync (20 under `make stress`).
    for delay in (1...CrashTests.kills).map({ 0.2 * Double($0) / Double(CrashTests.kills) }) {
      let sync = try Child(
        Sandbox.binary.path, ["--db", laptop.database, "sync"],
        environment: ["HOME": laptop.folder.path, "LANG": "C.UTF-8"])
      Thread.sleep(forTimeInterval: delay)
      kill(sync.pid, SIGKILL)
      sync.wait()
      // The database opens and is whole, its search index too.
      let text = try laptop.integrityCheck(laptop.database)
      #expect(text == "ok\n", "after a kill at \(delay) s: \(text)")
      #expect(try laptop.docket(["list", "--limit", "1", "--json"]).status == 0)
    }
    let finish = try laptop.docket(["sync", "--json"]).json() as! [String: Any]
    #expect(finish["pulled"] as? Int == 0)
    try desktop.docket(["remote", "set", remote])
    #expect(try desktop.docket(["sync"]).status == 0)
    let count = try desktop.docket(["list", "--filter", "all", "--json"]).json() as! [Any]
    #expect(count.count == 4000)
  }
}

/// `docket remote set postgres://…` and `docket sync` through the test server, as a team uses it:
/// the password never in the address, a space per tracker, a member who may only read.
@Suite struct PostgresCommandTests {
  let laptop: Sandbox
  let desktop: Sandbox
  let server: String
  let space =
    "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
  let passwords: [String: String]

  init() throws {
    guard let server = ProcessInfo.processInfo.environment["DOCKET_TEST_POSTGRES"],
      let file = ProcessInfo.processInfo.environment["PGPASSFILE"]
    else {
      throw PostgresMissing()
    }
    self.server = server
    passwords = ["PGPASSFILE": file]
    laptop = try Sandbox()
    desktop = try Sandbox()
  }

  struct PostgresMissing: Error, CustomStringConvertible {
    var description: String {
      "No PostgreSQL server for the tests: run them through `make test` (scripts/with-postgres.sh)."
    }
  }

  @Test func twoDevicesSyncThroughASpaceOnTheServer() throws {
    let set = try laptop.docket(["remote", "set", server, "--space", space])
    #expect(set.status == 0)
    #expect(
      set.lines == ["Remote: \(server)", "Space: \(space)", "Run “docket sync” to sync now."])
    try desktop.docket(["remote", "set", server, "--space", space])
    try laptop.docket(["add", "Through the server", "-t", "team"])
    let pushed = try laptop.docket(["sync"], environment: passwords)
    #expect(pushed.status == 0, "\(pushed.error)")
    #expect(pushed.output == "↑ 3 changes, ↓ 0 changes\n")
    let pulled = try desktop.docket(["sync", "--json"], environment: passwords)
    let report = try pulled.json() as! [String: Any]
    #expect(report["pulled"] as? Int == 3)
    #expect(report["pushRefused"] is NSNull)
    #expect(try desktop.docket(["list"]).output.contains("Through the server"))
    let shown = try laptop.docket(["remote", "show", "--json"]).json() as! [String: Any]
    #expect(shown["space"] as? String == space)
    #expect(shown["lastError"] is NSNull)
  }

  /// A password given in the address goes to ~/.pgpass (0600), never into the settings or the
  /// output, and syncs find it there.
  @Test func aPasswordInTheAddressGoesToThePasswordFile() throws {
    let adminLine = try String(contentsOfFile: passwords["PGPASSFILE"]!, encoding: .utf8)
      .split(separator: "\n").first!
    let password = String(adminLine.split(separator: ":").last!)
    let secret = server.replacingOccurrences(
      of: "docket_admin@", with: "docket_admin:\(password)@")
    let set = try laptop.docket(["remote", "set", secret, "--space", space])
    #expect(set.status == 0, "\(set.error)")
    #expect(!set.output.contains(password))
    let file = laptop.path(".pgpass")
    #expect(set.output.contains("The password went to \(file) (readable by you only)"))
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let port = server.split(separator: ":").last!.split(separator: "/").first!
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == "127.0.0.1:\(port):postgres:docket_admin:\(password)\n")
    let shown = try laptop.docket(["remote", "show", "--json"]).json() as! [String: Any]
    #expect(shown["remote"] as? String == server)
    // No PGPASSFILE: libpq finds it in ~/.pgpass.
    try laptop.docket(["add", "With the stored password"])
    let sync = try laptop.docket(["sync"])
    #expect(sync.status == 0, "\(sync.error)")
    // Given again with another password, the line is replaced, not added.
    try laptop.docket([
      "remote", "set",
      server.replacingOccurrences(of: "docket_admin@", with: "docket_admin:other@"),
    ])
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == "127.0.0.1:\(port):postgres:docket_admin:other\n")
    #expect(try laptop.docket(["sync"]).status == 1)
  }

  @Test func aBadSpaceOrAnotherSchemeIsRefused() throws {
    let malformed = try laptop.docket([
      "remote", "set", "postgres://ana:hunter2@host/db?colour=blue",
    ])
    #expect(malformed.status == 2)
    #expect(!malformed.error.contains("hunter2"))
    #expect(try laptop.docket(["remote", "show", "--json"]).output.contains("\"remote\": null"))
    let space = try laptop.docket(["remote", "set", server, "--space", "Acme Corp"])
    #expect(space.status == 2)
    #expect(space.error.contains("“Acme Corp” is not a space name"))
    let folder = try laptop.docket(["remote", "set", laptop.path("shared"), "--space", "acme"])
    #expect(folder.status == 2)
    #expect(folder.error.contains("--space is for a PostgreSQL remote"))
    let web = try laptop.docket(["remote", "set", "https://example.org/tracker"])
    #expect(web.status == 2)
    #expect(web.error.contains("a remote is a folder's path or a postgres:// address"))
    let shouting = try laptop.docket(
      ["remote", "set", server.replacingOccurrences(of: "postgres://", with: "POSTGRES://")])
    #expect(shouting.status == 0)
    #expect(shouting.output.hasPrefix("Remote: postgres://"))
    let garbage = try laptop.docket(["remote", "set", "postgres://host/db?colour=blue"])
    #expect(garbage.status == 2)
    #expect(garbage.error.contains("is not a PostgreSQL address"))
  }

  @Test func wrongCredentialsAndAStoppedServerSayWhatFailed() throws {
    try laptop.docket(["remote", "set", server, "--space", space])
    try laptop.docket(["add", "Waiting"])
    let wrong = try laptop.docket(["sync"], environment: ["PGPASSWORD": "not-the-password"])
    #expect(wrong.status == 1)
    #expect(wrong.error.contains("password authentication failed for user \"docket_admin\""))
    #expect(!wrong.error.contains("not-the-password"))
    let closed = server.replacingOccurrences(
      of: #":[0-9]+/"#, with: ":1/", options: .regularExpression)
    try desktop.docket(["remote", "set", closed, "--space", space])
    let refused = try desktop.docket(["sync"], environment: passwords)
    #expect(refused.status == 1)
    #expect(refused.error.contains("Connection refused"))
    // Nothing was lost: with the password, it all goes.
    let later = try laptop.docket(["sync"], environment: passwords)
    #expect(later.status == 0)
    #expect(later.output.hasPrefix("↑ 1 change"))
  }

  @Test func aMemberWhoMayOnlyReadPullsAndIsToldThePushWasRefused() throws {
    try laptop.docket(["remote", "set", server, "--space", space])
    try laptop.docket(["add", "From the owner"])
    #expect(try laptop.docket(["sync"], environment: passwords).status == 0)
    // The owner grants a read-only role the space, as the README shows.
    let role = "reader_" + space
    let schema = "\"docket_\(space)\""
    let sql = [
      "CREATE ROLE \(role) LOGIN PASSWORD 'reads'",
      "GRANT USAGE ON SCHEMA \(schema) TO \(role)",
      "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(role)",
    ]
    let psql = ProcessInfo.processInfo.environment["DOCKET_TEST_PSQL"] ?? "/usr/bin/psql"
    for statement in sql {
      let said = desktop.path("psql.txt")
      let status = try Child.run(
        psql, ["-q", server, "-c", statement], environment: passwords, error: said)
      #expect(
        status == 0, "\(statement): \((try? String(contentsOfFile: said, encoding: .utf8)) ?? "")")
    }
    let member = server.replacingOccurrences(of: "docket_admin@", with: role + "@")
    try desktop.docket(["remote", "set", member, "--space", space])
    try desktop.docket(["add", "From the member"])
    let sync = try desktop.docket(["sync"], environment: ["PGPASSWORD": "reads"])
    #expect(sync.status == 1)
    #expect(sync.output == "↑ 0 changes, ↓ 1 change\n")
    #expect(sync.error.contains("Pushing was refused (permission denied for table packages)"))
    #expect(sync.error.contains("stay queued"))
    #expect(try desktop.docket(["list"]).output.contains("From the owner"))
    let shown = try desktop.docket(["remote", "show", "--json"]).json() as! [String: Any]
    #expect((shown["lastError"] as? String)?.contains("Pushing was refused") == true)
    #expect((shown["unpushedChanges"] as? Int ?? 0) > 0)
  }
}
