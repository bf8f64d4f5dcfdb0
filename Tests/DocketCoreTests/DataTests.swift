import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct DatabaseLocationTests {
  @Test func anExplicitPathWinsThenTheVariableThenThePlatformFolder() {
    let environment = [
      "HOME": "/home/ada", "DOCKET_DB": "/tmp/env.sqlite", "XDG_DATA_HOME": "/data",
    ]
    #expect(
      DatabaseLocation.path(flag: "~/flag.sqlite", environment: environment)
        == "/home/ada/flag.sqlite")
    #expect(DatabaseLocation.path(flag: nil, environment: environment) == "/tmp/env.sqlite")
    #expect(
      DatabaseLocation.path(
        flag: nil, environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"], platform: .linux)
        == "/data/docket/docket.sqlite")
    #expect(
      DatabaseLocation.path(
        flag: nil, environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "relative"], platform: .linux
      )
        == "/home/ada/.local/share/docket/docket.sqlite")
    #expect(
      DatabaseLocation.path(flag: nil, environment: ["HOME": "/Users/ada"], platform: .macOS)
        == "/Users/ada/Library/Application Support/Docket/docket.sqlite")
  }
}

@Suite struct SampleAndSyntheticDataTests {
  @Test func sampleDataFillsAnEmptyDatabaseOnly() throws {
    let db = try TestDatabase()
    let count = try db.queue.write {
      try SampleData.insert(into: $0, now: db.now, makeID: db.uuids.make)
    }
    #expect(count == 12)
    let counts = try db.queue.read { try $0.filterCounts(now: db.now) }
    #expect(counts.open > 0 && counts.completed > 0 && counts.recentOpen > 0)
    #expect(try db.queue.read { try $0.tagSummaries() }.count == 6)
    #expect(throws: SampleData.Failure.databaseNotEmpty(issues: 12, tags: 6)) {
      try db.queue.write { try SampleData.insert(into: $0, now: db.now, makeID: db.uuids.make) }
    }
    #expect(try db.queue.read { try $0.awardCounts() }.issues == 12)
  }

  @Test func syntheticDataIsDeterministicAndVaried() throws {
    func make() throws -> (TestDatabase, [Issue]) {
      let db = try TestDatabase()
      try db.queue.write {
        try SyntheticData(issueCount: 300, tagCount: 12, seed: 7, now: db.now).insert(into: $0)
      }
      let request = IssueRequest(filter: .all, sort: IssueSort(field: .title), now: db.now)
      return (db, try db.queue.read { try $0.fetchIssues(request) })
    }
    let (db, first) = try make()
    let (_, second) = try make()
    #expect(first.count == 300)
    #expect(first == second)
    #expect(Set(first.map(\.priority)) == Set(Priority.allCases))
    #expect(first.contains(where: \.completed) && first.contains { !$0.completed })
    #expect(first.contains { !$0.tags.isEmpty } && first.contains { $0.tags.isEmpty })
    let summaries = try db.queue.read { try $0.tagSummaries() }.sorted { $0.total > $1.total }
    #expect(summaries.first!.total > summaries.last!.total)
  }
}
