import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct SortTests {
  let db: TestDatabase

  /// Created 5, 4, 3, 2, 1 days ago in this order; "b" is completed.
  init() throws {
    db = try TestDatabase()
    try db.issue("delta", priority: .high, daysAgo: 5)
    try db.issue("Alpha", priority: .low, daysAgo: 4)
    try db.issue("b", priority: .high, completed: true, daysAgo: 3)
    try db.issue("Ärger", priority: .medium, daysAgo: 2)
    try db.issue("charlie", priority: .high, daysAgo: 1)
  }

  func titles(_ sort: IssueSort) throws -> [String] { try db.titles(.all, sort: sort) }

  @Test func byPriorityHighestFirstThenOldestActivityCompletedLast() throws {
    #expect(try titles(IssueSort(field: .priority)) == ["delta", "charlie", "Ärger", "Alpha", "b"])
    #expect(
      try titles(IssueSort(field: .priority, ascending: true)) == [
        "Alpha", "Ärger", "delta", "charlie", "b",
      ])
  }

  @Test func byDateNewestFirstCompletedLast() throws {
    #expect(try titles(IssueSort(field: .date)) == ["charlie", "Ärger", "Alpha", "delta", "b"])
    #expect(
      try titles(IssueSort(field: .date, ascending: true)) == [
        "delta", "Alpha", "Ärger", "charlie", "b",
      ])
  }

  @Test func byTitleIgnoringCaseAndDiacriticsCompletedLast() throws {
    #expect(try titles(IssueSort(field: .title)) == ["Alpha", "Ärger", "charlie", "delta", "b"])
    #expect(
      try titles(IssueSort(field: .title, ascending: false)) == [
        "delta", "charlie", "Ärger", "Alpha", "b",
      ])
  }

  @Test func tiesBreakOnOldestActivityThenID() throws {
    let ties = try TestDatabase()
    let created = ties.now.addingTimeInterval(-100)
    let high = UUID(uuidString: "ffffffff-0000-0000-0000-000000000000")!
    let low = UUID(uuidString: "00000000-0000-0000-0000-0000000000ff")!
    try ties.queue.write { db in
      try db.insertIssue(Issue(id: high, title: "same", created: created))
      try db.insertIssue(Issue(id: low, title: "same", created: created))
      try db.insertIssue(
        Issue(id: ties.uuids.make(), title: "same", created: created.addingTimeInterval(-50)))
    }
    let request = IssueRequest(filter: .all, sort: IssueSort(field: .title), now: ties.now)
    let ids = try ties.queue.read { try $0.fetchIssues(request).map(\.id) }
    #expect(ids == [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, low, high])
  }

  @Test func choosingAFieldFlipsOrSwitchesToItsDefault() {
    let start = IssueSort.default
    #expect(start == IssueSort(field: .priority, ascending: false))
    #expect(start.choosing(.priority) == IssueSort(field: .priority, ascending: true))
    #expect(start.choosing(.priority).choosing(.priority) == start)
    #expect(start.choosing(.title) == IssueSort(field: .title, ascending: true))
    #expect(start.choosing(.title).choosing(.title) == IssueSort(field: .title, ascending: false))
    #expect(start.choosing(.date) == IssueSort(field: .date, ascending: false))
    #expect(TagSort.default.choosing(.count) == TagSort(field: .count, ascending: false))
    #expect(TagSort.default.choosing(.name) == TagSort(field: .name, ascending: false))
  }

  @Test func theChoiceIsRememberedInSettings() throws {
    #expect(try db.queue.read { try $0.fetchSettings() } == DeviceSettings())
    let chosen = DeviceSettings(
      issueSort: IssueSort(field: .title, ascending: false), tagSort: TagSort(field: .count),
      showCompleted: false, lastFilter: .recent)
    try db.queue.write { try $0.saveSettings(chosen) }
    #expect(try db.queue.read { try $0.fetchSettings() } == chosen)
    for sort in IssueSort.Field.allCases.flatMap({
      [IssueSort(field: $0, ascending: true), IssueSort(field: $0, ascending: false)]
    }) {
      #expect(IssueSort(storageValue: sort.storageValue) == sort)
    }
    #expect(IssueSort(storageValue: "priority:sideways") == nil)
  }

  @Test func unreadableSettingsFallBackToDefaults() throws {
    try db.queue.write {
      try $0.execute(
        "INSERT INTO settings (key, value) VALUES ('issue_sort', 'garbage'), ('last_filter', 'tag:zzz')"
      )
    }
    #expect(try db.queue.read { try $0.fetchSettings() } == DeviceSettings())
  }

  @Test func tagsSortByNameOrByCountWithNameBreakingTies() throws {
    let tags = try TestDatabase()
    let b = try tags.tag("beta")
    let a = try tags.tag("Alpha")
    let c = try tags.tag("Ça")
    try tags.issue("one", tags: [b, c])
    try tags.issue("two", completed: true, tags: [b, a])
    let summaries = try tags.queue.read { try $0.tagSummaries() }
    let byName = TagSort(field: .name).sorted(summaries, showCompleted: true).map(\.tag.name)
    #expect(byName == ["Alpha", "beta", "Ça"])
    let byNameDown = TagSort(field: .name, ascending: false).sorted(summaries, showCompleted: true)
      .map(\.tag.name)
    #expect(byNameDown == ["Ça", "beta", "Alpha"])
    let byCount = TagSort(field: .count).sorted(summaries, showCompleted: true).map(\.tag.name)
    #expect(byCount == ["beta", "Alpha", "Ça"])
    let byOpenCount = TagSort(field: .count).sorted(summaries, showCompleted: false).map(\.tag.name)
    #expect(byOpenCount == ["beta", "Ça", "Alpha"])
  }
}

/// Whole lists are read in storage order and sorted in Swift; pages are sorted by SQLite. Both
/// must give the same order for every sort, direction and filter.
@Suite struct WholeListOrderTests {
  @Test func swiftSortingMatchesSQLiteSorting() throws {
    let db = try TestDatabase()
    try db.queue.write {
      try SyntheticData(issueCount: 600, tagCount: 8, seed: 3, now: db.now).insert(into: $0)
    }
    // Ties on every key but the id, and titles that fold alike.
    try db.queue.write { conn in
      for (index, title) in ["Ärger", "arger", "Zebra", "zebra", "Éclair", "eclair"].enumerated() {
        try conn.insertIssue(
          Issue(
            id: UUID(), title: title, priority: .medium,
            created: db.now.addingTimeInterval(-Double(index % 2))))
      }
    }
    for filter in [IssueFilter.open, .completed, .all] {
      for field in IssueSort.Field.allCases {
        for ascending in [true, false] {
          let request = IssueRequest(
            filter: filter, sort: IssueSort(field: field, ascending: ascending), now: db.now)
          let whole = try db.queue.read { try $0.fetchIssues(request) }
          let paged = try db.queue.read { try $0.fetchIssues(request, limit: 1_000_000) }
          #expect(whole.map(\.id) == paged.map(\.id), "\(filter) \(field) \(ascending)")
          #expect(whole == paged)
        }
      }
    }
  }
}

@Suite struct SortKeyTests {
  /// The quick way for plain ASCII folds as Foundation does, character by character and in text.
  @Test func asciiFoldsAsFoundationDoes() {
    let all = String(decoding: (1..<128).map { UInt8($0) }, as: UTF8.self)
    for scalar in all.unicodeScalars {
      let text = String(scalar)
      #expect(
        SortKey.fold(text)
          == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil),
        "\(scalar.value)")
    }
    #expect(SortKey.fold("Fix The BUILD, 2x!") == "fix the build, 2x!")
    // Beyond ASCII, Foundation's folding: accents go, case too.
    #expect(SortKey.fold("Ärger ÉTÉ") == "arger ete")
  }
}
