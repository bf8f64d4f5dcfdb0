import Database
import Foundation

/// An issue as a list shows it: with its short reference.
public struct ListedIssue: Sendable {
  public var issue: Issue
  public var reference: String
}

extension Connection {
  /// Every issue `request` selects (the first `limit`), each turned into bytes by `encode` and
  /// handed to `deliver` in the request's order, in one read transaction, so the list is one
  /// moment of the database. Memory stays the same for a thousand issues and a million.
  ///
  /// A whole list (no `limit`) is read in the order SQLite finds its rows fastest, encoded on a
  /// second thread as it is read, and the encodings sorted in bounded memory
  /// (`ExternalSorter`): every issue is encoded before the first is delivered, so `encode` can
  /// measure the whole list. Reading it in index order looks each row up at random, several
  /// times slower than reading the table through; a tag or a search read in index order walks
  /// the whole sort index, where its own rows give its issues in a fraction of the time.
  /// A list with a limit is read in index order. Without `measuring`, each is delivered as
  /// it is encoded. With it, the encodings are held until the query ends, so that `encode` has
  /// seen every issue before the first is delivered; a list past `heldBytes` is measured in a
  /// pass of its own (`measuring`) and the rest delivered as encoded. Held, a search is asked of
  /// the full-text index once where two passes would ask twice, and the rows of a common
  /// search's list fit within `heldBytes` even at a million issues. `encode` appends to the
  /// record it is given and never flushes it.
  public func streamEncodedIssues(
    _ request: IssueRequest, limit: Int? = nil, detail: Bool, measuring: ListMeasurer? = nil,
    sortChunkBytes: Int = 8 << 20, heldBytes: Int = 4 << 20,
    encode: (ListedIssue, inout OutputBytes) throws -> Void,
    _ deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try readTransaction {
      let catalogue = try tagCatalogue()
      let references = try ListReferences(self)
      if limit == nil {
        try streamSorted(
          request, detail: detail, references: references, catalogue: catalogue,
          chunkBytes: sortChunkBytes, encode: encode, deliver)
        return
      }
      var encoded = OutputBytes.record()
      var held = HeldRecords(holding: measuring != nil)
      let (sql, arguments) = try issuesSQL(request, forPage: false, detail: detail, limit: limit)
      // A page-sized limit cannot reach the pass: nothing to count, no clause to make.
      if let limit, references.passPays(forListOf: limit) {
        try references.decide(
          for: request, try IssueRequestSQL(request, db: self, forPage: false, unordered: true),
          limit: limit)
      }
      // Each distinct list of tags is made once, so rows with the same tags share one array (and
      // the table's encoder finds their cell by it).
      var tagLists = TagLists(catalogue)
      try forEachRow(sql, arguments) { row in
        let issue = try Self.decodeIssue(row, tags: &tagLists)
        let seq = try row.get(8, as: Int64.self)
        encoded.removeAll()
        try encode(
          ListedIssue(issue: issue, reference: try references.reference(for: issue.id, row: seq)),
          &encoded)
        guard held.isHolding else {
          try encoded.bytes.withUnsafeBytes { try deliver($0) }
          return
        }
        held.add(encoded.bytes)
        if held.bytes.count > heldBytes, let measuring {
          // Too long to hold: measured whole in a second statement beside this one, which
          // then goes on delivering as it reads.
          try measureList(
            request, limit: limit, catalogue: catalogue, references: try references.whole(),
            into: measuring)
          try held.deliver(deliver)
        }
      }
      try held.deliver(deliver)
    }
  }

  /// Measures the issues `request` selects, in a pass that keeps nothing.
  func measureList(
    _ request: IssueRequest, limit: Int?, catalogue: [Int64: (tag: Tag, rank: Int)],
    references: ReferenceIndex, into measurer: ListMeasurer
  ) throws {
    let clause = try IssueRequestSQL(request, db: self, forPage: false)
    // With a limit, which rows are listed depends on the order; without one it does not, and
    // storage order reads each page of the table once.
    let sql =
      limit == nil
      ? """
      SELECT i.title, i.tag_seqs, i.seq, i.priority, i.completed, i.activity
      FROM issues i NOT INDEXED WHERE \(clause.condition)
      """
      : """
      SELECT i.title, i.tag_seqs, i.seq, i.priority, i.completed, i.activity
      FROM issues i WHERE \(clause.condition)
      ORDER BY \(clause.orderBy(request.sort)) LIMIT ?
      """
    try forEachRow(sql, clause.arguments + (limit.map { [$0] } ?? [])) { row in
      let seq = try row.get(2, as: Int64.self)
      let priority = try row.get(3, as: Int.self)
      let completed = try row.get(4, as: Int.self) != 0
      let activity = row.double(at: 5) ?? 0
      row.withTextBytes(0) { title in
        row.withTextBytes(1) { list in
          measurer.add(
            referenceLength: references.length(row: seq), title: title, tagList: list,
            priority: priority, completed: completed, activity: activity, catalogue: catalogue)
        }
      }
    }
  }
}

/// A list's encodings held, end to end, until every one is made.
private struct HeldRecords {
  private(set) var isHolding: Bool
  private(set) var bytes: [UInt8] = []
  private var ends: [Int] = []

  init(holding: Bool) { isHolding = holding }

  mutating func add(_ record: [UInt8]) {
    bytes += record
    ends.append(bytes.count)
  }

  /// Delivers what is held, and holds nothing more.
  mutating func deliver(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
    isHolding = false
    try bytes.withUnsafeBytes { bytes in
      var start = 0
      for end in ends {
        try deliver(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        start = end
      }
    }
    bytes = []
    ends = []
  }
}
