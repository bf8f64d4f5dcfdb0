import Database
import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import HTTPServer
import Testing

@testable import DocketWeb

/// The page's Undo (and Ctrl-Z's, which posts the same) and the conflicts page.
@Suite struct UndoAndConflictsTests {
  @Test func undoTakesBackTheLatestChangeAndSaysWhatInItsOwnWords() throws {
    let web = try WebTester()
    let issue = try web.issue("Task")
    let saved = web.post(
      "/issues/\(issue.id.lower)",
      [("title", "Task renamed"), ("detail", ""), ("priority", "low"), ("back", "/")])
    #expect(saved.status == 303)
    #expect(try web.stored(issue.id)?.title == "Task renamed")
    let undone = web.post("/undo", [("back", "/")])
    #expect(undone.location == "/?said=undone&kept=0")
    #expect(try web.stored(issue.id)?.title == "Task")
    #expect(
      web.get("/", [("said", "undone"), ("kept", "0")]).text.contains(
        "Undid “edit Task”."))
    let redone = web.post("/redo", [("back", "/")])
    #expect(redone.location == "/?said=redone&kept=0")
    #expect(try web.stored(issue.id)?.title == "Task renamed")
    #expect(
      web.get("/", [("said", "redone"), ("kept", "2")]).text.contains(
        "Redid “edit Task renamed”. 2 changes made since were kept."))
    #expect(web.post("/redo", [("back", "/")]).location == "/?said=nothingToRedo")
    #expect(web.get("/", [("said", "nothingToRedo")]).text.contains("Nothing to redo."))
    // A read-only server takes no undo.
    let reader = try WebTester(readOnly: true)
    #expect(reader.post("/undo", [("back", "/")]).status != 303)
  }

  /// A title set here after a title another device set without seeing it: the other's lost.
  func conflicted(_ web: WebTester) throws -> DocketCore.Issue {
    let issue = try web.issue("Task")
    let other = UUID().lowercasedText
    let before = HybridClock.stamp(WebTester.now.addingTimeInterval(-60))
    try web.queue.write { db in
      try db.saveIssue(
        DocketCore.Issue(
          id: issue.id, title: "Kept here", detail: "", priority: .low, completed: false,
          created: issue.created, tags: []))
      _ = try db.applyChanges(
        [
          Change(
            stamp: Stamp(hlc: before, device: other), entity: .issue, row: issue.id.lower,
            field: "title", old: .text("Task"), new: .text("Lost <there>"),
            modified: WebTester.now.timeIntervalSince1970 - 60)
        ], deviceNames: [other: "Phone"])
    }
    return issue
  }

  @Test func theConflictsPageListsALostValueAndUsesOrDismissesIt() throws {
    let web = try WebTester()
    #expect(!web.get("/").text.contains("href=\"/conflicts\""))
    #expect(web.get("/conflicts").text.contains("No conflicts."))
    let issue = try conflicted(web)
    let list = web.get("/").text
    #expect(list.contains("<a href=\"/conflicts\"><span class=\"name\">Conflicts</span>"))
    let page = web.get("/conflicts").text
    #expect(page.contains("Lost &lt;there&gt;"))
    #expect(page.contains("on Phone"))
    #expect(page.contains("Kept here"))
    let id = try #require(try web.queue.read { try $0.conflicts() }.first?.id)
    #expect(page.contains("action=\"/conflicts/\(id)/use\""))
    // The issue's detail shows it too, beside the value kept, with the same two buttons.
    let detail = web.get("/", [("issue", issue.id.lower)]).text
    #expect(detail.contains("<h3 id=\"conflicts-heading\">Conflicts · 1</h3>"))
    #expect(detail.contains("Lost &lt;there&gt;"))
    #expect(detail.contains("action=\"/conflicts/\(id)/dismiss\""))
    let used = web.post("/conflicts/\(id)/use", [("back", "/conflicts")])
    #expect(used.location == "/conflicts?said=used")
    #expect(try web.stored(issue.id)?.title == "Lost <there>")
    #expect(!web.get("/").text.contains("href=\"/conflicts\""))
    #expect(
      web.post("/conflicts/\(id)/dismiss", [("back", "/conflicts")]).location
        == "/conflicts?said=conflictGone")
    #expect(try web.queue.read { try $0.awardCounts() }.resolved == 1)
  }

  @Test func aDismissKeepsTheValueAndTheGermanPageSaysSo() throws {
    let web = try WebTester()
    let issue = try conflicted(web)
    let german = web.get("/conflicts", headers: ["accept-language": "de"]).text
    #expect(german.contains("Diesen Wert übernehmen"))
    let id = try #require(try web.queue.read { try $0.conflicts() }.first?.id)
    #expect(
      web.post("/conflicts/\(id)/dismiss", [("back", "/conflicts")]).location
        == "/conflicts?said=dismissed")
    #expect(try web.stored(issue.id)?.title == "Kept here")
    #expect(try web.queue.read { try $0.conflictCount() } == 0)
  }

  @Test func deleteNowAsksThenEndsAnIssueForGood() throws {
    let web = try WebTester()
    let issue = try web.issue("Gone <soon>")
    _ = web.post("/issues/\(issue.id.lower)/delete", [("back", "/")])
    let page = web.get("/deleted").text
    #expect(page.contains("href=\"/deleted?confirm=\(issue.id.lower)\""))
    let asking = web.get("/deleted", [("confirm", issue.id.lower)]).text
    #expect(asking.contains("Delete “Gone &lt;soon&gt;” for good, on every device?"))
    #expect(asking.contains("action=\"/issues/\(issue.id.lower)/purge\""))
    let purged = web.post("/issues/\(issue.id.lower)/purge", [("back", "/deleted")])
    #expect(purged.location == "/deleted?said=purged")
    #expect(web.get("/deleted", [("said", "purged")]).text.contains("Deleted for good"))
    #expect(!web.get("/deleted").text.contains("Gone"))
    #expect(
      web.post("/issues/\(issue.id.lower)/restore", [("back", "/deleted")]).location
        == "/deleted?said=unchanged")
    #expect(web.post("/issues/\(issue.id.lower)/purge", [("back", "/")]).location == "/?said=gone")
  }
}
