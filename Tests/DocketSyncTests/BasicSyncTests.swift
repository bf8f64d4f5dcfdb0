import Database
import DocketCore
import DocketSync
import DocketTestSupport
import Foundation
import Testing

@Suite struct BasicSyncTests {
  @Test func anIssueMadeOnOneDeviceArrivesOnAnother() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("A", remote: folder.path)
    let b = try Replica("B", remote: folder.path)
    let bug = try a.tag("Bug")
    let issue = try a.issue("Crash on start", tags: [bug])
    let pushed = try a.sync()
    #expect(pushed.pushed == 3)
    let pulled = try b.sync()
    #expect(pulled.pulled == 3)
    #expect(try b.stored(issue.id)?.title == "Crash on start")
    #expect(try b.stored(issue.id)?.tags.map(\.name) == ["Bug"])
    #expect(try a.dump() == b.dump())
  }

  /// A merge of two tags goes to the other device as the rename it is: the issues there carry
  /// the tag that is left, the other is gone, and an issue tagged with the merged one there
  /// meanwhile keeps its tag, as the merged one. Both ways round (the kept id the smaller or
  /// the larger).
  @Test(arguments: [false, true]) func aTagMergeReachesTheOtherDevice(swapped: Bool) throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("A", remote: folder.path)
    let b = try Replica("B", remote: folder.path)
    let low = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    let high = UUID(uuidString: "ffffffff-ffff-4fff-bfff-ffffffffffff")!
    let defect = try a.tag("Defect", id: swapped ? high : low)
    let bug = try a.tag("Bug", id: swapped ? low : high)
    let one = try a.issue("One", tags: [defect])
    let two = try a.issue("Two", tags: [defect, bug])
    let three = try a.issue("Three")
    try a.sync()
    try b.sync()
    // Before the merge, on A: Two is moved from Defect to Bug, the usual way (an older
    // removal through Defect must not win over the merge on B).
    a.time.advance(by: 2)
    try a.edit(two.id) { $0.tags = [bug] }
    try a.sync()
    try b.sync()
    // Meanwhile, on B: Three is tagged Defect.
    b.time.advance(by: 5)
    try b.edit(three.id) { $0.tags = [defect] }
    a.time.advance(by: 10)
    try a.queue.write { _ = try $0.mergeTag(id: defect.id, into: bug.id) }
    for replica in [a, b, a] { try replica.sync() }
    for replica in [a, b] {
      for issue in [one, two, three] {
        #expect(
          try replica.stored(issue.id)?.tags.map(\.name) == ["Bug"],
          "\(replica.name): \(issue.title)")
      }
      #expect(try replica.queue.read { try $0.fetchTags() }.map(\.name) == ["Bug"])
    }
    #expect(try a.dump() == b.dump())
    // A rename of the merged tag later keeps every issue's tag on both.
    a.time.advance(by: 10)
    let left = try #require(try a.queue.read { try $0.fetchTags() }.first)
    try a.queue.write { _ = try $0.renameTag(id: left.id, to: "Bugs") }
    for replica in [a, b, a] { try replica.sync() }
    for replica in [a, b] {
      for issue in [one, two, three] {
        #expect(
          try replica.stored(issue.id)?.tags.map(\.name) == ["Bugs"],
          "\(replica.name): \(issue.title) after the rename")
      }
    }
  }

  /// Enough edits in one pull that the full-text index is kept once after them: edited titles,
  /// issues edited and then deleted, and new ones (one of them under the row of a deleted one)
  /// are searched on the receiver as on the sender, the index's own check passes, and its
  /// triggers are back in their order for the edits after.
  @Test func manyEditsPulledAreSearchedAsOnTheSender() throws {
    let folder = try TemporaryDirectory()
    let a = try Replica("A", remote: folder.path)
    let b = try Replica("B", remote: folder.path)
    var issues: [DocketCore.Issue] = []
    for index in 0..<150 { issues.append(try a.issue("Walrus \(index) tusk")) }
    try a.sync()
    try b.sync()
    for (index, issue) in issues.enumerated() where index % 5 != 4 {
      try a.edit(issue.id) {
        $0.title = "Narwhal \(index) horn"
        if index % 3 == 0 { $0.detail = "Krill notes \(index)" }
      }
    }
    // Edited, then deleted: the index has their first text.
    let deleted = issues.suffix(10).map(\.id) + [issues[0].id]
    _ = try a.queue.write { try $0.deleteIssues(deleted) }
    // Rows freed by the deletes are taken again on the receiver by these.
    for index in 0..<5 { try a.issue("Beluga \(index) song") }
    let pushed = try a.sync()
    #expect(pushed.pushed >= Connection.deferredTextIndexThreshold)
    func seq(of title: String, in replica: Replica) throws -> Int64? {
      try replica.queue.read {
        try $0.fetchOne("SELECT seq FROM issues WHERE title = ?", [title], as: Int64.self)
      }
    }
    // The deletes go first: the first new issue takes the row of the first deleted of the last
    // ten, which that row's old text is still indexed under until the index catches up.
    let freed = try seq(of: "Walrus 140 tusk", in: b)
    try b.sync()
    #expect(try a.dump() == b.dump())
    #expect(try seq(of: "Beluga 0 song", in: b) == freed)
    func found(_ word: String, in replica: Replica) throws -> [String] {
      try replica.queue.read { db in
        try db.fetchAll(
          """
          SELECT i.id FROM issue_fts JOIN issues i ON i.seq = issue_fts.rowid
          WHERE issue_fts MATCH ? ORDER BY i.id
          """, [word]
        ) { try $0.get(0, as: String.self) }
      }
    }
    for word in ["walrus", "narwhal", "horn", "krill", "beluga", "tusk", "wal*", "1", "0"] {
      #expect(try found(word, in: b) == found(word, in: a), "\(word)")
    }
    #expect(try found("beluga", in: b).count == 5)
    #expect(try found("walrus", in: b).count == 150 / 5 - 2)
    try b.queue.write { db in
      try db.execute("INSERT INTO issue_fts (issue_fts, rank) VALUES ('integrity-check', 1)")
    }
    let triggers = """
      SELECT tbl_name || ' ' || name || ' ' || sql FROM sqlite_master
      WHERE type = 'trigger' ORDER BY tbl_name, rowid
      """
    let fresh = try DocketDatabase.inMemory(now: { Date() })
    #expect(
      try b.queue.read { try $0.fetchAll(triggers) { try $0.get(0, as: String.self) } }
        == fresh.read { try $0.fetchAll(triggers) { try $0.get(0, as: String.self) } })
    #expect(
      try b.queue.read {
        try $0.fetchOne("SELECT count(*) FROM sqlite_temp_master", as: Int.self)
      } == 0)
    // An edit after it is indexed as edits are.
    let kept = issues[1].id
    try b.edit(kept) { $0.title = "Dugong" }
    #expect(try found("dugong", in: b) == [kept.lowercasedText])
  }
}
