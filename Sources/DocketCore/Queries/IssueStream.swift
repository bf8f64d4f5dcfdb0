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

/// An issue as a list shows it: with its short reference.
public struct ListedIssue: Sendable {
  public var issue: Issue
  public var reference: String
}

/// How wide a list's columns of text are: measured by the caller's rules, as the list is read.
public struct ListWidths: Equatable, Sendable {
  public var references = 0
  public var titles = 0
  public var tags = 0
  /// The widest date, when dates are measured (their column's width matters only on a terminal).
  public var dates = 0
  public var rows = 0
  /// The priorities and completion states the list holds.
  public var priorities: Set<Priority> = []
  public var completion: Set<Bool> = []
}

/// Measures the rows of a list before any is written, so a table written as it is read knows
/// its column widths. Display rules live with the display: titles and tag lists are measured by
/// the caller's functions. A title of printable ASCII is as wide as it is long and is not
/// decoded; each distinct set of tags is measured once.
public final class ListMeasurer {
  public private(set) var widths = ListWidths()
  let references: ReferenceIndex
  private let title: (String) -> Int
  private let tags: ([Tag]) -> Int
  private let date: ((Date) -> Int)?
  private var tagWidths: [String: Int] = [:]

  /// `date`, when given, measures each issue's last activity.
  public init(
    references: ReferenceIndex, title: @escaping (String) -> Int,
    tags: @escaping ([Tag]) -> Int, date: ((Date) -> Int)? = nil
  ) {
    self.references = references
    self.title = title
    self.tags = tags
    self.date = date
  }

  func add(
    row seq: Int64, title titleBytes: UnsafeBufferPointer<UInt8>,
    tagList: UnsafeBufferPointer<UInt8>, priority: Int, completed: Bool, activity: Double,
    catalogue: [Int64: (tag: Tag, rank: Int)]
  ) {
    widths.rows += 1
    widths.priorities.insert(Priority(rawValue: priority) ?? .low)
    widths.completion.insert(completed)
    if let date { widths.dates = max(widths.dates, date(Date(timeIntervalSince1970: activity))) }
    widths.references = max(widths.references, references.length(row: seq))
    let titleWidth =
      !titleBytes.isEmpty && titleBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
      ? titleBytes.count : title(String(decoding: titleBytes, as: UTF8.self))
    widths.titles = max(widths.titles, titleWidth)
    guard !tagList.isEmpty else { return }
    let list = String(decoding: tagList, as: UTF8.self)
    if let known = tagWidths[list] {
      widths.tags = max(widths.tags, known)
    } else {
      let width = tags(Connection.tags(inList: tagList, catalogue: catalogue))
      tagWidths[list] = width
      widths.tags = max(widths.tags, width)
    }
  }
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
  private func measureList(
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

  /// Reads the issues of `request` in storage order, sorts them with `ExternalSorter` by keys
  /// that order exactly as `IssueSort.orderBy` does, and delivers them in that order.
  private func streamSorted(
    _ request: IssueRequest, detail: Bool, catalogue: [Int64: (tag: Tag, rank: Int)],
    measuring: ListMeasurer?, chunkBytes: Int, _ deliver: (Issue, Int64) throws -> Void
  ) throws {
    let states = request.completionStates.map(String.init).joined(separator: ", ")
    let sql = """
      SELECT i.id, i.title, \(detail ? "i.detail" : "''"), i.priority, i.completed, i.created,
        i.modified, i.tag_seqs, i.title_key, i.activity, i.seq
      FROM issues i NOT INDEXED WHERE i.completed IN (\(states))
      """
    let sorter = ExternalSorter(chunkBytes: chunkBytes)
    var key: [UInt8] = []
    var payload: [UInt8] = []
    let sort = request.sort
    try forEachRow(sql) { row in
      key.removeAll(keepingCapacity: true)
      payload.removeAll(keepingCapacity: true)
      let completed = try row.get(4, as: Int.self)
      let priority = try row.get(3, as: Int.self)
      let activity = row.double(at: 9) ?? 0
      key.append(UInt8(truncatingIfNeeded: completed))
      switch sort.field {
      case .priority:
        let byte = UInt8(truncatingIfNeeded: priority)
        key.append(sort.ascending ? byte : ~byte)
        SortKeyBytes.append(activity, descending: false, to: &key)
      case .date:
        SortKeyBytes.append(activity, descending: !sort.ascending, to: &key)
      case .title:
        row.withTextBytes(8) {
          SortKeyBytes.append(text: $0, descending: !sort.ascending, to: &key)
        }
        SortKeyBytes.append(activity, descending: false, to: &key)
      }
      row.withTextBytes(0) { key.append(contentsOf: $0) }

      let id = try row.get(0, as: UUID.self)
      let seq = try row.get(10, as: Int64.self)
      SortKeyBytes.append(bits: UInt64(bitPattern: seq), to: &payload)
      withUnsafeBytes(of: id.uuid) { payload.append(contentsOf: $0) }
      payload.append(UInt8(truncatingIfNeeded: priority))
      payload.append(UInt8(truncatingIfNeeded: completed))
      SortKeyBytes.append(row.double(at: 5) ?? 0, to: &payload)
      if let modified = row.double(at: 6) {
        payload.append(1)
        SortKeyBytes.append(modified, to: &payload)
      } else {
        payload.append(0)
      }
      for column in [1, 2, 7] {
        row.withTextBytes(column) { bytes in
          ExternalSorter.append(UInt32(bytes.count), to: &payload)
          payload.append(contentsOf: bytes)
        }
      }
      if let measuring {
        row.withTextBytes(1) { title in
          row.withTextBytes(7) { list in
            measuring.add(
              row: seq, title: title, tagList: list, priority: priority, completed: completed != 0,
              activity: activity, catalogue: catalogue)
          }
        }
      }
      try sorter.add(key: key, payload: payload)
    }
    try sorter.finish { _, payload in
      var reader = PayloadReader(bytes: payload)
      let seq = Int64(bitPattern: reader.bits())
      var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &uuid) { reader.copy(into: $0) }
      let priority = Priority(rawValue: Int(reader.byte())) ?? .low
      let completed = reader.byte() != 0
      let created = Date(timeIntervalSince1970: reader.double())
      let modified = reader.byte() != 0 ? Date(timeIntervalSince1970: reader.double()) : nil
      let title = reader.text()
      let detail = reader.text()
      let tags = reader.withText { Self.tags(inList: $0, catalogue: catalogue) }
      try deliver(
        Issue(
          id: UUID(uuid: uuid), title: title, detail: detail, priority: priority,
          completed: completed, created: created, modified: modified, tags: tags), seq)
    }
  }
}

/// Sort keys as bytes that compare, byte by byte, as SQLite orders the values.
enum SortKeyBytes {
  /// A REAL: its bits, turned so that byte order is number order; inverted for a descending key.
  static func append(_ value: Double, descending: Bool, to key: inout [UInt8]) {
    let bits = value.bitPattern
    let ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    append(bits: descending ? ~ordered : ordered, to: &key)
  }

  /// A double as it is stored in a payload (its plain bits).
  static func append(_ value: Double, to bytes: inout [UInt8]) {
    append(bits: value.bitPattern, to: &bytes)
  }

  static func append(bits: UInt64, to key: inout [UInt8]) {
    for shift in stride(from: 56, through: 0, by: -8) {
      key.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
  }

  /// TEXT in binary order: each zero byte written as 00 FF and the end as 00 00, so no key is
  /// the start of another and a shorter text sorts first; inverted for a descending key.
  static func append(
    text: UnsafeBufferPointer<UInt8>, descending: Bool, to key: inout [UInt8]
  ) {
    let flip: UInt8 = descending ? 0xFF : 0
    for byte in text {
      key.append(byte ^ flip)
      if byte == 0 { key.append(0xFF ^ flip) }
    }
    key.append(flip)
    key.append(flip)
  }
}

/// Reads back what `streamSorted` wrote in a record's payload, in the same order.
struct PayloadReader {
  let bytes: UnsafeRawBufferPointer
  var position = 0

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return bytes[position]
  }

  mutating func bits() -> UInt64 {
    var bits: UInt64 = 0
    for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
    return bits
  }

  mutating func double() -> Double { Double(bitPattern: bits()) }

  mutating func copy(into target: UnsafeMutableRawBufferPointer) {
    target.copyMemory(
      from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + target.count)]))
    position += target.count
  }

  mutating func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    let length = ExternalSorter.readUInt32(bytes, at: position)
    position += 4
    defer { position += length }
    let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
    return body(slice.bindMemory(to: UInt8.self))
  }

  mutating func text() -> String { withText { String(decoding: $0, as: UTF8.self) } }
}
