import Database
import DocketCore
import Foundation
import JSONText
import Testing

@testable import DocketTransfer

/// An issue through Taskwarrior's form and back is the issue it was: what a task cannot hold
/// (a detail of several lines, a tag with a space, the fraction of a second, never modified)
/// comes back from Docket's own attribute, and a second import of the file changes nothing.
@Suite struct TaskwarriorRoundTripTests {
  static let start = Date(timeIntervalSince1970: 1_795_000_000.123_456)

  static func database() throws -> DatabaseQueue {
    let queue = try DocketDatabase.inMemory(now: { start.addingTimeInterval(500.25) })
    try queue.write { db in
      let spaced = try db.createTag(named: "UI Design", id: UUID()).tag
      let plain = try db.createTag(named: "Bug", id: UUID()).tag
      let details = [
        "line one\nline two\n\nafter a blank line", "One line of text", "",
        "2026-01-05 10:00:00  a dated note", "Notes\n\nTaskwarrior:\ndue: 20260101T000000Z",
        "  spaced  \n", "Taskwarrior:\npriority: L",
      ]
      for (index, detail) in details.enumerated() {
        try db.insertIssue(
          Issue(
            id: UUID(), title: "Issue \(index)", detail: detail,
            priority: Priority(rawValue: index % 3)!, completed: index % 2 == 1,
            created: start.addingTimeInterval(Double(index) * 3_600.5),
            modified: index % 3 == 0 ? nil : start.addingTimeInterval(Double(index) * 7_200.75),
            tags: index % 2 == 0 ? [spaced, plain] : [spaced]))
      }
    }
    return queue
  }

  @Test func anIssueComesBackAsItWas() throws {
    let queue = try Self.database()
    let before = try ImportTests.contents(queue)
    let file = try ImportTests.export(queue, .taskwarrior)
    for _ in 0..<2 {
      let summary = try queue.importBatch(try TransferReader.read(file))
      #expect(summary.updatedIssues == 0 && summary.createdTags == 0, "\(summary)")
      #expect(summary.unchangedIssues == 7)
      #expect(try ImportTests.contents(queue) == before)
    }
    // Into an empty database: the same issues, to the fraction of a second.
    let other = try DocketDatabase.inMemory(now: { Self.start })
    _ = try other.importBatch(try TransferReader.read(file))
    func issues(_ queue: DatabaseQueue) throws -> [String] {
      try queue.read { db in
        try db.fetchIssues(IssueRequest(filter: .all, now: Self.start)).map {
          "\($0.id)|\($0.title)|\($0.detail)|\($0.priority)|\($0.completed)|"
            + "\($0.created.timeIntervalSince1970)|\(String(describing: $0.modified))|"
            + $0.tags.map(\.name).sorted().joined(separator: ",")
        }.sorted()
      }
    }
    #expect(try issues(other) == issues(queue))
  }

  /// What was changed in Taskwarrior since the export counts over what Docket kept.
  @Test func anEditInTaskwarriorWins() throws {
    let queue = try Self.database()
    let id = try queue.read { try $0.fetchIssues(IssueRequest(filter: .all, now: Self.start)) }
      .first { $0.title == "Issue 0" }!.id
    let text = String(decoding: try ImportTests.export(queue, .taskwarrior), as: UTF8.self)
    let line = text.split(separator: "\n").first { $0.contains(id.lowercasedText) }!
    var task = try JSONReader.document(Array(line.dropLast(line.hasSuffix(",") ? 1 : 0).utf8))
    guard case .object(var members) = task else {
      Issue.record("not an object")
      return
    }
    func set(_ key: String, _ value: JSON) {
      members.removeAll { $0.0 == key }
      members.append((key, value))
    }
    set("modified", .string("20270101T000000Z"))
    set("tags", .array([.string("UI_Design"), .string("new_one")]))
    set(
      "annotations",
      .array([.object([("entry", .string("20270101T000000Z")), ("description", .string("added"))])])
    )
    task = .object(members)
    let batch = try TransferReader.read(Array(("[" + JSONWriter.text(task) + "]").utf8))
    let issue = try #require(batch.issues.first)
    #expect(issue.modified == DateText.parse("20270101T000000Z"))
    #expect(issue.detail == "2027-01-01 00:00:00  added")
    #expect(issue.tags.map(\.name) == ["UI Design", "new_one"])
    #expect(issue.created == Self.start, "the entry was not edited: kept to the fraction")
  }

  /// Docket's attribute as another tool or a person may leave it: not JSON, not an object, parts
  /// of the wrong kind. The task is read as Taskwarrior says it, and nothing fails.
  @Test func aStrangeDocketAttributeIsAsIfNotThere() throws {
    for value in [
      "not json", "[1,2]", "{\"entry\":5,\"modified\":\"x\",\"detail\":[],\"tags\":\"UI Design\"}",
      "{\"entry\":\"99999999T999999Z\",\"tags\":[1,null,{}]}",
    ] {
      let task: JSON = .object([
        ("uuid", .string("7eec61f9-74f8-495f-9c1d-8dec9328599d")), ("description", .string("T")),
        ("status", .string("pending")), ("entry", .string("20251130T080000Z")),
        ("modified", .string("20251130T090000Z")), ("tags", .array([.string("a_b")])),
        ("docket", .string(value)),
      ])
      let batch = try TransferReader.read(Array(("[" + JSONWriter.text(task) + "]").utf8))
      let issue = try #require(batch.issues.first, "\(value)")
      #expect(issue.created == DateText.parse("20251130T080000Z"), "\(value)")
      #expect(issue.modified == DateText.parse("20251130T090000Z"), "\(value)")
      #expect(issue.tags.map(\.name) == ["a_b"] && issue.detail.isEmpty, "\(value)")
    }
  }

  /// The task of an issue, as an export writes it, with `change` made to its members.
  func task(
    _ issue: DocketCore.Issue, _ change: (inout [(String, JSON)]) -> Void = { _ in }
  ) -> [UInt8] {
    guard case .object(var members) = TaskwarriorFormat.task(issue) else { return [] }
    change(&members)
    return Array(("[" + JSONWriter.text(.object(members)) + "]").utf8)
  }

  /// Two tags Taskwarrior holds as one word come back as the two they are.
  @Test func tagsOfOneWordComeBackApart() throws {
    let issue = DocketCore.Issue(
      id: UUID(), title: "Both", created: Self.start,
      tags: [
        DocketCore.Tag(id: UUID(), name: "UI Design"),
        DocketCore.Tag(id: UUID(), name: "UI_Design"),
      ])
    let batch = try TransferReader.read(task(issue))
    #expect(batch.issues.first?.tags.map(\.name) == ["UI Design", "UI_Design"])
  }

  /// A priority changed in Taskwarrior leaves no `priority: L` behind from the detail kept.
  @Test func aKeptDetailThatNoLongerFitsIsNotUsed() throws {
    let issue = DocketCore.Issue(
      id: UUID(), title: "Low", detail: "line one\nline two\n\nTaskwarrior:\npriority: L",
      created: Self.start)
    let same = try TransferReader.read(task(issue))
    #expect(same.issues.first?.detail == issue.detail)
    let raised = try TransferReader.read(
      task(issue) { members in
        members.removeAll { $0.0 == "priority" }
        members.append(("priority", .string("H")))
      })
    #expect(raised.issues.first?.priority == .high)
    #expect(raised.issues.first?.detail.contains("priority: L") == false)
    // A crafted attribute whose detail names what the task itself holds is not taken.
    let plain = DocketCore.Issue(id: UUID(), title: "Plain", created: Self.start)
    let crafted = try TransferReader.read(
      task(plain) { members in
        members.removeAll { $0.0 == "docket" }
        members.append(
          ("docket", .string(#"{"detail":"Taskwarrior:\nend: 20200101T000000Z"}"#)))
      })
    #expect(crafted.issues.first?.detail == "")
    // A block that only names what the task holds as it holds it comes back whole.
    let noted = DocketCore.Issue(
      id: UUID(), title: "Noted", detail: "Notes\n\nTaskwarrior:\nid: 7", created: Self.start)
    #expect(try TransferReader.read(task(noted)).issues.first?.detail == noted.detail)
  }
}
