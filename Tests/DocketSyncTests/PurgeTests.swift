import Database
import DocketCore
import DocketTestSupport
import Foundation
import JSONText
import Testing

@testable import DocketSync

/// "Delete now" and the 30-day end of a deleted issue: a purge, a change every device follows,
/// which no restore undoes.
@Suite struct PurgeTests {
  @Test func anIssueDeletedForGoodIsNeitherListedNorRestorable() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let gone = try a.issue("Gone for good")
    let living = try a.issue("Deleted now, while it lived")
    let kept = try a.issue("Only deleted")
    try a.queue.write { _ = try $0.deleteIssues([gone.id, kept.id]) }
    #expect(try a.queue.write { try $0.purgeIssue(id: gone.id) })
    #expect(try a.queue.write { try $0.purgeIssue(id: living.id) })
    #expect(try a.stored(living.id) == nil)
    #expect(try a.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [kept.id])
    #expect(try a.queue.read { try $0.recentlyDeletedCount() } == 1)
    #expect(try a.queue.write { try $0.restoreDeletedIssue(id: gone.id) } == nil)
    // Twice, or of an issue never made: nothing to do.
    #expect(try !a.queue.write { try $0.purgeIssue(id: gone.id) })
    #expect(try !a.queue.write { try $0.purgeIssue(id: UUID()) })
    let history = try a.queue.read { try $0.history(ofIssue: gone.id) }
    #expect(history.last?.what == .purged)
    // A purge is no step to undo: the latest step is the delete of the two.
    #expect(try a.queue.read { try $0.undoableSteps() }.first?.summary.verb == .delete)
  }

  @Test(arguments: Backend.allCases) func aPurgeBeatsARestoreMadeElsewhereEvenLater(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    _ = remote
    let issue = try a.issue("Crash")
    try a.sync()
    try b.sync()
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    try a.sync()
    try b.sync()
    a.time.advance(by: 60)
    #expect(try a.queue.write { try $0.purgeIssue(id: issue.id) })
    // B, not yet told, brings it back later still.
    b.time.advance(by: 120)
    #expect(try b.queue.write { try $0.restoreDeletedIssue(id: issue.id) } != nil)
    try b.sync()
    try a.sync()
    try b.sync()
    for replica in [a, b] {
      #expect(try replica.stored(issue.id) == nil, "\(replica.name)")
      #expect(try replica.queue.read { try $0.recentlyDeletedIssues() }.isEmpty)
    }
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: Backend.allCases) func thirtyDaysAfterItsDeleteASyncEndsAnIssueEverywhere(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    _ = remote
    let old = try a.issue("Old")
    let forgotten = try a.issue("Forgotten")
    let recent = try a.issue("Recent")
    try a.queue.write { _ = try $0.deleteIssues([old.id, forgotten.id]) }
    try a.sync()
    try b.sync()
    for replica in [a, b] { replica.time.advance(by: RecentlyDeleted.window - 3600) }
    try a.queue.write { _ = try $0.deleteIssues([recent.id]) }
    // B, offline, restores one before its 30 days are over.
    #expect(try b.queue.write { try $0.restoreDeletedIssue(id: old.id) } != nil)
    for replica in [a, b] { replica.time.advance(by: 7200) }
    // A, not yet told, ends both at its next sync: each purge names the delete it ends.
    try a.sync()
    #expect(
      try a.queue.read {
        try $0.fetchOne("SELECT count(*) FROM changes WHERE field = 'purge'", as: Int.self)
      } == 2)
    try b.sync()
    try a.sync()
    try b.sync()
    for replica in [a, b] {
      // The restore, stamped after the delete, wins over the end of that delete.
      #expect(try replica.stored(old.id)?.title == "Old", "\(replica.name)")
      #expect(try replica.stored(forgotten.id) == nil, "\(replica.name)")
      #expect(try replica.queue.write { try $0.restoreDeletedIssue(id: forgotten.id) } == nil)
      #expect(try replica.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [recent.id])
    }
    #expect(try a.dump() == b.dump())
  }

  @Test func aBackupDoesNotBringBackAnIssueDeletedForGood() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let issue = try a.issue("In the backup")
    let other = try a.issue("Also in it")
    let backup = try a.backup()
    try a.queue.write { _ = try $0.deleteIssues([issue.id, other.id]) }
    #expect(try a.queue.write { try $0.purgeIssue(id: issue.id) })
    let summary = try a.restore(backup, restoreDeleted: true)
    #expect(summary.restoredIssues == 1)
    #expect(summary.keptDeleted == 1)
    #expect(try a.stored(issue.id) == nil)
    #expect(try a.stored(other.id) != nil)
  }

  @Test func aPurgeLineCarriesNoValue() throws {
    let device = UUID().lowercasedText
    let row = UUID().lowercasedText
    var members: [(String, JSON)] = [
      ("h", .string("123456789")), ("d", .string(device)), ("e", .string("issue")),
      ("r", .string(row)), ("f", .string("purge")),
    ]
    let purge = try Change(json: .object(members), line: 1)
    #expect(purge.field == "purge")
    #expect(purge.isOfNewerFormat)
    members.append(("n", .string("x")))
    #expect(throws: ChangeFormatError.self) { try Change(json: .object(members), line: 1) }
  }
}
