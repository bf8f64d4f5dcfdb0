import Database
import Foundation
import Testing

@testable import DocketCore

/// Saving an edit writes only what it changed, over the issue as it is stored at that moment.
@Suite struct IssueEditTests {
  let db: TestDatabase
  let bug: Tag
  let ui: Tag
  let base: Issue

  init() throws {
    db = try TestDatabase()
    bug = try db.tag("Bug")
    ui = try db.tag("UI")
    base = try db.issue("Fix login", priority: .medium, tags: [bug])
  }

  func stored() throws -> Issue {
    try #require(try db.queue.read { try $0.fetchIssue(id: base.id) })
  }

  /// Somebody else's change to the stored issue, made while "our" edit was open.
  func changeElsewhere(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
    try db.queue.write { try $0.execute(sql, arguments) }
  }

  @Test func theEditHoldsOnlyWhatChanged() {
    var edited = base
    edited.title = "Fix the login"
    edited.tags = [ui]
    let edit = IssueEdit(from: base, to: edited)
    #expect(edit.title == "Fix the login")
    #expect(edit.detail == nil && edit.priority == nil && edit.completed == nil)
    #expect(edit.addedTags == [ui.id])
    #expect(edit.removedTags == [bug.id])
    #expect(IssueEdit(from: base, to: base).isEmpty)
  }

  @Test func fieldsAndTagsChangedElsewhereAndNotHereKeepTheirNewerValues() throws {
    var edited = base
    edited.title = "Fix the login"
    try changeElsewhere("UPDATE issues SET completed = 1, priority = 2, detail = 'Seen on iOS'")
    try db.queue.write { try $0.saveEdit(IssueEdit(id: base.id, addingTags: [ui.id])) }

    let outcome = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(outcome.changed)
    #expect(outcome.overwritten.isEmpty)
    let now = try stored()
    #expect(now.title == "Fix the login")
    #expect(now.completed && now.priority == .high && now.detail == "Seen on iOS")
    #expect(now.tags == [bug, ui])
    #expect(outcome.issue == now)
  }

  @Test func aFieldChangedInBothPlacesTakesThisEditsValueAndIsNamed() throws {
    var edited = base
    edited.title = "Mine"
    edited.priority = .low
    edited.detail = "Same text"
    try changeElsewhere("UPDATE issues SET title = 'Theirs', priority = 2, detail = 'Same text'")
    let outcome = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    // Title and priority were changed to other values elsewhere; the detail to the same one.
    #expect(outcome.overwritten == [.title, .priority])
    let now = try stored()
    #expect(now.title == "Mine" && now.priority == .low && now.detail == "Same text")
  }

  @Test func anEditThatMatchesTheStoredIssueWritesNothing() throws {
    var edited = base
    edited.title = "Renamed"
    try changeElsewhere("UPDATE issues SET title = 'Renamed'")
    let before = try stored()
    db.time.advance(by: 60)
    let outcome = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(!outcome.changed)
    #expect(try stored().modified == before.modified)
  }

  @Test func aTagChangeAloneStampsModified() throws {
    db.time.advance(by: 60)
    var edited = base
    edited.tags = [bug, ui]
    let outcome = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(outcome.changed)
    #expect(try stored().modified == db.now)
  }

  @Test func aDeletedIssueStaysDeletedAndADeletedTagIsNotLinkedAgain() throws {
    let gone = try db.tag("Gone")
    var edited = base
    edited.tags = [bug, gone]
    try db.queue.write { try $0.deleteTag(id: gone.id) }
    _ = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(try stored().tags == [bug])

    try db.queue.write { _ = try $0.deleteIssues([base.id]) }
    edited.title = "Too late"
    let outcome = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(outcome == EditOutcome(issue: nil, changed: false, overwritten: []))
    #expect(try db.queue.read { try $0.fetchIssue(id: base.id) } == nil)
  }

  /// The form made a tag "Docs" that was never stored because another "Docs" was created
  /// elsewhere first: the edit links that one.
  @Test func aTagAddedUnderANameCreatedElsewhereLinksThatTag() throws {
    let docs = try db.tag("Docs")
    var edited = base
    edited.tags = [bug, Tag(id: UUID(), name: "docs")]
    _ = try db.queue.write { try $0.saveEdit(IssueEdit(from: base, to: edited)) }
    #expect(try stored().tags == [bug, docs])
  }

  @Test func appliedShowsWhatTheDatabaseWillHold() throws {
    var edited = base
    edited.title = "Local"
    edited.tags = [ui]
    var newer = base
    newer.completed = true
    let applied = IssueEdit(from: base, to: edited).applied(to: newer, tags: [bug, ui])
    #expect(applied.title == "Local" && applied.completed && applied.tags == [ui])
  }
}

extension IssueEdit {
  init(id: UUID, addingTags tags: Set<UUID>) {
    self.init(id: id)
    addedTags = tags
  }
}
