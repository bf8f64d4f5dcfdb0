import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct TagWriteTests {
  let db: TestDatabase
  init() throws { db = try TestDatabase() }

  @Test func namesAreTrimmedAndUniqueIgnoringCase() throws {
    let first = try db.queue.write {
      try $0.createTag(named: "  UI   Design \n", id: db.uuids.make())
    }
    #expect(first.created)
    #expect(first.tag.name == "UI Design")
    let again = try db.queue.write { try $0.createTag(named: "ui design", id: db.uuids.make()) }
    #expect(!again.created)
    #expect(again.tag == first.tag)
    #expect(try db.queue.read { try $0.fetchTags() }.count == 1)
  }

  @Test func blankNamesAreRefused() throws {
    for name in ["", "   ", "\n\t"] {
      #expect(throws: TagError.emptyName) {
        try db.queue.write { try $0.createTag(named: name, id: db.uuids.make()) }
      }
    }
    let tag = try db.tag("Kept")
    #expect(throws: TagError.emptyName) {
      try db.queue.write { try $0.renameTag(id: tag.id, to: " ") }
    }
    #expect(try db.queue.read { try $0.fetchTags() } == [tag])
  }

  @Test func renamingAllowsACaseChangeButNotAnotherTagsName() throws {
    let bug = try db.tag("bug")
    let ui = try db.tag("UI")
    #expect(try db.queue.write { try $0.renameTag(id: bug.id, to: "Bug") }.name == "Bug")
    #expect(throws: TagError.nameTaken("UI")) {
      try db.queue.write { try $0.renameTag(id: bug.id, to: "ui") }
    }
    #expect(throws: TagError.notFound) {
      try db.queue.write { try $0.renameTag(id: db.uuids.make(), to: "x") }
    }
    #expect(try db.queue.read { try $0.fetchTag(named: "BUG") } == Tag(id: bug.id, name: "Bug"))
    #expect(try db.queue.read { try $0.fetchTag(id: ui.id) } == ui)
  }

  @Test func tagCountsCountOpenAndAll() throws {
    let bug = try db.tag("Bug")
    let idle = try db.tag("Idle")
    try db.issue("a", tags: [bug])
    try db.issue("b", completed: true, tags: [bug])
    try db.issue("c", tags: [bug])
    let summaries = try db.queue.read { try $0.tagSummaries() }
    #expect(
      Set(summaries) == [
        TagSummary(tag: bug, open: 2, total: 3), TagSummary(tag: idle, open: 0, total: 0),
      ])
  }
}

@Suite struct IssueWriteTests {
  let db: TestDatabase
  init() throws { db = try TestDatabase() }

  @Test func savingAnUnchangedIssueWritesNothing() throws {
    let issue = try db.issue("Same")
    db.time.advance(by: 60)
    #expect(try db.queue.write { try $0.saveIssue(issue) } == false)
    #expect(try db.queue.read { try $0.fetchIssue(id: issue.id) } == issue)
  }

  @Test func savingChangedFieldsStampsModified() throws {
    var issue = try db.issue("Before")
    db.time.advance(by: 60)
    issue.title = "After"
    issue.priority = .high
    #expect(try db.queue.write { try $0.saveIssue(issue) })
    let stored = try #require(try db.queue.read { try $0.fetchIssue(id: issue.id) })
    #expect(stored.title == "After")
    #expect(stored.priority == .high)
    #expect(stored.modified == db.now)
  }

  @Test func savingOnlyTagChangesWritesLinksAndStampsModified() throws {
    let bug = try db.tag("Bug")
    let ui = try db.tag("UI")
    var issue = try db.issue("Tagged", tags: [bug])
    db.time.advance(by: 60)
    issue.tags = [ui]
    #expect(try db.queue.write { try $0.saveIssue(issue) })
    let stored = try #require(try db.queue.read { try $0.fetchIssue(id: issue.id) })
    #expect(stored.tags == [ui])
    #expect(stored.modified == db.now)
  }

  @Test func aSaveThatFailsHalfWayLeavesNothingBehind() throws {
    var issue = try db.issue("Stable")
    issue.title = "Changed"
    issue.tags = [Tag(id: db.uuids.make(), name: "not stored")]
    #expect(throws: TagError.notFound) { try db.queue.write { try $0.saveIssue(issue) } }
    #expect(try db.queue.read { try $0.fetchIssue(id: issue.id)?.title } == "Stable")
  }

  @Test func completingAndReopeningChangesOnlyWhatDiffers() throws {
    let open = try db.issue("open")
    let done = try db.issue("done", completed: true)
    #expect(try db.queue.write { try $0.setCompleted(true, issueIDs: [open.id, done.id]) } == 1)
    #expect(try db.titles(.completed).count == 2)
    #expect(try db.queue.write { try $0.setCompleted(false, issueIDs: [open.id]) } == 1)
    #expect(try db.queue.write { try $0.deleteIssues([open.id, UUID()]) } == 1)
  }

  @Test func referencesAreTheShortestUniquePrefixOfAtLeastFourDigits() throws {
    let ids = [
      "8c1e0000-0000-4000-8000-000000000001", "8c1e0000-0000-4000-8000-000000000002",
      "8c1f0000-0000-4000-8000-000000000000", "12345678-0000-4000-8000-000000000000",
    ].map { UUID(uuidString: $0)! }
    try db.queue.write { db in
      for id in ids { try db.insertIssue(Issue(id: id, title: "x", created: Date())) }
    }
    let references = try db.queue.read { try $0.references(for: ids) }
    #expect(references[ids[0]] == "8c1e0000000040008000000000000001")
    #expect(references[ids[2]] == "8c1f")
    #expect(references[ids[3]] == "1234")
    #expect(try db.queue.read { try $0.issueIDs(withPrefix: "8c1e") } == [ids[0], ids[1]])
    #expect(
      try db.queue.read { try $0.issueIDs(withPrefix: "8C1E0000-0000-4000-8000-00000000000") } == [
        ids[0], ids[1],
      ])
    #expect(
      try db.queue.read { try $0.issueIDs(withPrefix: "8c1e000000004000800000000000000") }.count
        == 2)
    #expect(try db.queue.read { try $0.issueIDs(withPrefix: "zzzz") } == [])
    #expect(IssueReference.canonicalPrefix("8c1e00001") == "8c1e0000-1")
  }
}
