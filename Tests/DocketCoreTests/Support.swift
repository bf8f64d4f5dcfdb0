import Database
import DocketCore
import DocketTestSupport
import Foundation
import Locking

/// A fresh in-memory Docket database with a fixed clock and predictable ids.
struct TestDatabase {
  let time = TestTime()
  let uuids = TestUUIDs()
  let queue: DatabaseQueue

  init() throws {
    let time = self.time
    queue = try DocketDatabase.inMemory(now: { time.now })
  }

  var now: Date { time.now }
  static let day: TimeInterval = 24 * 60 * 60

  @discardableResult
  func tag(_ name: String) throws -> Tag {
    try queue.write { try $0.createTag(named: name, id: uuids.make()).tag }
  }

  @discardableResult
  func issue(
    _ title: String, detail: String = "", priority: Priority = .low, completed: Bool = false,
    daysAgo: Double = 0, tags: [Tag] = []
  ) throws -> Issue {
    let issue = Issue(
      id: uuids.make(), title: title, detail: detail, priority: priority, completed: completed,
      created: now.addingTimeInterval(-daysAgo * Self.day), tags: tags)
    try queue.write { try $0.insertIssue(issue) }
    return issue
  }

  func titles(
    _ filter: IssueFilter = .open, search: String = "", sort: IssueSort = .default,
    showCompleted: Bool = true
  ) throws -> [String] {
    let query = try SearchParser.parse(search)
    let request = IssueRequest(
      filter: filter, search: query, sort: sort, showCompleted: showCompleted, now: now)
    return try queue.read { try $0.fetchIssues(request).map(\.title) }
  }
}

// Swift Testing has types of these names too; in these tests they mean Docket's.
typealias Tag = DocketCore.Tag
typealias Issue = DocketCore.Issue
