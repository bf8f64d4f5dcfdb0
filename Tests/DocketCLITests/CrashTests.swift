import Foundation
import Testing

/// `docket import` killed with SIGKILL at moments spread over its run: each time the database
/// opens whole (its search index too) and holds all of the import or none of it. `make stress`
/// kills it 20 times; `make test` 8.
@Suite struct CrashTests {
  let box: Sandbox
  init() throws { box = try Sandbox() }

  static var kills: Int { ProcessInfo.processInfo.environment["DOCKET_STRESS"] == nil ? 8 : 20 }

  /// `sql` run by the sqlite3 shell on `database`: what it printed.
  @Test func anImportKilledAnywhereLeavesAllOrNothing() throws {
    let count = 6000
    let file = try box.docketFile("import.json", count: count, tag: "Bulk") { index in
      ("Imported issue \(index) with some words to index", "Detail of \(index)", index % 3 == 0)
    }
    // How long a whole import takes here, to spread the kills over it.
    let timed = box.path("timed.sqlite")
    let start = Date()
    #expect(try Child.run(Sandbox.binary.path, ["--db", timed, "import", file]) == 0)
    let whole = Date().timeIntervalSince(start)
    var outcomes: [Int: Int] = [:]
    for kill in 0..<Self.kills {
      let database = box.path("killed-\(kill).sqlite")
      // The database exists before the import starts, as a user's would.
      #expect(try Child.run(Sandbox.binary.path, ["--db", database, "list"]) == 0)
      let run = try Child(
        Sandbox.binary.path, ["--db", database, "import", file],
        environment: ["HOME": box.folder.path, "LANG": "C.UTF-8"])
      Thread.sleep(forTimeInterval: whole * Double(kill + 1) / Double(Self.kills + 1))
      Foundation.kill(run.pid, SIGKILL)
      run.wait()
      let check = try box.integrityCheck(database)
      #expect(check == "ok\n", "after a kill at \(kill): \(check)")
      let stored =
        Int(
          try box.sqlite(database, "SELECT count(*) FROM issues;").trimmingCharacters(
            in: .whitespacesAndNewlines)) ?? -1
      #expect(stored == 0 || stored == count, "after a kill at \(kill): \(stored) issues")
      outcomes[stored, default: 0] += 1
      // And the next import completes it.
      if stored == 0 {
        #expect(try Child.run(Sandbox.binary.path, ["--db", database, "import", file]) == 0)
        #expect(try box.sqlite(database, "SELECT count(*) FROM issues;") == "\(count)\n")
      }
    }
    // Some kills landed before the commit, or the test proved little. (Whether one lands after
    // it depends on the machine's speed; a kill after it must find everything, checked above.)
    #expect(outcomes[0, default: 0] > 0, "\(outcomes)")
  }
}
