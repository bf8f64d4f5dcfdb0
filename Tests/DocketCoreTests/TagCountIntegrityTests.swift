import Database
import Foundation
import Testing

@testable import DocketCore

/// The tag counts are kept by triggers; these tests hold them against counts recomputed from the
/// links after every kind of write.
@Suite struct TagCountIntegrityTests {
  static func recomputed(_ db: Connection) throws -> Set<TagSummary> {
    Set(
      try db.fetchAll(
        """
        SELECT t.id, t.name, count(i.seq), coalesce(sum(i.completed = 0), 0)
        FROM tags t LEFT JOIN issue_tags l ON l.tag_seq = t.seq LEFT JOIN issues i ON i.seq = l.issue_seq
        GROUP BY t.seq
        """
      ) { row in
        TagSummary(
          tag: Tag(id: try row.get(0), name: try row.get(1)), open: try row.get(3),
          total: try row.get(2))
      })
  }

  @Test func countsStayTrueThroughRandomEdits() throws {
    let db = try TestDatabase()
    var random = SplitMix64(seed: 99)
    var tags: [Tag] = []
    var issues: [Issue] = []
    for step in 0..<400 {
      let roll = Int(random.next() % 100)
      try db.queue.write { conn in
        switch roll {
        case 0..<10:
          tags.append(try conn.createTag(named: "tag \(step)", id: db.uuids.make()).tag)
        case 10..<40:
          let chosen = tags.filter { _ in random.next() % 3 == 0 }
          let issue = Issue(
            id: db.uuids.make(), title: "issue \(step)", completed: random.next() % 4 == 0,
            created: db.now,
            tags: chosen)
          try conn.insertIssue(issue)
          issues.append(issue)
        case 40..<60 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          try conn.setCompleted(random.next() % 2 == 0, issueIDs: [issues[index].id])
        case 60..<80 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          guard var issue = try conn.fetchIssue(id: issues[index].id) else { return }
          issue.tags = tags.filter { _ in random.next() % 3 == 0 }
          issue.completed = random.next() % 2 == 0
          try conn.saveIssue(issue)
        case 80..<90 where !issues.isEmpty:
          let index = Int(random.next() % UInt64(issues.count))
          try conn.deleteIssues([issues.remove(at: index).id])
        case 90..<95 where !tags.isEmpty:
          let index = Int(random.next() % UInt64(tags.count))
          try conn.deleteTag(id: tags.remove(at: index).id)
        default:
          break
        }
      }
      let kept = try db.queue.read { Set(try $0.tagSummaries()) }
      let truth = try db.queue.read { try Self.recomputed($0) }
      #expect(kept == truth, "tag counts drifted at step \(step)")
      if kept != truth { return }
    }
    #expect(
      try db.queue.read { try $0.fetchOne("SELECT count(*) FROM issue_tags", as: Int.self) }! > 0)
  }

  @Test func deletingAnIssueNotifiesObserversOfTagCounts() async throws {
    let db = try TestDatabase()
    let bug = try db.tag("Bug")
    let issue = try db.issue("tagged", tags: [bug])
    var counts = db.queue.observe { try $0.tagSummaries() }.makeAsyncIterator()
    #expect(try await counts.next() == [TagSummary(tag: bug, open: 1, total: 1)])
    try db.queue.write { try $0.deleteIssues([issue.id]) }
    #expect(try await counts.next() == [TagSummary(tag: bug, open: 0, total: 0)])
  }
}
