import Database
import Foundation

/// An issue as a list shows it: with its short reference.
public struct ListedIssue: Sendable {
  public var issue: Issue
  public var reference: String
}

extension Connection {
  /// Every issue `request` selects (the first `limit`), in its order, handed to `body` a batch at
  /// a time, in one read transaction, so the list is one moment of the database. Memory stays
  /// the same for a thousand issues and a million. With `measuring`, every listed issue is
  /// measured before the first batch.
  ///
  /// A list of most of the table (Open, Completed or All, no search) is read in storage order
  /// and sorted in bounded memory (`ExternalSorter`); reading it in index order looks each row up
  /// at random, which at a million issues cost 6.1 s in the `sqlite3` shell alone against 1.7 s
  /// for the scan (measured). Other lists are read in index order, their rows written as read.
  public func streamIssues(
    _ request: IssueRequest, limit: Int? = nil, detail: Bool, references: ReferenceIndex,
    measuring: ListMeasurer? = nil, batchSize: Int = 256, sortChunkBytes: Int = 8 << 20,
    _ body: ([ListedIssue]) throws -> Void
  ) throws {
    try readTransaction {
      let catalogue = try tagCatalogue()
      var batch: [ListedIssue] = []
      batch.reserveCapacity(batchSize)
      func deliver(_ issue: Issue, row seq: Int64) throws {
        batch.append(
          ListedIssue(issue: issue, reference: references.reference(for: issue.id, row: seq)))
        if batch.count == batchSize {
          try body(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if limit == nil, request.search.isEmpty,
        [.open, .completed, .all].contains(request.filter)
      {
        try streamSorted(
          request, detail: detail, catalogue: catalogue, measuring: measuring,
          chunkBytes: sortChunkBytes, deliver)
      } else {
        if let measuring {
          try measureList(request, limit: limit, catalogue: catalogue, into: measuring)
        }
        let (sql, arguments) = try issuesSQL(request, forPage: false, detail: detail, limit: limit)
        try forEachRow(sql, arguments) { row in
          try deliver(try Self.decodeIssue(row, tags: catalogue), row: try row.get(8))
        }
      }
      if !batch.isEmpty { try body(batch) }
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
