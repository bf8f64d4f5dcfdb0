import Database
import DocketCore
import DocketTestSupport
import Foundation
import Testing

@testable import DocketSync

/// Undo and redo of this device's steps: one write, one step; an undo is new changes that sync,
/// and leaves a field changed since as it is.
@Suite struct UndoTests {
  @Test func anUndoOfACloseOfSeveralReopensThemAllAndARedoClosesThemAgain() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let issues = try (1...3).map { try a.issue("Issue \($0)") }
    let other = try a.issue("Left alone")
    a.time.advance(by: 60)
    try a.queue.write { _ = try $0.setCompleted(true, issueIDs: issues.map(\.id)) }

    let steps = try a.queue.read { try $0.undoableSteps() }
    #expect(steps.first?.summary == StepSummary(verb: .close, count: 3))
    #expect(steps.first?.kind == .action)
    // Each issue made is a step of its own, after the close's three.
    #expect(steps.count == 5)
    #expect(steps.last?.summary == StepSummary(verb: .add, count: 1, name: "Issue 1"))

    a.time.advance(by: 60)
    let undone = try #require(try a.queue.write { try $0.undo() })
    #expect(undone.summary == StepSummary(verb: .close, count: 3))
    #expect(!undone.isRedo)
    #expect(undone.kept.isEmpty)
    #expect(undone.changes == 3)
    for issue in issues { #expect(try a.stored(issue.id)?.completed == false) }
    #expect(try a.stored(other.id) != nil)
    #expect(try a.queue.read { try $0.redoableSteps() }.map(\.summary.verb) == [.close])
    #expect(try a.queue.read { try $0.undoableSteps() }.first?.summary.verb == .add)

    let redone = try #require(try a.queue.write { try $0.redo() })
    #expect(redone.isRedo)
    #expect(redone.summary == StepSummary(verb: .close, count: 3))
    for issue in issues { #expect(try a.stored(issue.id)?.completed == true) }
    #expect(try a.queue.read { try $0.redoableSteps() }.isEmpty)
    // The redo is what an undo takes next, under the name of the close.
    let next = try #require(try a.queue.read { try $0.undoableSteps() }.first)
    #expect(next.kind == .redo)
    #expect(next.summary == StepSummary(verb: .close, count: 3))

    // Undo and redo show in the history as such.
    let history = try a.queue.read { try $0.history(ofIssue: issues[0].id) }
    #expect(history.filter { $0.what == .completed }.map(\.step) == [nil, .undo, .redo])
  }

  @Test func aNewActionEndsWhatCanBeRedone() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let issue = try a.issue("Crash")
    try a.edit(issue.id) { $0.priority = .high }
    _ = try a.queue.write { try $0.undo() }
    #expect(try a.stored(issue.id)?.priority == .low)
    #expect(try a.queue.read { try $0.redoableSteps() }.count == 1)
    try a.edit(issue.id) { $0.title = "Crash on start" }
    #expect(try a.queue.read { try $0.redoableSteps() }.isEmpty)
    #expect(try a.queue.write { try $0.redo() } == nil)
    // Undo goes on back through the steps, newest first: the title, then the issue itself.
    #expect(try a.queue.write { try $0.undo() }?.summary.verb == .edit)
    #expect(try a.stored(issue.id)?.title == "Crash")
    #expect(try a.queue.write { try $0.undo() }?.summary.verb == .add)
    #expect(try a.stored(issue.id) == nil)
    #expect(try a.queue.write { try $0.undo() } == nil)
    // Undone, the issue made is in Recently deleted; a redo brings it back.
    #expect(try a.queue.read { try $0.recentlyDeletedIssues() }.map(\.id) == [issue.id])
    #expect(try a.queue.write { try $0.redo() }?.summary.verb == .add)
    #expect(try a.stored(issue.id)?.title == "Crash")
  }

  @Test func anUndoOfADeleteBringsTheIssueBackWithItsTagsAndOfATagPutOnTakesItOff() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let bug = try a.tag("Bug")
    let ui = try a.tag("UI")
    let issue = try a.issue("Crash", tags: [bug])
    try a.queue.write { try $0.retag(issueID: issue.id, from: [bug.id], to: [bug.id, ui.id]) }
    #expect(
      try a.queue.read { try $0.undoableSteps() }.first?.summary
        == StepSummary(verb: .tag, count: 1, name: "Crash"))
    try a.queue.write { _ = try $0.deleteIssues([issue.id]) }
    #expect(try a.queue.write { try $0.undo() }?.summary.verb == .delete)
    #expect(try a.stored(issue.id)?.tags.map(\.name) == ["Bug", "UI"])
    #expect(try a.queue.write { try $0.undo() }?.summary.verb == .tag)
    #expect(try a.stored(issue.id)?.tags.map(\.name) == ["Bug"])
  }

  @Test func anUndoOfATagDeleteMakesItAgainOnItsIssues() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let bug = try a.tag("Bug")
    let issue = try a.issue("Crash", tags: [bug])
    try a.queue.write { _ = try $0.deleteTag(id: bug.id) }
    #expect(
      try a.queue.read { try $0.undoableSteps() }.first?.summary
        == StepSummary(verb: .deleteTag, count: 1, name: "Bug"))
    _ = try a.queue.write { try $0.undo() }
    #expect(try a.stored(issue.id)?.tags.map(\.name) == ["Bug"])
  }

  @Test func anUndoOfAnImportRemovesWhatItAdded() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let source = try Replica("Source", remote: folder.path)
    for number in 1...4 { _ = try source.issue("Imported \(number)") }
    try a.restore(try source.backup())
    #expect(
      try a.queue.read { try $0.undoableSteps() }.map(\.summary) == [
        StepSummary(verb: .add, count: 4)
      ])
    _ = try a.queue.write { try $0.undo() }
    #expect(try a.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 0)
  }

  @Test(arguments: Backend.allCases) func anUndoAfterSyncRevertsOnTheOtherDeviceAndKeepsItsEdit(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    _ = remote
    let issue = try a.issue("Fix login")
    try a.sync()
    try b.sync()
    a.time.advance(by: 60)
    try a.edit(issue.id) {
      $0.completed = true
      $0.priority = .high
    }
    try a.sync()
    try b.sync()
    #expect(try b.stored(issue.id)?.completed == true)
    // Since, the priority is changed on the other device.
    b.time.advance(by: 120)
    try b.edit(issue.id) { $0.priority = .medium }
    try b.sync()
    a.time.advance(by: 180)
    try a.sync()
    let report = try #require(try a.queue.write { try $0.undo() })
    #expect(report.summary == StepSummary(verb: .edit, count: 1, name: "Fix login"))
    #expect(
      report.kept == [
        KeptChange(
          title: "Fix login", what: .field("priority"), deviceName: "Desktop",
          isThisDevice: false)
      ])
    try a.sync()
    try b.sync()
    for replica in [a, b] {
      let merged = try #require(try replica.stored(issue.id))
      #expect(merged.completed == false, "\(replica.name)")
      #expect(merged.priority == .medium, "\(replica.name)")
    }
    #expect(try a.dump() == b.dump())
  }

  @Test(arguments: Backend.allCases) func anUndoBeforeSyncNeverReachesTheOtherDeviceAsAnEdit(
    backend: Backend
  ) throws {
    let (remote, a, b) = try Replica.pair(backend)
    _ = remote
    let issue = try a.issue("Fix login")
    try a.sync()
    try b.sync()
    a.time.advance(by: 60)
    try a.edit(issue.id) { $0.title = "Fix the login" }
    _ = try a.queue.write { try $0.undo() }
    try a.sync()
    try b.sync()
    #expect(try b.stored(issue.id)?.title == "Fix login")
    #expect(try a.dump() == b.dump())
  }

  @Test func anUndoOfAnIssueMadeLeavesItWhenAnotherDeviceChangedItSince() throws {
    let (folder, a, b) = try Replica.pair()
    _ = folder
    let issue = try a.issue("Shared")
    try a.sync()
    try b.sync()
    b.time.advance(by: 60)
    try b.edit(issue.id) { $0.detail = "Seen on the desktop" }
    try b.sync()
    a.time.advance(by: 120)
    try a.sync()
    let report = try #require(try a.queue.write { try $0.undo() })
    #expect(report.kept.map(\.what) == [.changed])
    #expect(report.kept.first?.deviceName == "Desktop")
    #expect(try a.stored(issue.id) != nil)
  }

  @Test func onlyTheNewestStepsAreKept() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("Laptop", remote: folder.path)
    let issue = try a.issue("Counter")
    for number in 0..<(Schema.keptUndoSteps + 5) {
      try a.edit(issue.id) { $0.title = "Counter \(number)" }
    }
    #expect(try a.queue.read { try $0.undoableSteps(limit: 1000) }.count == Schema.keptUndoSteps)
  }
}
