import Database
import DocketCore
import Foundation
import HTTPServer
import Testing

@testable import DocketSync
@testable import DocketWeb

/// The copy a browser keeps (`GET /copy`) and the changes it made offline (`POST /changes`).
@Suite struct BrowserCopyTests {
  static var browserID: String { WebTester.browser.id.lowercasedText }

  func json(_ response: HTTPResponse) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
  }

  func ids(_ rows: Any?) -> [String] {
    ((rows as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
  }

  /// One change line of the browser, as the page writes it.
  func line(
    _ row: UUID, _ field: String, _ new: Any, entity: String = "issue", at seconds: Double,
    device: String = BrowserCopyTests.browserID, counter: Int64 = 0, modified: Double? = nil
  ) throws -> String {
    let stamp = HybridClock.stamp(Date(timeIntervalSince1970: seconds)) + counter
    let object: [String: Any] = [
      "h": String(stamp), "d": device, "e": entity, "r": row.lowercasedText, "f": field,
      "n": new, "m": modified ?? seconds,
    ]
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  @Test func theCopyHoldsEverythingThenWhatChangedAndWhatWent() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let crash = try web.issue("Crash", detail: "on start", priority: .high, tags: [bug])
    let typo = try web.issue("Typo")
    let first = web.get("/copy")
    #expect(first.status == 200)
    #expect(first.header("Content-Type") == "application/json; charset=utf-8")
    let copy = try json(first)
    #expect(copy["full"] as? Bool == true)
    // The server's time, by which the browser stamps its changes.
    #expect(copy["now"] as? Int == Int(WebTester.now.timeIntervalSince1970 * 1000))
    #expect(ids(copy["issues"]) == [crash.id.lower, typo.id.lower].sorted())
    let issue = try #require(
      (copy["issues"] as? [[String: Any]])?.first { $0["id"] as? String == crash.id.lower })
    #expect(issue["title"] as? String == "Crash")
    #expect(issue["detail"] as? String == "on start")
    #expect(issue["priority"] as? Int == 2)
    #expect(issue["completed"] as? Bool == false)
    #expect(issue["tags"] as? [String] == [bug.id.lower])
    #expect(issue["created"] as? Double == crash.created.timeIntervalSince1970)
    #expect(ids(copy["tags"]) == [bug.id.lower])
    let seq = try #require(copy["seq"] as? Int)

    // Nothing since: nothing sent.
    let same = try json(web.get("/copy", [("since", String(seq))]))
    #expect(same["full"] as? Bool == false)
    #expect(ids(same["issues"]).isEmpty && ids(same["tags"]).isEmpty)

    try web.queue.write { db in
      _ = try db.setCompleted(true, issueIDs: [crash.id])
      _ = try db.deleteIssues([typo.id])
    }
    let later = try json(web.get("/copy", [("since", String(seq))]))
    #expect(later["full"] as? Bool == false)
    #expect(ids(later["issues"]) == [crash.id.lower])
    #expect(later["goneIssues"] as? [String] == [typo.id.lower])
    #expect(later["goneTags"] as? [String] == [])
    // A cursor from another database (ahead of this one's): the whole copy again.
    let ahead = try json(web.get("/copy", [("since", String(seq + 1000))]))
    #expect(ahead["full"] as? Bool == true)
    #expect(ids(ahead["issues"]) == [crash.id.lower])
    // Only for a paired browser.
    #expect(web.get("/copy", cookies: [:]).status == 403)
  }

  /// Rows changed in place, with no change of each row's own, make the copy start again: a tag
  /// deleted, renamed or made one with another (its links leave or move, and the tags of one name
  /// go by one id), and a device retired. A tag made anew is sent as it is.
  @Test func tagsChangedInPlaceOrADeviceRetiredSendTheWholeCopy() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let crash = try web.issue("Crash", tags: [bug])
    func since(_ change: (Connection) throws -> Void) throws -> [String: Any] {
      let seq = try #require(try json(web.get("/copy"))["seq"] as? Int)
      try web.queue.write(change)
      return try json(web.get("/copy", [("since", String(seq))]))
    }
    // Made anew: only the tag.
    let made = try since { _ = try $0.createTag(named: "Feature", id: UUID()) }
    #expect(made["full"] as? Bool == false)
    #expect((made["tags"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Feature"])
    // Renamed, deleted, merged: the whole copy, the issues with their tags as they are now.
    let renamed = try since { _ = try $0.renameTag(id: bug.id, to: "Defect") }
    #expect(renamed["full"] as? Bool == true)
    let ui = try web.tag("UI")
    let merged = try since { _ = try $0.mergeTag(id: ui.id, into: bug.id) }
    #expect(merged["full"] as? Bool == true)
    let deleted = try since { _ = try $0.deleteTag(id: bug.id) }
    #expect(deleted["full"] as? Bool == true)
    let row = try #require(
      (deleted["issues"] as? [[String: Any]])?.first { $0["id"] as? String == crash.id.lower })
    #expect(row["tags"] as? [String] == [])
    // Another device made a tag of a name this one has: the sync rules make the two one, the
    // links moved to the id that stays, with no change of their own.
    let feature = try web.tag("Planning")
    try web.issue("Planned", tags: [feature])
    let theirs = UUID(uuidString: "00000000-0000-4000-8000-0000000000fe")!
    let stamp = Stamp(
      hlc: HybridClock.stamp(WebTester.now) + 7, device: "0000d000-0000-4000-8000-0000000000d1")
    let regrouped = try since { db in
      _ = try db.applyChanges([
        Change(
          stamp: stamp, entity: .tag, row: theirs.lowercasedText, field: "create",
          new: .text(#"{"name":"Planning","key":"planning"}"#))
      ])
    }
    #expect(regrouped["full"] as? Bool == true)
    // A device retired (its change recorded as it arrives).
    let retired = try since { db in
      try db.execute("UPDATE sync_clock SET applying = 1")
      try db.execute(
        """
        INSERT INTO changes (hlc, device, entity, row_id, field, new_value)
        SELECT hlc + 1, device, 'device', 'a-retired-device', 'retire', '1' FROM sync_clock
        """)
      try db.execute("UPDATE sync_clock SET applying = 0")
    }
    #expect(retired["full"] as? Bool == true)
  }

  /// Made offline: a new issue, an edit, a completion and a tag; they land as the browser's,
  /// and the history names it.
  @Test func changesMadeOfflineLandAsTheBrowsersOwn() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let crash = try web.issue("Crash")
    let made = UUID(uuidString: "0000c000-0000-4000-8000-000000000001")!
    // Made after the issue was (its create carries every field, stamped then).
    let at = WebTester.now.timeIntervalSince1970 + 5
    let create =
      #"{"title":"Made offline","detail":"","priority":1,"completed":0,"created":"\#(at)"}"#
    let lines = [
      try line(made, "create", create, at: at),
      try line(crash.id, "title", "Crash on start", at: at, counter: 1),
      try line(crash.id, "completed", 1, at: at, counter: 2),
      try line(made, bug.id.lower, 1, entity: "link", at: at, counter: 3),
    ]
    let answer = web.post("/changes", [("changes", lines.joined(separator: "\n"))])
    #expect(answer.status == 200)
    #expect(try json(answer)["received"] as? Int == 4)
    let stored = try #require(try web.stored(made))
    #expect(stored.title == "Made offline")
    #expect(stored.priority == .medium)
    #expect(stored.tags.map(\.name) == ["Bug"])
    let edited = try #require(try web.stored(crash.id))
    #expect(edited.title == "Crash on start")
    #expect(edited.completed)
    let history = try web.queue.read { try $0.history(ofIssue: crash.id) }
    #expect(
      history.filter { $0.deviceID == Self.browserID }.map(\.deviceName) == [
        "Test browser", "Test browser",
      ])
    // Sent again (the answer was lost on the way): the same changes, nothing new.
    #expect(web.post("/changes", [("changes", lines.joined(separator: "\n"))]).status == 200)
    #expect(try web.count() == 2)
    // The copy shows them.
    let copy = try json(web.get("/copy"))
    #expect(ids(copy["issues"]) == [crash.id.lower, made.lower].sorted())
  }

  /// An edit made offline before one made on the server, arriving after it, loses: the later
  /// edit by when it was made wins, the browser's stays in the history.
  @Test func anOfflineEditMadeEarlierLosesToALaterOne() throws {
    let web = try WebTester()
    let crash = try web.issue("Crash")
    try web.queue.write { db in
      var issue = try #require(try db.fetchIssue(id: crash.id))
      issue.title = "Crash on start"
      _ = try db.saveIssue(issue)
    }
    let earlier = WebTester.now.timeIntervalSince1970 - 600
    let answer = web.post(
      "/changes", [("changes", try line(crash.id, "title", "Crash (offline)", at: earlier))])
    #expect(answer.status == 200)
    #expect(try web.stored(crash.id)?.title == "Crash on start")
    let lost = try web.queue.read { try $0.history(ofIssue: crash.id) }.filter(\.lost)
    #expect(lost.map(\.deviceName) == ["Test browser"])
  }

  /// What a browser may not send: another device's change, lines that are no change, a change
  /// no person makes, one stamped ahead of the server's clock. Each is refused alone, said by
  /// its line; the good lines beside it land.
  @Test func changesABrowserMayNotSendAreRefusedLineByLine() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let crash = try web.issue("Crash")
    let at = WebTester.now.timeIntervalSince1970
    let ahead = at + HybridClock.maxDrift + 60
    // A device retired, as the device it became writes it: its new stamp after the old.
    func retirement(at seconds: Double) throws -> String {
      let stamp = HybridClock.stamp(Date(timeIntervalSince1970: seconds))
      let object: [String: Any] = [
        "h": String(stamp), "d": BrowserCopyTests.browserID, "e": "device",
        "r": BrowserCopyTests.browserID, "f": "retire", "n": String(stamp + 10),
      ]
      return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
    let cases: [(String, String)] = [
      (
        try line(
          crash.id, "title", "Forged", at: at, device: "0000d000-0000-4000-8000-000000000001"),
        "another device"
      ),
      ("not json", "not JSON"),
      (#"{"h":"1","d":"\#(Self.browserID)"}"#, "line 2"),
      (try line(crash.id, "priority", 7, at: at, counter: 1), "line 2"),
      // Well-formed changes, but none the page makes: a device retired, a tag renamed, an
      // issue restored, an issue's creation moved.
      (try retirement(at: at), "not a change a browser makes"),
      (try line(bug.id, "name", "Renamed", entity: "tag", at: at), "not a change a browser makes"),
      (
        try line(
          crash.id, "restore",
          #"{"title":"Back","detail":"","priority":0,"completed":0,"created":"0"}"#, at: at),
        "not a change a browser makes"
      ),
      (try line(crash.id, "created", 0, at: at), "not a change a browser makes"),
      (
        try line(crash.id, "title", "From the future", at: ahead),
        "stamped ahead of this server's clock"
      ),
      // Stamped now, but saying it was made in the future: it would top the recent list.
      (
        try line(crash.id, "title", "Pinned", at: at, modified: ahead),
        "modified ahead of this server's clock"
      ),
    ]
    for (index, (bad, why)) in cases.enumerated() {
      let title = "Changed \(index)"
      let good = try line(crash.id, "title", title, at: at + Double(index + 1))
      let answer = web.post("/changes", [("changes", good + "\n" + bad)])
      #expect(answer.status == 200, "\(bad)")
      let refused = try #require(try json(answer)["refused"] as? [String])
      #expect(refused.count == 1 && refused[0].contains(why), "\(refused)")
      #expect(try json(answer)["received"] as? Int == 1)
      #expect(try web.stored(crash.id)?.title == title)
      // Refused for a clock ahead alone: named by line, with the server's time and the latest
      // stamp it took from this browser, for the page to stamp it again.
      let ahead = try json(answer)["ahead"] as? [Int]
      if why.contains("ahead of this server's clock") {
        #expect(ahead == [2], "\(why)")
        #expect(try json(answer)["now"] as? Double == at)
        // After every stamp the server holds (the line just taken among them), within the bound.
        let taken = HybridClock.stamp(Date(timeIntervalSince1970: at + Double(index + 1)))
        let text = try json(answer)["after"] as? String
        let after = try #require(text.flatMap { Int64($0) })
        let bound = HybridClock.bound(wall: WebTester.now)
        #expect(after >= taken && after <= bound)
        #expect(try json(answer)["bound"] as? String == String(bound))
      } else {
        #expect(ahead == nil, "\(why)")
      }
    }
    // Nothing good in it: refused whole, and said.
    let none = web.post("/changes", [("changes", "not json\nnor this")])
    #expect(none.status == 422)
    #expect((try json(none)["refused"] as? [String])?.count == 2)
    // Without the page's CSRF token, unpaired, or read-only: refused as any post.
    let good = try line(crash.id, "title", "Not taken", at: at + 100)
    #expect(web.post("/changes", [("changes", good)], csrf: nil).status == 403)
    #expect(web.post("/changes", [("changes", good)], cookies: [:]).status == 403)
    #expect(try web.stored(crash.id)?.title == "Changed \(cases.count - 1)")
    let readOnly = try WebTester(readOnly: true)
    let kept = try readOnly.issue("Kept")
    let other = try line(kept.id, "title", "Not taken", at: at + 100)
    let refusal = readOnly.post("/changes", [("changes", other)])
    #expect(refusal.status == 403)
    // Said in a header too, for the page to say why its changes wait.
    #expect(refusal.header("X-Docket-Read-Only") == "1")
    #expect(try readOnly.stored(kept.id)?.title == "Kept")
  }

  /// Lines end at LF (or CR LF) alone: a detail holding U+2028, U+2029 or NEL, which a JSON
  /// text may carry unescaped, is one change, kept as written.
  @Test func aLineSeparatorInsideATextIsNoLineEnd() throws {
    let web = try WebTester()
    let crash = try web.issue("Crash")
    let at = WebTester.now.timeIntervalSince1970 + 5
    let detail = "One\u{2028}two\u{2029}three\u{85}four"
    let first = try line(crash.id, "detail", detail, at: at)
    let second = try line(crash.id, "priority", 2, at: at, counter: 1)
    #expect(first.unicodeScalars.contains("\u{2028}"))
    let answer = web.post("/changes", [("changes", first + "\r\n" + second + "\r\n")])
    #expect(answer.status == 200)
    #expect((try json(answer)["refused"] as? [String]) == [])
    #expect(try web.stored(crash.id)?.detail == detail)
    #expect(try web.stored(crash.id)?.priority == .high)
  }
}
