import Foundation
import Testing

/// Every face on one database at once: the terminal app open, `docket serve` running, two shells
/// adding, editing and deleting in loops, and syncs through a folder. No command meets "database
/// is locked", nothing is lost, and every face ends showing the same final state.
@Suite struct ConcurrentFacesTests {
  /// Issues each shell adds, and syncs run meanwhile: more, for longer, under `make stress`.
  static let (perShell, syncs) =
    ProcessInfo.processInfo.environment["DOCKET_STRESS"] == nil ? (25, 8) : (200, 60)
  /// Each shell deletes every fifth issue it adds.
  static let expected = 2 * (perShell - perShell / 5)

  @Test func everyFaceAtOnceLosesNothing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-faces-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let binary = TmuxEndToEndTests.binary
    let database = path("docket.sqlite")
    try FileManager.default.createDirectory(
      atPath: path("remote"), withIntermediateDirectories: true)
    TmuxEndToEndTests.docket(["--db", database, "remote", "set", path("remote")])

    let pane = try TmuxPane(
      command:
        "LANG=C.UTF-8 TERM=xterm-256color HOME=\(folder.path) \(binary) --db \(database) 2>\(path("app-errors.txt")); echo \"app ended: $?\" > \(path("app.status")); sleep 30",
      columns: 120, rows: 30, folder: folder)
    try pane.waitFor("0 issues")
    // The others run beside the pane, in the background (a window of the pane's tmux would
    // change the size of the app's window).
    func background(_ command: String, pid: String) {
      _ = TmuxPane.run("sh", ["-c", "\(command) </dev/null & echo $! > \(path(pid))"])
    }
    background(
      "\(binary) serve --port 0 --db \(database) > \(path("serve.txt")) 2>&1", pid: "serve.pid")
    defer {
      if let text = try? String(contentsOfFile: path("serve.pid"), encoding: .utf8),
        let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        kill(pid, SIGTERM)
      }
    }

    // Two shells and a sync loop, each a script in a window of its own that writes its status.
    let docket = "\(binary) --db \(database)"
    let errors = path("errors.txt")
    func shell(_ name: String) -> String {
      """
      for i in $(seq 1 \(Self.perShell)); do
        r=$(\(docket) add "\(name) $i" 2>>\(errors)) || exit 1
        if [ $((i % 3)) = 0 ]; then \(docket) edit "$r" --title "\(name) $i edited" --priority high >/dev/null 2>>\(errors) || exit 2; fi
        if [ $((i % 5)) = 0 ]; then \(docket) delete "$r" --yes >/dev/null 2>>\(errors) || exit 3; fi
      done
      """
    }
    let scripts = [
      "first": shell("First"), "second": shell("Second"),
      "sync":
        "for i in $(seq 1 \(Self.syncs)); do \(docket) sync >/dev/null 2>>\(errors) || exit 4; sleep 0.2; done",
    ]
    for (name, script) in scripts {
      try script.write(toFile: path("\(name).sh"), atomically: true, encoding: .utf8)
      background(
        "(HOME=\(folder.path) sh \(path("\(name).sh")) >/dev/null 2>&1; echo $? > \(path("\(name).status")))",
        pid: "\(name).pid")
    }
    let deadline = Date().addingTimeInterval(Self.perShell > 25 ? 900 : 180)
    func status(_ name: String) -> String? {
      try? String(contentsOfFile: path("\(name).status"), encoding: .utf8)
    }
    while Date() < deadline, scripts.keys.contains(where: { status($0) == nil }) {
      Thread.sleep(forTimeInterval: 0.2)
    }
    for name in scripts.keys {
      #expect(status(name) == "0\n", "\(name) ended with \(status(name) ?? "nothing")")
    }
    let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    #expect(!said.contains("locked"), "\(said)")

    // 25 added by each shell, 5 of them deleted: 40, of which 16 were edited (in make test).
    let listed = TmuxEndToEndTests.docket(["--db", database, "list", "--filter", "all", "--json"])
    let issues = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
    #expect(issues.count == Self.expected)
    let titles = Set(issues.compactMap { $0["title"] as? String })
    for name in ["First", "Second"] {
      for number in 1...Self.perShell {
        let expected =
          number % 5 == 0 ? nil : number % 3 == 0 ? "\(name) \(number) edited" : "\(name) \(number)"
        if let expected { #expect(titles.contains(expected), "\(expected)") }
      }
    }

    // The terminal app shows it, and is still running.
    let appEnded = {
      (try? String(contentsOfFile: path("app.status"), encoding: .utf8)).map {
        $0 + ((try? String(contentsOfFile: path("app-errors.txt"), encoding: .utf8)) ?? "")
      }
    }
    #expect(appEnded() == nil, "\(appEnded() ?? "")")
    try pane.waitFor("\(Self.expected) issues", seconds: 10)
    #expect(
      !FileManager.default.fileExists(atPath: path("app.status")),
      "\((try? String(contentsOfFile: path("app.status"), encoding: .utf8)) ?? "") \((try? String(contentsOfFile: path("app-errors.txt"), encoding: .utf8)) ?? "")"
    )
    // And so does the web app, from the address it printed.
    let printed = try String(contentsOfFile: path("serve.txt"), encoding: .utf8)
    let url = try #require(printed.firstMatch(of: /http:\/\/\S+/).map { String($0.0) })
    let headers = path("headers.txt")
    _ = TmuxPane.run("curl", ["-s", "-D", headers, "-o", "/dev/null", url])
    let cookie = try #require(
      try String(contentsOfFile: headers, encoding: .utf8).split(separator: "\r\n")
        .first { $0.lowercased().hasPrefix("set-cookie: ") }
        .map { String($0.dropFirst("set-cookie: ".count).prefix { $0 != ";" }) })
    let page = path("page.html")
    let base = String(url.prefix { $0 != "?" })
    _ = TmuxPane.run("curl", ["-s", "-b", cookie, "-o", page, base])
    #expect(try String(contentsOfFile: page, encoding: .utf8).contains("\(Self.expected) issues"))
  }
}
