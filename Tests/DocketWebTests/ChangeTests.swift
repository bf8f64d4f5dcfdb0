import DocketCore
import DocketTestSupport
import Foundation
import HTTPServer
import Locking
import Testing

@testable import DocketWeb

/// Changes made through forms: each is one write through the core, and the browser goes back to
/// a page that says what happened.
@Suite struct ChangeTests {
  @Test func creatingAnIssueWithChosenAndNewTagsGoesToIt() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let answer = web.post(
      "/issues",
      [
        ("title", "  Dark mode  "), ("detail", "line one\r\nline two"), ("priority", "high"),
        ("tag", bug.id.lower), ("new_tags", "UI, bug ,  , Design"),
        ("back", "/?filter=recent&mode=new"),
      ])
    #expect(answer.status == 303)
    let created = try #require(
      try web.queue.read { try $0.fetchIssues(IssueRequest(filter: .all, now: WebTester.now)) }
        .first)
    #expect(created.title == "Dark mode")
    #expect(created.detail == "line one\nline two")
    #expect(created.priority == .high)
    #expect(created.tags.map(\.name) == ["Bug", "Design", "UI"])
    #expect(answer.location == "/?filter=recent&issue=\(created.id.lower)&said=created")
    let after = web.get(
      "/", [("filter", "recent"), ("issue", created.id.lower), ("said", "created")])
    #expect(after.text.contains("aria-live=\"polite\" aria-atomic=\"true\">Issue created.</div>"))
  }

  /// A sort chosen in the browser is the device's from then on, for every face; one the server
  /// does not know stores nothing, and a read-only server sorts the page alone.
  @Test func aSortChosenInTheBrowserIsStoredForTheDevice() throws {
    let web = try WebTester()
    let answer = web.post("/sort", [("sort", "title:asc"), ("back", "/?filter=all")])
    #expect(answer.status == 303)
    #expect(answer.location == "/?filter=all")
    let stored = try web.queue.read { try $0.fetchSettings() }.issueSort
    #expect(stored == IssueSort(field: .title, ascending: true))
    #expect(web.page(WebLocation()).contains("<option value=\"title:asc\" selected>"))
    #expect(web.post("/sort", [("sort", "nonsense"), ("back", "/")]).status == 404)
    #expect(try web.queue.read { try $0.fetchSettings() }.issueSort == stored)

    let readOnly = try WebTester(readOnly: true)
    #expect(
      readOnly.page(WebLocation()).contains("<form class=\"sort\" action=\"/\" method=\"get\">"))
    #expect(readOnly.post("/sort", [("sort", "date:asc"), ("back", "/")]).status == 403)
    #expect(try readOnly.queue.read { try $0.fetchSettings() }.issueSort == .default)
  }

  @Test func anEmptyTitleIsRefusedAndTheFormKeepsWhatWasTyped() throws {
    let web = try WebTester()
    let answer = web.post(
      "/issues",
      [("title", "   "), ("detail", "kept <text>"), ("priority", "medium"), ("back", "/")])
    #expect(answer.status == 422)
    #expect(try web.count() == 0)
    #expect(answer.text.contains("<p class=\"problem\" role=\"alert\" id=\"form-error\">"))
    // Said as every face says it, with no command line in it.
    #expect(answer.text.contains("An issue needs a title."))
    #expect(!answer.text.contains("docket add"))
    #expect(answer.text.contains("rows=\"8\">\nkept &lt;text&gt;</textarea>"))
    #expect(answer.text.contains("<option value=\"medium\" selected>"))
    #expect(answer.text.contains("aria-invalid=\"true\""))
    // The browser lets the empty title through to be said so.
    #expect(!web.page(WebLocation(mode: .new)).contains(" required"))
  }

  @Test func savingWritesOnlyWhatChangedAndNamesWhatItOverwrote() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let issue = try web.issue("Draft", detail: "old", priority: .low, tags: [bug])
    // Meanwhile another shell changes the detail and the priority.
    try web.queue.write {
      _ = try $0.saveEdit(
        IssueEdit(
          from: issue,
          to: issue.with {
            $0.detail = "theirs"
            $0.priority = .medium
          }))
    }
    let form: [(String, String)] = [
      ("title", "Final"), ("detail", "old"), ("priority", "high"), ("new_tags", "UI"),
      ("base_title", "Draft"), ("base_detail", "old"), ("base_priority", "low"),
      ("base_completed", "0"), ("base_tag", bug.id.lower), ("back", "/?issue=\(issue.id.lower)"),
    ]
    let answer = web.post("/issues/\(issue.id.lower)", form)
    #expect(answer.status == 303)
    #expect(
      answer.location == "/?issue=\(issue.id.lower)&said=overwritten&fields=priority")
    let stored = try #require(try web.stored(issue.id))
    #expect(stored.title == "Final")
    #expect(stored.detail == "theirs")  // left alone here, so the other shell's stays
    #expect(stored.priority == .high)
    #expect(stored.tags.map(\.name) == ["UI"])  // Bug unticked, UI new
    let page = web.get(
      "/", [("issue", issue.id.lower), ("said", "overwritten"), ("fields", "priority")])
    #expect(page.text.contains("Changed elsewhere meanwhile, and now as in this edit: priority."))
  }

  /// A form posted without the script sends its text with CR LF line ends, the starting values
  /// too: a detail left alone is not written over another device's change.
  @Test func aDetailWithLineBreaksLeftAloneKeepsAnotherDevicesChange() throws {
    let web = try WebTester()
    let issue = try web.issue("Lines", detail: "one\ntwo")
    try web.queue.write {
      _ = try $0.saveEdit(IssueEdit(from: issue, to: issue.with { $0.detail = "theirs" }))
    }
    let answer = web.post(
      "/issues/\(issue.id.lower)",
      [
        ("title", "Lines, renamed"), ("detail", "one\r\ntwo"), ("priority", "low"),
        ("base_title", "Lines"), ("base_detail", "one\r\ntwo"), ("base_priority", "low"),
        ("base_completed", "0"), ("back", "/"),
      ])
    #expect(answer.location == "/?said=saved")
    #expect(try web.stored(issue.id)?.detail == "theirs")
    #expect(try web.stored(issue.id)?.title == "Lines, renamed")
    // The form writes a line end after <textarea>, which HTML drops, so a detail that starts
    // with a blank line keeps it.
    let form = web.page(WebLocation(issue: issue.id, mode: .edit))
    #expect(form.contains("name=\"detail\" rows=\"8\">\ntheirs</textarea>"))
  }

  @Test func completeReopenAndDeleteSayWhatHappened() throws {
    let web = try WebTester()
    let issue = try web.issue("Task")
    let path = "/issues/\(issue.id.lower)"
    let done = web.post(
      path + "/complete", [("completed", "1"), ("back", "/?issue=\(issue.id.lower)")])
    #expect(done.location == "/?issue=\(issue.id.lower)&said=completed")
    #expect(try web.stored(issue.id)?.completed == true)
    let again = web.post(path + "/complete", [("completed", "1"), ("back", "/")])
    #expect(again.location == "/?said=unchanged")
    _ = web.post(path + "/complete", [("completed", "0"), ("back", "/")])
    #expect(try web.stored(issue.id)?.completed == false)
    let deleted = web.post(path + "/delete", [("back", "/")])
    #expect(deleted.location == "/?said=deleted")
    #expect(try web.stored(issue.id) == nil)
    let gone = web.get("/", [("issue", issue.id.lower)])
    #expect(gone.status == 404)
    #expect(gone.text.contains("This issue no longer exists"))
    // The Undo of the delete: back as it was, and said; twice, nothing more.
    let restored = web.post(path + "/restore", [("back", "/?issue=\(issue.id.lower)")])
    #expect(restored.location == "/?issue=\(issue.id.lower)&said=restored")
    #expect(try web.stored(issue.id)?.title == "Task")
    #expect(web.get("/", [("said", "restored")]).text.contains("Issue restored."))
    #expect(web.post(path + "/restore", [("back", "/")]).location == "/?said=unchanged")
  }

  @Test func recentlyDeletedListsWhatCanComeBackAndRestoresIt() throws {
    let web = try WebTester()
    // Nothing deleted: the filter pane does not offer the page, which says so.
    #expect(!web.get("/").text.contains("href=\"/deleted\""))
    #expect(web.get("/deleted").text.contains("Nothing was deleted in the last 30 days."))
    let issue = try web.issue("Crash <on> start", priority: .high)
    try web.issue("Still open")
    _ = web.post("/issues/\(issue.id.lower)/delete", [("back", "/")])
    let list = web.get("/").text
    #expect(list.contains("<a href=\"/deleted\"><span class=\"name\">Recently deleted</span>"))
    #expect(list.contains("<span class=\"count\">1</span></a></li>"))
    let page = web.get("/deleted")
    #expect(page.status == 200)
    #expect(page.text.contains("Crash &lt;on&gt; start"))
    #expect(page.text.contains("on this device"))
    #expect(!page.text.contains("Still open"))
    #expect(page.text.contains("action=\"/issues/\(issue.id.lower)/restore\""))
    let restored = web.post("/issues/\(issue.id.lower)/restore", [("back", "/deleted")])
    #expect(restored.location == "/deleted?said=restored")
    #expect(try web.stored(issue.id)?.priority == .high)
    let after = web.get("/deleted", [("said", "restored")]).text
    #expect(after.contains("Issue restored."))
    #expect(!after.contains("Crash"))
    // Read-only, the page lists without a button to press; in German, in its words.
    let reader = try WebTester(readOnly: true)
    let other = try reader.issue("Gone")
    try reader.queue.write { _ = try $0.deleteIssues([other.id]) }
    let shown = reader.get("/deleted").text
    #expect(shown.contains("Gone"))
    #expect(!shown.contains("/restore"))
    let german = reader.get("/deleted", headers: ["accept-language": "de"]).text
    #expect(german.contains("Zuletzt gelöscht"))
  }

  @Test func tagsAreMadeRenamedAndDeletedAndATakenNameAsksToMerge() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    try web.tag("Feature")
    #expect(
      web.post("/tags", [("name", " UI "), ("back", "/tags")]).location
        == "/tags?said=tagCreated")
    #expect(
      web.post("/tags", [("name", "ui"), ("back", "/tags")]).location
        == "/tags?said=tagExists")
    // Onto another tag's name: the page asks whether to merge, and nothing changes meanwhile.
    let taken = web.post("/tags/\(bug.id.lower)", [("name", "feature"), ("back", "/tags")])
    #expect(taken.status == 409)
    #expect(taken.text.contains("Merge “Bug” into it?"), "\(taken.text)")
    #expect(taken.text.contains("name=\"merge\" value=\"1\""))
    #expect(try web.queue.read { try $0.fetchTag(id: bug.id) }?.name == "Bug")
    _ = web.post("/tags/\(bug.id.lower)", [("name", "Defect"), ("back", "/tags")])
    #expect(try web.queue.read { try $0.fetchTag(id: bug.id) }?.name == "Defect")
    let deleted = web.post("/tags/\(bug.id.lower)/delete", [("back", "/tags")])
    #expect(deleted.location == "/tags?said=tagDeleted")
    #expect(try web.queue.read { try $0.fetchTag(id: bug.id) } == nil)
  }

  /// A new issue the page named itself: sent twice (the first answer lost on the way), it is
  /// made once; a name already used for one since deleted makes nothing; a name that is no id
  /// is the server's to choose.
  @Test func aNewIssueNamedByThePageIsMadeOnce() throws {
    let web = try WebTester()
    let id = UUID(uuidString: "0000e000-0000-4000-8000-000000000001")!
    let form = [("title", "Once"), ("id", id.lower), ("back", "/")]
    let first = web.post("/issues", form)
    #expect(first.location?.contains("issue=\(id.lower)") == true)
    let again = web.post("/issues", form)
    #expect(again.location?.contains("issue=\(id.lower)") == true)
    #expect(again.location?.contains("said=created") == true)
    #expect(try web.count() == 1)
    #expect(try web.stored(id)?.title == "Once")
    _ = try web.queue.write { try $0.deleteIssues([id]) }
    let resent = web.post("/issues", form)
    #expect(resent.location?.contains("said=gone") == true)
    #expect(try web.count() == 0)
    _ = web.post("/issues", [("title", "Other"), ("id", "not an id"), ("back", "/")])
    #expect(try web.count() == 1)
  }

  /// Confirmed, the merge gives the issues of the one tag the other, and leaves one tag.
  @Test func aMergeConfirmedOnTheTagsPage() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let defect = try web.tag("Defect")
    _ = web.post("/issues", [("title", "Tagged"), ("tag", defect.id.lower), ("back", "/")])
    let tagged = try web.queue.read { db in
      try db.fetchIssues(IssueRequest(filter: .all, now: Date())).first
    }
    #expect(tagged?.tags.map(\.name) == ["Defect"])
    let merged = web.post(
      "/tags/\(defect.id.lower)", [("name", "Bug"), ("merge", "1"), ("back", "/tags")])
    #expect(merged.location == "/tags?said=tagsMerged")
    let tags = try web.queue.read { try $0.fetchTags() }
    #expect(tags.map(\.name) == ["Bug"])
    #expect(tags.first?.id == TagName.keptID(merging: defect.id, into: bug.id))
    let after = try web.queue.read { try $0.fetchIssue(id: tagged!.id) }
    #expect(after?.tags.map(\.name) == ["Bug"])
  }

  @Test func aChangeWakesTheOpenEventStreams() throws {
    let web = try WebTester()
    let events = web.get("/events")
    #expect(events.header("Content-Type") == "text/event-stream")
    guard case .stream(let stream) = events.body else {
      Testing.Issue.record("not a stream")
      return
    }
    #expect(String(decoding: stream.next() ?? [], as: UTF8.self).hasPrefix("retry: 1000"))
    #expect(web.app.live.listeners == 1)
    _ = web.post("/issues", [("title", "New"), ("back", "/")])
    #expect(String(decoding: stream.next() ?? [], as: UTF8.self) == "event: change\ndata: 1\n\n")
    stream.close()
    #expect(stream.next() == nil)
    #expect(web.app.live.listeners == 0)
    // A page drawn before a change, whose stream connects after it, hears of it at once.
    let page = web.get("/").text
    #expect(page.contains("<meta name=\"live-version\" content=\"1\">"))
    _ = web.post("/tags", [("name", "Meanwhile"), ("back", "/")])
    let late = web.get("/events", [("since", "1")])
    guard case .stream(let caughtUp) = late.body else {
      Testing.Issue.record("not a stream")
      return
    }
    _ = caughtUp.next()
    #expect(String(decoding: caughtUp.next() ?? [], as: UTF8.self) == "event: change\ndata: 2\n\n")
    caughtUp.close()
  }

  @Test func aClosedStreamEndsAndIsNotCounted() throws {
    let web = try WebTester()
    guard case .stream(let stream) = web.get("/events").body else {
      Testing.Issue.record("not a stream")
      return
    }
    _ = stream.next()
    stream.close()
    #expect(stream.next() == nil)
    #expect(web.app.live.listeners == 0)
  }

  @Test func theLiveWatcherSeesAnotherProcesssCommit() throws {
    let folder = try TemporaryDirectory(prefix: "docket-web-live")
    let path = folder.path("docket.sqlite")
    let queue = try DocketDatabase.open(path: path)
    let live = LiveChanges(path: path, interval: 0.02)
    live.start()
    defer { live.stop() }
    let stream = live.stream()
    _ = stream.next()
    // Another connection, as another process would have, writes.
    let other = try DocketDatabase.connection(path: path)
    try other.execute(
      "INSERT INTO tags (id, name) VALUES ('00000000-0000-0000-0000-0000000000aa', 'X')")
    #expect(String(decoding: stream.next() ?? [], as: UTF8.self).hasPrefix("event: change"))
    _ = queue
  }
}

extension DocketCore.Issue {
  func with(_ change: (inout DocketCore.Issue) -> Void) -> DocketCore.Issue {
    var copy = self
    change(&copy)
    return copy
  }
}

/// Pages kept while the data is as it was, and for at most a second.
@Suite struct PageCacheTests {
  @Test func aPageIsKeptForItsVersionAndASecond() {
    let cache = PageCache(maximumAge: 1)
    let start = Date(timeIntervalSince1970: 1000)
    cache.keep("en /", version: 3, now: start, status: 200, body: [1, 2])
    #expect(cache.page("en /", version: 3, now: start.addingTimeInterval(0.5))?.body == [1, 2])
    #expect(cache.page("de /", version: 3, now: start) == nil)
    #expect(cache.page("en /", version: 4, now: start) == nil)
    #expect(cache.page("en /", version: 3, now: start.addingTimeInterval(1)) == nil)
    // A newer version drops the older pages; an older one is not kept over it.
    cache.keep("en /?q=a", version: 4, now: start, status: 200, body: [3])
    #expect(cache.page("en /", version: 3, now: start) == nil)
    cache.keep("en /", version: 3, now: start, status: 200, body: [9])
    #expect(cache.page("en /", version: 4, now: start) == nil)
    #expect(cache.page("en /?q=a", version: 4, now: start)?.body == [3])
  }
}

extension PageCacheTests {
  @Test func requestsForAPageBeingDrawnWaitForThatDrawing() {
    let cache = PageCache(maximumAge: 1)
    let now = Date(timeIntervalSince1970: 1000)
    let draws = Locked(0)
    let bodies = Locked<[[UInt8]]>([])
    // Six threads that all ask at once, as six connections' threads would.
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for _ in 0..<6 {
      done.enter()
      Thread {
        start.wait()
        let page = cache.page("en /", version: 1, now: now) {
          draws.withLock { $0 += 1 }
          usleep(200_000)
          return (200, [7])
        }
        bodies.withLock { $0.append(page.body) }
        done.leave()
      }.start()
    }
    for _ in 0..<6 { start.signal() }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(draws.withLock { $0 } == 1)
    #expect(bodies.withLock { $0 } == Array(repeating: [7], count: 6))
  }

  @Test func pagesPastTheirAgeOrOverTheByteLimitAreNotKept() {
    let cache = PageCache(maximumAge: 1, byteLimit: 10)
    let start = Date(timeIntervalSince1970: 1000)
    cache.keep("a", version: 1, now: start, status: 200, body: Array(repeating: 1, count: 6))
    // Over the limit with the first still young: not kept.
    cache.keep("b", version: 1, now: start, status: 200, body: Array(repeating: 2, count: 6))
    #expect(cache.page("b", version: 1, now: start) == nil)
    // Once the first is past its age it goes, and the second fits.
    let later = start.addingTimeInterval(2)
    cache.keep("b", version: 1, now: later, status: 200, body: Array(repeating: 2, count: 6))
    #expect(cache.page("b", version: 1, now: later)?.body.count == 6)
    #expect(cache.page("a", version: 1, now: later) == nil)
  }
}

/// The web app on a database file, as `docket serve` runs it: pages read on connections of
/// their own and kept while nothing changes, and a commit by another program seen at once.
@Suite struct FileDatabaseTests {
  @Test func aCommitByAnotherProgramIsInTheNextPage() throws {
    let folder = try TemporaryDirectory(prefix: "docket-web-file")
    let path = folder.path("docket.sqlite")
    let queue = try DocketDatabase.open(path: path)
    let live = LiveChanges(path: path, interval: 60)  // the watcher's own look comes too late
    live.start()
    defer { live.stop() }
    let app = WebApp(
      database: queue,
      security: WebSecurity(
        token: "t", csrf: "c", allowedHosts: ["localhost"], usesTLS: false, cookie: "k"),
      readOnly: false, live: live)
    try queue.write { try $0.pairBrowser(WebTester.browser, name: "Test", now: Date()) }
    func page() -> String {
      app.handle(
        HTTPRequest(
          method: "GET", path: "/", headers: ["host": "localhost"],
          cookies: ["k": WebTester.browser.cookie])
      ).text
    }
    #expect(page().contains("0 issues"))
    #expect(page().contains("0 issues"))  // kept
    let other = try DocketDatabase.connection(path: path)
    _ = try other.createIssue(id: UUID(), title: "From another program", now: Date())
    let after = page()
    #expect(after.contains("From another program"))
    #expect(after.contains("1 issue"))
  }
}
