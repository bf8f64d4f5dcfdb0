import Database
import Foundation

/// The length of every issue's shortest unique reference, one byte an issue by its row number,
/// found in one pass over the ids in order (each id's reference is decided by its two
/// neighbours). A list looks its issues up by row number, in the order it reads them: asking
/// the database for each issue's neighbours costs two index seeks a row (4.7 µs, 3.5 s for
/// 750 000 rows), and a search of a sorted array of ids missed the processor's caches on most
/// look-ups (0.6 µs each at a million, measured).
public struct ReferenceIndex: Sendable {
  private var lengths: [UInt8] = []

  public init(_ db: Connection) throws {
    try db.readTransaction {
      // Row numbers are dense unless many issues were deleted; past a few times the number of
      // issues (never in Docket's own use) the lengths would take more than the ids, so the
      // numbers above that are looked up slowly (`length(row:)` answers 32 digits, always unique).
      let highest = try db.fetchOne("SELECT coalesce(max(seq), 0) FROM issues", as: Int.self) ?? 0
      let count =
        try db.fetchOne("SELECT open_count + completed_count FROM issue_counts", as: Int.self) ?? 0
      let rows = min(highest, 4 * count + 1_000_000)
      lengths = [UInt8](repeating: UInt8(IssueReference.minimumLength), count: rows + 1)
      var previous = [UInt8](repeating: 0, count: 36)
      var previousRow = -1
      try db.forEachRow("SELECT id, seq FROM issues ORDER BY id") { row in
        let seq = try row.get(1, as: Int.self)
        row.withTextBytes(0) { id in
          if previousRow >= 0 {
            let length = UInt8(IssueReference.sharedHexDigits(previous, id) + 1)
            if previousRow < lengths.count {
              lengths[previousRow] = max(lengths[previousRow], length)
            }
            if seq >= 0, seq < lengths.count { lengths[seq] = max(lengths[seq], length) }
          }
          previous.removeAll(keepingCapacity: true)
          previous.append(contentsOf: id)
        }
        previousRow = max(seq, 0)
      }
    }
  }

  /// How many hex digits the reference of the issue in row `seq` has.
  public func length(row seq: Int64) -> Int {
    seq >= 0 && seq < lengths.count ? Int(lengths[Int(seq)]) : 32
  }

  public func reference(for id: UUID, row seq: Int64) -> String {
    id.hexPrefix(length(row: seq))
  }
}
