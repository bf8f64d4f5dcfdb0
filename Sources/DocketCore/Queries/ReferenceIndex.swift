import Database
import Foundation

/// The length of every issue's shortest unique reference, one byte an issue by its row number,
/// found in one pass over the ids in order (each id's reference is decided by its two
/// neighbours). A list looks its issues up by row number, in the order it reads them: asking
/// the database for each issue's neighbours costs two index seeks a row, which a long list pays
/// on every row, and a search of a sorted array of ids misses the processor's caches on most
/// look-ups.
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
      var previous: [UInt8] = []
      previous.reserveCapacity(36)
      var previousRow = -1
      try db.forEachRow("SELECT id, seq FROM issues ORDER BY id") { row in
        let seq = try row.get(1, as: Int.self)
        row.withTextBytes(0) { id in
          if previousRow >= 0 {
            let shared = previous.withUnsafeBufferPointer {
              IssueReference.sharedHexDigits($0, id)
            }
            let length = UInt8(shared + 1)
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
}

/// The references of a list whose length is not known ahead (a search, a tag): each found from
/// its neighbours in the id index while the list is short (two seeks), all at once by one pass
/// over every id (`ReferenceIndex`) once the list reaches a twentieth of the issues, where the
/// pass pays. A shorter list does not make the pass, which would cost it far more than its
/// look-ups.
final class ListReferences {
  /// Lists of more than one issue in this many are given references by one pass over every id.
  static let passShare = 20
  private let db: Connection
  private var index: ReferenceIndex?
  private var lookUpsLeft: Int
  private let issues: Int

  init(_ db: Connection) throws {
    self.db = db
    issues = try db.issueCount()
    lookUpsLeft = issues / Self.passShare
  }

  /// Whether a list of `count` issues is given its references by the pass over every id.
  func passPays(forListOf count: Int) -> Bool { count > issues / Self.passShare }

  /// Decides, before the list is read, whether the issues `clause` selects (at most `limit`)
  /// are given their references by the pass: a list of most of the table is without counting;
  /// one that could reach a twentieth of the issues is counted (up to its limit), so a long
  /// list does not look up neighbours for a twentieth of the issues before making the pass
  /// anyway. A list whose limit is under a twentieth is not counted. `clause` is best made
  /// `unordered`, so that the count is not kept off the indexes that find its rows.
  func decide(for request: IssueRequest, _ clause: IssueRequestSQL, limit: Int?) throws {
    if let limit, !passPays(forListOf: limit) { return }
    if limit == nil, request.search.isEmpty, [.open, .completed, .all].contains(request.filter) {
      _ = try whole()
      return
    }
    // Only whether the list passes a twentieth matters: counting stops just past it.
    let enough = min(limit ?? Int.max, issues / Self.passShare + 1)
    let count =
      try db.fetchOne(
        "SELECT count(*) FROM (SELECT 1 FROM issues i WHERE \(clause.condition) LIMIT ?)",
        clause.arguments + [enough], as: Int.self) ?? 0
    if passPays(forListOf: count) { _ = try whole() }
  }

  /// Whether the pass over every id was made.
  var madeWhole: Bool { index != nil }

  /// The references of every issue, made now unless they were.
  func whole() throws -> ReferenceIndex {
    if let index { return index }
    let made = try ReferenceIndex(db)
    index = made
    return made
  }

  func reference(for id: UUID, row seq: Int64) throws -> String {
    id.hexPrefix(try referenceLength(for: id, row: seq))
  }

  /// How many hex digits `reference` gives the issue `id` in row `seq`.
  func referenceLength(for id: UUID, row seq: Int64) throws -> Int {
    if index == nil, lookUpsLeft > 0 {
      lookUpsLeft -= 1
      return try db.neighbourReferenceLength(for: id)
    }
    return try whole().length(row: seq)
  }
}
