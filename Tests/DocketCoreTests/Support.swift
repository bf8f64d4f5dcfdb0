import Database
import DocketCore
import DocketTestSupport
import Foundation
import Locking

/// A fresh in-memory Docket database with a fixed clock and predictable ids.
struct TestDatabase: IssueFixtures {
  let time = TestTime()
  let uuids = TestUUIDs()
  let queue: DatabaseQueue

  init() throws {
    let time = self.time
    queue = try DocketDatabase.inMemory(now: { time.now })
  }

  var now: Date { time.now }
  func nextID() -> UUID { uuids.make() }

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
