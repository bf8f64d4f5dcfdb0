import Database
import Foundation
import Testing

@testable import DocketCore

/// A page of a tag on many issues walks the sort index and checks the tag rows each entry ends
/// on (schema 7); a whole list is read from the tag's links. Both must give the same issues.
@Suite struct TagPageTests {
  static let sorts: [IssueSort] = [IssueSortField.priority, .date, .title].flatMap { field in
    [IssueSort(field: field, ascending: true), IssueSort(field: field, ascending: false)]
  }

  /// 240 issues: "Common" on about nine in ten (enough to be walked), "Half" on about half,
  /// "Rare" on a few; ties in priority, date and title, so the order rests on the ids too.
  func database() throws -> (TestDatabase, common: Tag, half: Tag, rare: Tag) {
    let db = try TestDatabase()
    let common = try db.tag("Common")
    let half = try db.tag("Half")
    let rare = try db.tag("Rare")
    let extra = try (0..<12).map { try db.tag("Tag \($0)") }
    var random = SplitMix64(seed: 11)
    for index in 0..<240 {
      var tags: [Tag] = []
      if Int.random(in: 0..<10, using: &random) < 9 { tags.append(common) }
      if Bool.random(using: &random) { tags.append(half) }
      if index % 40 == 0 { tags.append(rare) }
      tags += extra.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
      try db.issue(
        "issue \(index % 17)", priority: Priority(rawValue: index % 3)!,
        completed: index % 5 == 0, daysAgo: Double(index % 23), tags: tags)
    }
    return (db, common, half, rare)
  }

  @Test func aWalkedPageOfATagIsTheStartOfItsList() throws {
    let (db, common, _, rare) = try database()
    var requests: [IssueRequest] = []
    for sort in Self.sorts {
      for showCompleted in [true, false] {
        requests.append(
          IssueRequest(
            filter: .tag(common.id), sort: sort, showCompleted: showCompleted, now: db.now))
        for search in ["tag:common", "tag:common -tag:half", "tag:half tag:common", "-tag:rare"] {
          requests.append(
            IssueRequest(
              filter: .all, search: try SearchParser.parse(search), sort: sort,
              showCompleted: showCompleted, now: db.now))
        }
        requests.append(
          IssueRequest(
            filter: .tag(rare.id), search: try SearchParser.parse("-tag:common"), sort: sort,
            showCompleted: showCompleted, now: db.now))
      }
    }
    var walked = 0
    for request in requests {
      let whole = try db.queue.read { try $0.fetchIssues(request) }
      for limit in [1, 10, 100] {
        let page = try db.queue.read { try $0.fetchIssues(request, limit: limit) }
        #expect(page == Array(whole.prefix(limit)), "\(request.search) \(request.sort) \(limit)")
      }
      // The page of "Common" is read from the sort index: its SQL checks the tag rows and never
      // looks in the links.
      let sql = try db.queue.read {
        try $0.issuesSQL(request, forPage: true, detail: true, limit: 10)
      }
      if case .tag(common.id) = request.filter {
        #expect(sql.0.contains("i.tag_seqs") && !sql.0.contains("issue_tags"))
        let plan = try db.queue.read { conn in
          try conn.fetchAll("EXPLAIN QUERY PLAN " + sql.0, sql.1) { try $0.get(3, as: String.self) }
        }
        #expect(!plan.joined(separator: " ").contains("issue_tags"), "\(plan)")
        #expect(plan.joined(separator: " ").contains("issues_by_"), "\(plan)")
        walked += 1
      }
      // The whole list reads the tag rows too (for excluded tags): checked here against the
      // tags each issue has, and against the list of every issue.
      let rule: (Set<String>) -> Bool = { names in
        var keeps = true
        switch request.filter {
        case .tag(common.id): keeps = names.contains("Common")
        case .tag(rare.id): keeps = names.contains("Rare")
        default: break
        }
        for name in request.search.tags { keeps = keeps && names.contains(name.capitalized) }
        for name in request.search.excludedTags {
          keeps = keeps && !names.contains(name.capitalized)
        }
        return keeps
      }
      #expect(whole.allSatisfy { rule(Set($0.tags.map(\.name))) }, "\(request.search)")
      let all = try db.queue.read {
        try $0.fetchIssues(IssueRequest(filter: .all, sort: request.sort, now: db.now))
      }
      let shown = all.filter {
        (request.showCompleted || !$0.completed || request.filter == .all)
          && rule(Set($0.tags.map(\.name)))
      }
      #expect(whole.map(\.id) == shown.map(\.id), "\(request.search) \(request.filter)")
    }
    #expect(walked == Self.sorts.count * 2)
  }

  /// A tag taken off or put on changes the walked page at once: the rows in the index follow
  /// the links.
  @Test func theWalkedPageFollowsTagsAddedAndTakenOff() throws {
    let (db, common, _, _) = try database()
    let request = IssueRequest(filter: .tag(common.id), sort: .init(field: .date), now: db.now)
    let first = try #require(try db.queue.read { try $0.fetchIssues(request, limit: 5) }.first)
    var untagged = first
    untagged.tags = []
    _ = try db.queue.write { try $0.saveIssue(untagged) }
    // Saved, it is the most recently active issue: were its old tag rows still in the index, it
    // would lead the page. A page as long as the list shows it is nowhere in it.
    let after = try db.queue.read { try $0.fetchIssues(request, limit: 300) }
    #expect(!after.isEmpty && !after.contains { $0.id == first.id })
    _ = try db.queue.write { try $0.saveIssue(first) }
    #expect(try db.queue.read { try $0.fetchIssues(request, limit: 5) }.first?.id == first.id)
  }
}
