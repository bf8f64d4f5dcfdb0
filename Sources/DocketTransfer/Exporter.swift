import Database
import DocketCore
import Foundation

/// Reading the whole database for an export: every tag, and every issue one at a time (oldest
/// first), so that memory does not grow with the database.
extension Connection {
  /// Every tag, by name.
  public func exportTags() throws -> [Tag] {
    var tags: [Tag] = []
    try forEachRow("SELECT id, name FROM tags ORDER BY id") { row in
      tags.append(Tag(id: try row.get(0, as: UUID.self), name: try row.get(1, as: String.self)))
    }
    // In the order an issue lists its tags (case and accents aside), so both read alike.
    return NaturalOrder.sorted(tags, by: \.name)
  }

  /// Calls `body` with each issue and its tags (sorted by name), oldest first.
  public func forEachIssueForExport(_ body: (Issue) throws -> Void) throws {
    var tagsBySeq: [Int64: Tag] = [:]
    try forEachRow("SELECT seq, id, name FROM tags") { row in
      tagsBySeq[try row.get(0, as: Int64.self)] = Tag(
        id: try row.get(1, as: UUID.self), name: try row.get(2, as: String.self))
    }
    try forEachRow(
      """
      SELECT id, title, detail, priority, completed, created, modified, tag_seqs
      FROM issues ORDER BY created, id
      """
    ) { row in
      let tags = try row.get(7, as: String.self).split(separator: ",").compactMap {
        Int64($0).flatMap { tagsBySeq[$0] }
      }
      try body(
        Issue(
          id: try row.get(0, as: UUID.self), title: try row.get(1, as: String.self),
          detail: try row.get(2, as: String.self),
          priority: Priority(rawValue: try row.get(3, as: Int.self)) ?? .low,
          completed: try row.get(4, as: Bool.self), created: try row.get(5, as: Date.self),
          modified: try row.get(6, as: Date?.self),
          tags: NaturalOrder.sorted(tags, by: \.name)))
    }
  }
}

/// Writes the whole database in a format, as it reads it: nothing of the whole list is kept.
public enum Exporter {
  public static func write(
    _ format: TransferFormat, from db: Connection, exported: Date, to output: inout OutputBytes
  ) throws {
    switch format {
    case .docket:
      try DocketFormat.write(
        tags: try db.exportTags(), issues: db.forEachIssueForExport, exported: exported,
        to: &output)
    case .taskwarrior:
      try TaskwarriorFormat.write(db.forEachIssueForExport, to: &output)
    case .csv:
      try CSVFormat.write(db.forEachIssueForExport, to: &output)
    case .github:
      throw ImportError(.unknownFormat)
    }
  }
}

/// Issues handed over one at a time: the caller's loop over its source.
public typealias IssueSource = ((Issue) throws -> Void) throws -> Void
