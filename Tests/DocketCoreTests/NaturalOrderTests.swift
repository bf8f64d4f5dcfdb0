import Foundation
import Testing

@testable import DocketCore

/// Tag names in one order everywhere: ignoring case and accents, numbers as numbers.
@Suite struct NaturalOrderTests {
  @Test func numbersCountAndCaseDoesNot() {
    let names = ["Tag 10", "tag 6", "Tag 1", "Über", "ui", "Bug", "bug 2", "Tag 06", "a10b", "a9b"]
    let sorted = NaturalOrder.sorted(names) { $0 }
    #expect(
      sorted == ["a9b", "a10b", "Bug", "bug 2", "Tag 1", "Tag 06", "tag 6", "Tag 10", "Über", "ui"])
    for (index, name) in sorted.enumerated().dropFirst() {
      #expect(NaturalOrder.precedes(sorted[index - 1], name), "\(sorted[index - 1]) < \(name)")
      #expect(!NaturalOrder.precedes(name, sorted[index - 1]))
    }
    // A long number is compared whole, not by its first digits.
    #expect(NaturalOrder.precedes("v99999999999999999999", "v100000000000000000000"))
  }

  /// The filter pane's order, an issue's tags and `fetchTags` agree.
  @Test func everyListOfTagsIsInThatOrder() throws {
    let queue = try DocketDatabase.inMemory { Date() }
    let names = ["Tag 10", "Tag 6", "tag 1", "Ärger", "Zebra"]
    let expected = ["Ärger", "tag 1", "Tag 6", "Tag 10", "Zebra"]
    try queue.write { db in
      let tags = try names.map { try db.createTag(named: $0, id: UUID()).tag }
      try db.insertIssue(Issue(id: UUID(), title: "All", created: Date(), tags: tags))
    }
    try queue.read { db in
      #expect(try db.fetchTags().map(\.name) == expected)
      let issue = try db.fetchIssues(IssueRequest(filter: .all, now: Date())).first
      #expect(issue?.tags.map(\.name) == expected)
      #expect(
        TagSort(field: .name).sorted(try db.tagSummaries(), showCompleted: true).map(\.tag.name)
          == expected)
    }
  }
}
