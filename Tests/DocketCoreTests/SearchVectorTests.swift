import DocketCore
import Foundation
import Testing

/// The rules of filters, search and sort, as one file of vectors: data, a query, the ids it
/// shows in order. The web page's own copy runs the same file (`node --test`), so the two never
/// disagree.
@Suite struct SearchVectorTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Vectors/search.json")

  struct Vectors: Decodable {
    struct VectorTag: Decodable {
      var id: UUID
      var name: String
    }
    struct VectorIssue: Decodable {
      var id: UUID
      var title: String
      var detail: String
      var priority: Int
      var completed: Bool
      var created: Double
      var modified: Double?
      var tags: [UUID]
    }
    struct Case: Decodable {
      var filter: String
      var q: String
      var sort: String
      var done: Bool
      /// The ids shown, in order; nil when the search is refused.
      var expected: [UUID]?
    }
    var now: Double
    var tags: [VectorTag]
    var issues: [VectorIssue]
    var cases: [Case]
  }

  @Test func theCoreShowsWhatTheVectorsSay() throws {
    let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.file))
    let now = Date(timeIntervalSince1970: vectors.now)
    let queue = try DocketDatabase.inMemory(now: { now })
    var tags: [UUID: Tag] = [:]
    try queue.write { db in
      for tag in vectors.tags {
        tags[tag.id] = try db.createTag(named: tag.name, id: tag.id).tag
      }
      for issue in vectors.issues {
        try db.insertIssue(
          Issue(
            id: issue.id, title: issue.title, detail: issue.detail,
            priority: Priority(rawValue: issue.priority) ?? .low, completed: issue.completed,
            created: Date(timeIntervalSince1970: issue.created),
            modified: issue.modified.map { Date(timeIntervalSince1970: $0) },
            tags: issue.tags.compactMap { tags[$0] }))
      }
    }
    #expect(vectors.cases.count >= 30)
    for vector in vectors.cases {
      let filter = try #require(IssueFilter(storageValue: vector.filter))
      let sort = try #require(IssueSort(storageValue: vector.sort))
      let shown: [UUID]?
      do {
        let search = try SearchParser.parse(vector.q)
        shown = try queue.read { db in
          try db.fetchIssues(
            IssueRequest(
              filter: filter, search: search, sort: sort, showCompleted: vector.done, now: now)
          ).map(\.id)
        }
      } catch is SearchSyntaxError {
        shown = nil
      }
      #expect(shown == vector.expected, "\(vector.filter) \(vector.q) \(vector.sort)")
    }
  }
}
