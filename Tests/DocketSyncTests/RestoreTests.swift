import Database
import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import Testing

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
}
