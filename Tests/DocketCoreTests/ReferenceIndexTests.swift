import Database
import Foundation
import Testing

@testable import DocketCore

@Suite struct ReferenceIndexTests {
  /// The comparison in place agrees with the digit-by-digit one for ids sharing each number of
  /// digits, in either case, and leaves other text to it.
  @Test func digitsSharedInPlaceAreTheDigitsShared() {
    var random = SplitMix64(seed: 11)
    for shared in 0...32 {
      let a = random.uuid().uuidString.lowercased()
      var digits = Array(a.filter { $0 != "-" })
      if shared < 32 { digits[shared] = digits[shared] == "0" ? "1" : "0" }
      var b = String(digits)
      for hyphen in [8, 13, 18, 23] {
        b.insert("-", at: b.index(b.startIndex, offsetBy: hyphen))
      }
      for (left, right) in [(a, b), (a.uppercased(), b), (b, a)] {
        let fast = Array(left.utf8).withUnsafeBufferPointer { l in
          Array(right.utf8).withUnsafeBufferPointer { IssueReference.sharedHexDigitsInPlace(l, $0) }
        }
        #expect(fast == shared, "\(left) \(right)")
        #expect(fast == IssueReference.sharedHexDigits(Array(left.utf8), Array(right.utf8)))
      }
    }
    let short = Array("abcd".utf8)
    let plain = Array("abcdef0100004000800000000000000100000".utf8.prefix(36))
    short.withUnsafeBufferPointer { s in
      plain.withUnsafeBufferPointer { p in
        #expect(IssueReference.sharedHexDigitsInPlace(s, p) == nil)
        #expect(IssueReference.sharedHexDigitsInPlace(p, p) == nil)
        // Left to the digit-by-digit reading, which they are given.
        #expect(IssueReference.sharedHexDigits(s, p) == 4)
        #expect(IssueReference.sharedHexDigits(p, p) == 36)
      }
    }
  }

  /// Every reference from the index equals the one found from the issue's neighbours, for ids
  /// that share one to all of their first eight digits and for ids that share none.
  @Test func referencesAgreeWithTheNeighbourLookUp() throws {
    let db = try TestDatabase()
    let crafted = [
      "abcdef01-0000-4000-8000-000000000001", "abcdef01-0000-4000-8000-000000000002",
      "abcdef01-1000-4000-8000-000000000001", "abcdef02-0000-4000-8000-000000000000",
      "abce0000-0000-4000-8000-000000000000", "ffffffff-ffff-4fff-bfff-ffffffffffff",
      "00000000-0000-4000-8000-000000000000", "12340000-0000-4000-8000-000000000000",
      "12350000-0000-4000-8000-000000000000",
    ].map { UUID(uuidString: $0)! }
    var random = SplitMix64(seed: 7)
    let ids = crafted + (0..<300).map { _ in random.uuid() } + (0..<80).map { _ in db.uuids.make() }
    try db.queue.write { conn in
      for id in ids { try conn.insertIssue(Issue(id: id, title: "x", created: db.now)) }
    }
    let index = try db.queue.read { try ReferenceIndex($0) }
    let rows = try db.queue.read { conn in
      try ids.map {
        try conn.fetchOne("SELECT seq FROM issues WHERE id = ?", [$0], as: Int64.self)!
      }
    }
    let oneByOne = try db.queue.read { conn in
      try ids.map { try conn.references(for: [$0])[$0]! }
    }
    #expect(zip(ids, rows).map { $0.hexPrefix(index.length(row: $1)) } == oneByOne)
    #expect(oneByOne[0] == "abcdef01000040008000000000000001")
    #expect(oneByOne[3] == "abcdef02")
    #expect(oneByOne[4] == "abce")
    #expect(oneByOne[7] == "1234")
    // Many at once go through the index.
    let many = try db.queue.read { try $0.references(for: ids) }
    #expect(ids.map { many[$0]! } == oneByOne)
    // A list's references: looked up one by one for the first twentieth of the issues, then
    // from one pass over every id; the same either way.
    let listed = try db.queue.read { conn in
      let references = try ListReferences(conn)
      var made: [String] = []
      var wholeAfter: Int?
      for (id, row) in zip(ids, rows) {
        made.append(try references.reference(for: id, row: row))
        if wholeAfter == nil, references.madeWhole { wholeAfter = made.count }
      }
      return (made, wholeAfter)
    }
    #expect(listed.0 == oneByOne)
    #expect(listed.1 == ids.count / ListReferences.passShare + 1)
  }
}
