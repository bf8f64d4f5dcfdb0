import Database
import DocketCore
import DocketTestSupport
import Foundation
import JSONText
import Testing

@testable import DocketSync

/// The conflicts view: a value that lost a merge is listed on every device until someone uses
/// or dismisses it, and that, too, reaches every device.
@Suite struct ConflictsViewTests {
  /// Laptop sets the title to "Earlier", Desktop to "Later" after it without seeing it: Later is
  /// kept, Earlier lost.
  func titleConflict(_ backend: Backend) throws -> (TestRemote, Replica, Replica, DocketCore.Issue)
  {
    let (remote, a, b) = try Replica.pair(backend)
    let issue = try a.issue("Shared")
    try a.sync()
    try b.sync()
    a.time.advance(by: 10)
    b.time.advance(by: 20)
    try a.edit(issue.id) { $0.title = "Earlier" }
    try b.edit(issue.id) { $0.title = "Later" }
    try a.sync()
    try b.sync()
    try a.sync()
    return (remote, a, b, issue)
  }

  @Test(arguments: Backend.allCases) func aLostValueIsListedOnBothDevicesWithWhoMadeEach(
    backend: Backend
  ) throws {
    let (remote, a, b, issue) = try titleConflict(backend)
    _ = remote
    for replica in [a, b] {
      #expect(try replica.queue.read { try $0.conflictCount() } == 1, "\(replica.name)")
      let conflict = try #require(try replica.queue.read { try $0.conflicts() }.first)
      #expect(conflict.issueID == issue.id)
      #expect(conflict.title == "Later")
      #expect(conflict.field == "title")
      #expect(conflict.kept == .text("Later"))
      #expect(conflict.keptBy == "Desktop")
      #expect(conflict.lost == .text("Earlier"))
      #expect(conflict.lostBy == "Laptop")
      #expect(conflict.lostHere == (replica === a))
      #expect(conflict.lostAt < conflict.keptAt)
    }
  }

  @Test(arguments: Backend.allCases) func aConflictUsedOnOneDeviceIsGoneOnTheOtherWithTheValue(
    backend: Backend
  ) throws {
    let (remote, a, b, issue) = try titleConflict(backend)
    _ = remote
    let conflict = try #require(try a.queue.read { try $0.conflicts() }.first)
    a.time.advance(by: 60)
    #expect(try a.queue.write { try $0.useConflict(conflict.id) } == .used(conflict))
    #expect(try a.stored(issue.id)?.title == "Earlier")
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    // Asked again, it is dealt with.
    #expect(try a.queue.write { try $0.useConflict(conflict.id) } == .notFound)
    try a.sync()
    b.time.advance(by: 60)
    try b.sync()
    #expect(try b.stored(issue.id)?.title == "Earlier")
    #expect(try b.queue.read { try $0.conflicts() }.isEmpty)
    #expect(try a.dump() == b.dump())
    #expect(try a.queue.read { try $0.awardCounts() }.resolved == 1)
    // The use is an edit to undo (the kept value back); the dismissal stays.
    #expect(
      try a.queue.read { try $0.undoableSteps() }.first?.summary
        == StepSummary(verb: .edit, count: 1, name: "Earlier"))
    _ = try a.queue.write { try $0.undo() }
    #expect(try a.stored(issue.id)?.title == "Later")
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
  }

  @Test(arguments: Backend.allCases) func aConflictDismissedOnOneDeviceIsGoneOnTheOther(
    backend: Backend
  ) throws {
    let (remote, a, b, issue) = try titleConflict(backend)
    _ = remote
    let onB = try #require(try b.queue.read { try $0.conflicts() }.first)
    b.time.advance(by: 60)
    #expect(try b.queue.write { try $0.dismissConflict(onB.id) } == .dismissed(onB))
    #expect(try b.stored(issue.id)?.title == "Later")
    try b.sync()
    a.time.advance(by: 60)
    try a.sync()
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    #expect(try a.dump() == b.dump())
    // A later edit of the field does not bring a dismissed conflict back.
    try a.edit(issue.id) { $0.title = "Third" }
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    // The history says it was looked at.
    let history = try a.queue.read { try $0.history(ofIssue: issue.id) }
    #expect(
      history.contains { $0.what == .dismissed(field: "title") && $0.deviceName == "Desktop" })
  }

  @Test func dismissingAllLeavesNoneAndTheValuesAsTheyAre() throws {
    let (remote, a, b, issue) = try titleConflict(.folder)
    _ = remote
    // A second conflict, of the priority.
    a.time.advance(by: 100)
    b.time.advance(by: 110)
    try a.edit(issue.id) { $0.priority = .high }
    try b.edit(issue.id) { $0.priority = .medium }
    try a.sync()
    try b.sync()
    try a.sync()
    #expect(try a.queue.read { try $0.conflictCount() } == 2)
    #expect(try a.queue.read { try $0.conflicts() }.map(\.field) == ["priority", "title"])
    #expect(try a.queue.write { try $0.dismissAllConflicts() } == 2)
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    #expect(try a.stored(issue.id)?.priority == .medium)
    try a.sync()
    try b.sync()
    #expect(try b.queue.read { try $0.conflictCount() } == 0)
  }

  @Test func aLostValueEqualToTheKeptOneOrOfADeletedIssueIsNoConflict() throws {
    let (remote, a, b, issue) = try titleConflict(.folder)
    _ = remote
    // B's edit of another title keeps the conflict; A setting the lost value by hand hides it.
    try b.edit(issue.id) { $0.title = "Later still" }
    try b.sync()
    try a.sync()
    #expect(try a.queue.read { try $0.conflictCount() } == 1)
    try a.edit(issue.id) { $0.title = "Earlier" }
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    // An edit made from it has seen it: it does not come back.
    try a.edit(issue.id) { $0.title = "Other" }
    #expect(try a.queue.read { try $0.conflictCount() } == 0)
    // A deleted issue lists none.
    try a.edit(issue.id) { $0.detail = "kept" }
    try b.queue.write { _ = try $0.deleteIssues([issue.id]) }
    try b.sync()
    try a.sync()
    #expect(try a.queue.read { try $0.conflicts() }.isEmpty)
  }

  @Test func aDismissalIsReadOnlyWhenItNamesALostChangeAsDocketWritesIt() throws {
    let device = UUID().lowercasedText
    let row = UUID().lowercasedText
    func line(_ value: String) -> JSON {
      .object([
        ("h", .string("123456789")), ("d", .string(device)), ("e", .string("issue")),
        ("r", .string(row)), ("f", .string("dismiss")), ("n", .string(value)),
      ])
    }
    let good = try Change(json: line("1234 \(device) title"), line: 1)
    #expect(good.new == .text("1234 \(device) title"))
    #expect(good.isOfNewerFormat)
    // A package that holds one is of the third format, which an older Docket refuses by name.
    #expect(good.format == 3)
    #expect(PackageFormat.version == 3)
    for bad in [
      "1234 \(device) dismiss", "x \(device) title", "1234 not-a-device title",
      "1234 \(device.uppercased()) title", "1234  \(device) title", "",
    ] {
      #expect(throws: ChangeFormatError.self, "\(bad)") { try Change(json: line(bad), line: 1) }
    }
  }

  /// A sets X, B sets Y having seen X, C sets Z having seen neither, stamped in that order: only
  /// Y is a conflict (X was seen and replaced), whatever order a device hears them in.
  @Test func theConflictsListedDependOnlyOnTheChangesNotTheirOrder() throws {
    let folder = try TemporaryDirectory()
    let source = try Replica("Source", remote: folder.path)
    let issue = try source.issue("O")
    let create = try source.queue.read { db in
      try db.changesToPush(after: 0, limit: 10).map(\.change)
    }
    let row = issue.id.lowercasedText
    let base = create[0].stamp.hlc
    func edit(_ hlc: Int64, _ device: String, from old: String, to new: String) -> Change {
      Change(
        stamp: Stamp(hlc: base + hlc, device: device), entity: .issue, row: row, field: "title",
        old: .text(old), new: .text(new), modified: 1_800_000_000 + Double(hlc))
    }
    let a = edit(1 << 20, "0a000000-0000-4000-8000-000000000001", from: "O", to: "X")
    let b = edit(2 << 20, "0b000000-0000-4000-8000-000000000002", from: "X", to: "Y")
    let c = edit(3 << 20, "0c000000-0000-4000-8000-000000000003", from: "O", to: "Z")
    var lists: [[String]] = []
    for order in [[a, b, c], [c, a, b], [b, c, a], [c, b, a]] {
      let replica = try Replica("R", remote: folder.path)
      _ = try replica.queue.write { try $0.applyChanges(create) }
      for change in order { _ = try replica.queue.write { try $0.applyChanges([change]) } }
      #expect(try replica.stored(issue.id)?.title == "Z")
      lists.append(
        try replica.queue.read { try $0.conflicts() }.map {
          "\($0.lost) \($0.lostBy)"
        })
    }
    #expect(lists.allSatisfy { $0 == lists[0] }, "\(lists)")
    #expect(lists[0] == ["text(\"Y\") 0b000000"])
  }
}
