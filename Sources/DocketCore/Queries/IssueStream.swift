import Database
import Foundation

/// The shortest unique reference of every issue, from one sorted array of the first eight hex
/// digits of each id: four bytes per issue (about 4 MB at a million), the only thing a streamed
/// list keeps for each issue. Asking the database for each listed issue's two neighbours instead
/// costs two index seeks a row, about 4.7 µs (3.5 s for 750 000 rows, measured at 100 000 and
/// scaled); the array is read in one pass over the id index and then looked up by binary search.
public struct ReferenceIndex: Sendable {
  private var prefixes: [UInt32] = []
  /// Where the prefixes that start with each four digits begin (65 537 entries, 256 KB): a look-up
  /// searches a few neighbours instead of the whole array, which at a million ids missed the
  /// processor's caches on most of its twenty steps.
  private var buckets: [Int32] = []
  /// The references of ids whose first eight digits another id shares, worked out exactly.
  private var sharing: [UUID: String] = [:]

  public init(_ db: Connection) throws {
    try db.readTransaction {
      let count =
        try db.fetchOne("SELECT open_count + completed_count FROM issue_counts", as: Int.self) ?? 0
      prefixes.reserveCapacity(count)
      try db.forEachRow("SELECT id FROM issues ORDER BY id") { row in
        prefixes.append(row.withTextBytes(0) { Self.prefix(ofText: $0) })
      }
      buckets = [Int32](repeating: 0, count: 65_537)
      var bucket = 0
      for (index, prefix) in prefixes.enumerated() {
        while bucket <= Int(prefix >> 16) {
          buckets[bucket] = Int32(index)
          bucket += 1
        }
      }
      while bucket <= 65_536 {
        buckets[bucket] = Int32(prefixes.count)
        bucket += 1
      }
      var shared: [UInt32] = []
      for index in prefixes.indices.dropLast() {
        let digits = Self.sharedDigits(prefixes[index], prefixes[index + 1])
        if digits == 8, shared.last != prefixes[index] { shared.append(prefixes[index]) }
      }
      // Two ids that share eight digits (about a hundred pairs among a million ids) are told
      // apart by their full ids.
      for prefix in shared {
        let ids = try db.issueIDs(withPrefix: String(format: "%08x", prefix), limit: Int.max)
        for (id, reference) in IssueReference.shortestUniquePrefixes(ids) {
          sharing[id] = reference
        }
      }
    }
  }

  /// The reference of an issue of the database the index was read from.
  public func reference(for id: UUID) -> String {
    if !sharing.isEmpty, let known = sharing[id] { return known }
    let prefix = withUnsafeBytes(of: id.uuid) { raw in
      UInt32(raw[0]) << 24 | UInt32(raw[1]) << 16 | UInt32(raw[2]) << 8 | UInt32(raw[3])
    }
    return id.hexPrefix(length(ofPrefix: prefix))
  }

  /// How long the reference of the id with these first eight digits is, when no other id
  /// shares all eight.
  func length(ofPrefix prefix: UInt32) -> Int {
    var low = Int(buckets[Int(prefix >> 16)])
    var high = Int(buckets[Int(prefix >> 16) + 1])
    while low < high {
      let middle = (low + high) / 2
      if prefixes[middle] < prefix { low = middle + 1 } else { high = middle }
    }
    var digits = 0
    if low > 0 { digits = max(digits, Self.sharedDigits(prefixes[low - 1], prefix)) }
    let next = low < prefixes.count && prefixes[low] == prefix ? low + 1 : low
    if next < prefixes.count { digits = max(digits, Self.sharedDigits(prefixes[next], prefix)) }
    return max(IssueReference.minimumLength, digits + 1)
  }

  /// How long the reference of the id in this text form is.
  func length(ofText text: UnsafeBufferPointer<UInt8>) -> Int {
    let prefix = Self.prefix(ofText: text)
    if !sharing.isEmpty, let id = UUID(text: String(decoding: text, as: UTF8.self)),
      let known = sharing[id]
    {
      return known.count
    }
    return length(ofPrefix: prefix)
  }

  static func sharedDigits(_ left: UInt32, _ right: UInt32) -> Int {
    (left ^ right).leadingZeroBitCount / 4
  }

  /// The first eight hex digits of an id's text form as a number (0 for text that is not one).
  static func prefix(ofText bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    guard bytes.count >= 8 else { return 0 }
    var value: UInt32 = 0
    for byte in bytes[0..<8] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return 0
      }
      value = value << 4 | UInt32(digit)
    }
    return value
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
  public var rows = 0
}

extension Connection {
  /// Every issue `request` selects, in its order, handed to `body` a batch at a time: rows are
  /// read as they are written, so memory stays the same for a thousand issues and a million.
  /// Read in one transaction, so the list is one moment of the database.
  public func streamIssues(
    _ request: IssueRequest, limit: Int? = nil, detail: Bool, references: ReferenceIndex,
    batchSize: Int = 256, _ body: ([ListedIssue]) throws -> Void
  ) throws {
    try readTransaction {
      let catalogue = try tagCatalogue()
      let (sql, arguments) = try issuesSQL(request, forPage: false, detail: detail, limit: limit)
      var batch: [ListedIssue] = []
      batch.reserveCapacity(batchSize)
      try forEachRow(sql, arguments) { row in
        let issue = try Self.decodeIssue(row, tags: catalogue)
        batch.append(ListedIssue(issue: issue, reference: references.reference(for: issue.id)))
        if batch.count == batchSize {
          try body(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { try body(batch) }
    }
  }

  /// The widest title and tag list among the issues `request` selects, each measured by the
  /// caller (display rules live with the display). One pass in storage order, nothing kept: a
  /// table written as it is read knows its column widths before its first row. A title of
  /// printable ASCII is as wide as it is long and is not decoded; each distinct set of tags is
  /// measured once.
  public func measureList(
    _ request: IssueRequest, limit: Int? = nil, references: ReferenceIndex,
    title: (String) -> Int, tags: ([Tag]) -> Int
  ) throws -> ListWidths {
    try readTransaction {
      let catalogue = try tagCatalogue()
      let clause = try IssueRequestSQL(request, db: self, forPage: false)
      var widths = ListWidths()
      var tagWidths: [String: Int] = [:]
      // With a limit, which rows are listed depends on the order; without one it does not.
      let sql =
        limit == nil
        // Storage order: each page of the table is read once (an index would look each row up).
        ? "SELECT i.title, i.tag_seqs, i.id FROM issues i NOT INDEXED WHERE \(clause.condition)"
        : """
        SELECT i.title, i.tag_seqs, i.id FROM issues i WHERE \(clause.condition)
        ORDER BY \(clause.orderBy(request.sort)) LIMIT ?
        """
      try forEachRow(sql, clause.arguments + (limit.map { [$0] } ?? [])) { row in
        widths.rows += 1
        widths.references = max(
          widths.references, row.withTextBytes(2) { references.length(ofText: $0) })
        let asciiWidth = row.withTextBytes(0) { bytes -> Int? in
          bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        let titleWidth = try asciiWidth ?? title(row.get(0))
        widths.titles = max(widths.titles, titleWidth)
        var list = try row.get(1, as: String.self)
        if list.isEmpty { return }
        if let known = tagWidths[list] {
          widths.tags = max(widths.tags, known)
        } else {
          let width = list.withUTF8 { tags(Self.tags(inList: $0, catalogue: catalogue)) }
          tagWidths[list] = width
          widths.tags = max(widths.tags, width)
        }
      }
      return widths
    }
  }
}
