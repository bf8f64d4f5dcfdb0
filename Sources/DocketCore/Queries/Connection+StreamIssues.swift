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
  /// A list of most of the table (Open, Completed or All, no search) is read in storage order,
  /// encoded on a second thread as it is read, and the encodings sorted in bounded memory
  /// (`ExternalSorter`): every issue is encoded before the first is delivered, so `encode` can
  /// measure the whole list. Reading it in index order looks each row up at random, which at a
  /// million issues cost 6.1 s in the `sqlite3` shell alone against 1.7 s for the scan
  /// (measured). Other lists are read in index order and each encoded just before it is
  /// delivered; with `measuring`, every issue they list is measured first, in a pass of its own.
  /// `encode` appends to the record it is given and never flushes it.
  public func streamEncodedIssues(
    _ request: IssueRequest, limit: Int? = nil, detail: Bool, references: ReferenceIndex,
    measuring: ListMeasurer? = nil, sortChunkBytes: Int = 8 << 20,
    encode: (ListedIssue, inout OutputBytes) throws -> Void,
    _ deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try readTransaction {
      let catalogue = try tagCatalogue()
      if limit == nil, request.search.isEmpty,
        [.open, .completed, .all].contains(request.filter)
      {
        try streamSorted(
          request, detail: detail, references: references, catalogue: catalogue,
          chunkBytes: sortChunkBytes, encode: encode, deliver)
        return
      }
      if let measuring {
        try measureList(request, limit: limit, catalogue: catalogue, into: measuring)
      }
      var encoded = OutputBytes.record()
      let (sql, arguments) = try issuesSQL(request, forPage: false, detail: detail, limit: limit)
      try forEachRow(sql, arguments) { row in
        let issue = try Self.decodeIssue(row, tags: catalogue)
        let seq = try row.get(8, as: Int64.self)
        encoded.removeAll()
        try encode(
          ListedIssue(issue: issue, reference: references.reference(for: issue.id, row: seq)),
          &encoded)
        try encoded.bytes.withUnsafeBytes { try deliver($0) }
      }
    }
  }

  /// Measures the issues `request` selects, in a pass that keeps nothing.
  func measureList(
    _ request: IssueRequest, limit: Int?, catalogue: [Int64: (tag: Tag, rank: Int)],
    into measurer: ListMeasurer
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
            row: seq, title: title, tagList: list, priority: priority, completed: completed,
            activity: activity, catalogue: catalogue)
        }
      }
    }
  }
}
