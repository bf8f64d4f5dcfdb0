import Foundation
import Testing

@testable import DocketCore

@Suite struct FilterTests {
  let db: TestDatabase
  let bug: Tag

  /// Four issues: open and completed, recent and old; two carry Bug.
  init() throws {
    db = try TestDatabase()
    bug = try db.tag("Bug")
    try db.issue("open recent bug", daysAgo: 1, tags: [bug])
    try db.issue("open old", daysAgo: 30)
    try db.issue("completed recent", completed: true, daysAgo: 2)
    try db.issue("completed old bug", completed: true, daysAgo: 40, tags: [bug])
  }

  @Test func openAndCompletedIgnoreShowCompleted() throws {
    for show in [true, false] {
      #expect(try Set(db.titles(.open, showCompleted: show)) == ["open recent bug", "open old"])
      #expect(
        try Set(db.titles(.completed, showCompleted: show)) == [
          "completed recent", "completed old bug",
        ])
    }
  }

  @Test func recentAndTagFiltersFollowShowCompleted() throws {
    #expect(
      try Set(db.titles(.recent, showCompleted: true)) == ["open recent bug", "completed recent"])
    #expect(try db.titles(.recent, showCompleted: false) == ["open recent bug"])
    #expect(
      try Set(db.titles(.tag(bug.id), showCompleted: true)) == [
        "open recent bug", "completed old bug",
      ])
    #expect(try db.titles(.tag(bug.id), showCompleted: false) == ["open recent bug"])
    #expect(try db.titles(.all, showCompleted: false).count == 4)
  }

  @Test func countsMatchTheFilters() throws {
    let counts = try db.queue.read { try $0.filterCounts(now: db.now) }
    #expect(counts == FilterCounts(open: 2, completed: 2, recentOpen: 1, recentCompleted: 1))
    #expect(counts.recent(showCompleted: true) == 2)
    #expect(counts.recent(showCompleted: false) == 1)
    let tags = try db.queue.read { try $0.tagSummaries() }
    #expect(tags == [TagSummary(tag: bug, open: 1, total: 2)])
    #expect(tags[0].visibleCount(showCompleted: false) == 1)
    #expect(tags[0].visibleCount(showCompleted: true) == 2)
  }

  @Test func recentIncludesExactlySevenDaysAndNotASecondMore() throws {
    let edge = try TestDatabase()
    let week = TestDatabase.day * 7
    try edge.queue.write { db in
      try db.insertIssue(
        Issue(
          id: edge.uuids.make(), title: "on the edge", created: edge.now.addingTimeInterval(-week)))
      try db.insertIssue(
        Issue(
          id: edge.uuids.make(), title: "just past", created: edge.now.addingTimeInterval(-week - 1)
        ))
      try db.insertIssue(
        Issue(
          id: edge.uuids.make(), title: "old but edited",
          created: edge.now.addingTimeInterval(-week * 4),
          modified: edge.now.addingTimeInterval(-60)))
    }
    #expect(try Set(edge.titles(.recent)) == ["on the edge", "old but edited"])
    #expect(try edge.queue.read { try $0.filterCounts(now: edge.now) }.recentOpen == 2)
  }

  @Test func filtersHaveStableStorageValues() {
    let id = UUID(uuidString: "8C1E0000-0000-0000-0000-000000000001")!
    for filter in [IssueFilter.open, .completed, .recent, .all, .tag(id)] {
      #expect(IssueFilter(storageValue: filter.storageValue) == filter)
    }
    #expect(IssueFilter.tag(id).storageValue == "tag:8c1e0000-0000-0000-0000-000000000001")
    #expect(IssueFilter(storageValue: "tag:nonsense") == nil)
    #expect(IssueFilter(storageValue: "") == nil)
  }
}
