import Database
import DocketCore
import DocketTestSupport
import Foundation
import Testing

@testable import DocketSync

/// A deleted issue brought back (the web page's Undo of a delete): as it was when deleted, and
/// on every device, since a restore stamped after a delete wins over it.
@Suite struct RestoreTests {
  @Test func aRestoreBringsBackTheFieldsAndTagsOfTheDelete() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let bug = try a.tag("Bug")
    let ui = try a.tag("UI")
    let issue = try a.issue("Crash on start", tags: [bug, ui])
    try a.edit(issue.id) {
      $0.detail = "Since the update"
      $0.priority = .high
    }
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    // A tag taken off meanwhile is not brought back; the other comes back with the issue.
    try a.queue.write { _ = try $0.deleteTag(id: ui.id) }
    a.time.advance(by: 60)
    let restored = try #require(try a.queue.write { try $0.restoreDeletedIssue(id: issue.id) })
    #expect(restored.title == "Crash on start")
    #expect(restored.detail == "Since the update")
    #expect(restored.priority == .high)
    #expect(restored.created == issue.created)
    #expect(restored.tags.map(\.name) == ["Bug"])
    let history = try a.queue.read { try $0.history(ofIssue: issue.id) }
    #expect(history.contains { $0.what == .restored(title: "Crash on start") })
    // A living issue, or one never made: nothing to bring back.
    #expect(try a.queue.write { try $0.restoreDeletedIssue(id: issue.id) } == nil)
    #expect(try a.queue.write { try $0.restoreDeletedIssue(id: UUID()) } == nil)
  }

  @Test(arguments: Backend.allCases) func aRestoreOnOneDeviceOfADeleteOnAnotherReachesBoth(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    _ = remote
    let bug = try a.tag("Bug")
    let issue = try a.issue("Crash", tags: [bug])
    try a.sync()
    try b.sync()
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    try a.sync()
    try b.sync()
    #expect(try b.stored(issue.id) == nil)
    b.time.advance(by: 120)
    #expect(try b.queue.write { try $0.restoreDeletedIssue(id: issue.id) } != nil)
    try b.sync()
    try a.sync()
    for replica in [a, b] {
      let back = try #require(try replica.stored(issue.id), "\(replica.name)")
      #expect(back.title == "Crash")
      #expect(back.tags.map(\.name) == ["Bug"])
    }
    #expect(try a.dump() == b.dump())
  }

  @Test func recentlyDeletedListsEachDeletedIssueNewestFirstForThirtyDays() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let first = try a.issue("First to go", priority: .high)
    let second = try a.issue("Second to go")
    let kept = try a.issue("Kept")
    try a.queue.write { _ = try $0.deleteIssues([first.id]) }
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.deleteIssues([second.id]) }
    let listed = try a.queue.read { try $0.recentlyDeletedIssues() }
    #expect(listed.map(\.title) == ["Second to go", "First to go"])
    #expect(listed.last?.priority == .high)
    #expect(listed.allSatisfy { $0.deletedHere })
    #expect(listed.first?.deleted == a.time.now)
    #expect(!listed.contains { $0.id == kept.id })
    let newest = try a.queue.read { try $0.recentlyDeletedIssues(limit: 1) }
    #expect(newest.map(\.id) == [second.id])

    // A restored issue leaves the list; deleted again, it is back with its newer date.
    a.time.advance(by: 60)
    _ = try a.queue.write { try $0.restoreDeletedIssue(id: first.id) }
    #expect(try a.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [second.id])
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.deleteIssues([first.id]) }
    #expect(
      try a.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [first.id, second.id])

    // Thirty days after its delete an issue is gone for good: not listed, not restorable.
    a.time.advance(by: RecentlyDeleted.window - 60)
    #expect(try a.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [first.id])
    #expect(try a.queue.write { try $0.restoreDeletedIssue(id: second.id) } == nil)
    #expect(try a.stored(second.id) == nil)
    #expect(try a.queue.write { try $0.restoreDeletedIssue(id: first.id) } != nil)
  }

  @Test func aDeleteSyncedFromAnotherDeviceIsListedWithItsName() throws {
    let (folder, a, b) = try Replica.pair()
    _ = folder
    let issue = try a.issue("Crash")
    try a.sync()
    try b.sync()
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    try a.sync()
    b.time.advance(by: 60)
    try b.sync()
    let listed = try #require(try b.queue.read { try $0.recentlyDeletedIssues() }.first)
    #expect(listed.id == issue.id)
    #expect(!listed.deletedHere)
    #expect(listed.deletedBy == a.name)
    let references = try b.queue.read { try $0.references(forDeleted: [listed]) }
    #expect(references[issue.id] == String(IssueReference.hex(issue.id).prefix(4)))
    #expect(
      try b.queue.read { try $0.recentlyDeletedIDs(withPrefix: references[issue.id]!, limit: 2) }
        .map(\.id) == [issue.id])
  }

  /// What a delete kept, as another device or an older Docket may have written it: the list,
  /// its count and a restore agree on each, and none of them fails.
  @Test func theListItsCountAndARestoreAgreeOnWhatADeleteKept() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let longDetail = String(repeating: "d", count: Limits.detailCharacters + 10)
    let kept: [(String, String?)] = [
      (#"{"title": "Two\nlines", "priority": 2, "detail": "\#(longDetail)"}"#, "Two lines"),
      (#"{"title": "First", "title": "Second"}"#, "First"),
      (#"{"title": 5}"#, nil),
      (#"{"title": ""}"#, nil),
      ("not JSON", nil),
    ]
    var ids: [UUID] = []
    for (index, (oldValue, _)) in kept.enumerated() {
      let issue = try a.issue("Issue \(index)")
      ids.append(issue.id)
      try a.queue.write { db in
        _ = try db.deleteIssues([issue.id])
        try db.execute(
          "UPDATE changes SET old_value = ? WHERE row_id = ? AND field = 'delete'",
          [oldValue, issue.id.lowercasedText])
      }
      a.time.advance(by: 1)
    }
    let listed = try a.queue.read { try $0.recentlyDeletedIssues() }
    #expect(listed.map(\.title) == ["First", "Two lines"])
    #expect(try a.queue.read { try $0.recentlyDeletedCount() } == listed.count)
    for (id, (_, title)) in zip(ids, kept) {
      let restored = try a.queue.write { try $0.restoreDeletedIssue(id: id) }
      #expect(restored?.title == title)
    }
    // What an older Docket kept beyond the limits comes back within them; a creation time
    // it did not keep is the delete's.
    let long = try #require(try a.stored(ids[0]))
    #expect(long.detail.count == Limits.detailCharacters)
    #expect(long.created == listed.last?.created)
    #expect(try a.queue.read { try $0.recentlyDeletedCount() } == 0)
  }

  @Test func theListReadsTheDeletesThroughTheirOwnIndex() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let plan = try a.queue.read { db in
      try db.fetchAll("EXPLAIN QUERY PLAN " + Connection.recentlyDeletedSQL, [0]) {
        try $0.get(3, as: String.self)
      }
    }
    #expect(plan.contains { $0.contains("changes_issue_deletes") }, "\(plan)")
  }
}
