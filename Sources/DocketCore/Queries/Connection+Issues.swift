import Database
import Foundation

/// Reading issues.
extension Connection {
  /// The columns `decodeIssue` reads, over `issues i`: the issue's own fields and the row numbers
  /// of its tags (kept on the issue, see `Schema.v3`).
  static func issueColumns(detail: Bool) -> String {
    """
    i.id, i.title, \(detail ? "i.detail" : "''"), i.priority, i.completed, i.created, i.modified,
    i.tag_seqs, i.seq
    """
  }

  /// Every tag by its row number, with its place in name order (how an issue lists its tags).
  func tagCatalogue() throws -> [Int64: (tag: Tag, rank: Int)] {
    var rows: [(seq: Int64, tag: Tag)] = []
    try forEachRow("SELECT seq, id, name FROM tags ORDER BY id") { row in
      rows.append((try row.get(0), Tag(id: try row.get(1), name: try row.get(2))))
    }
    var catalogue: [Int64: (tag: Tag, rank: Int)] = [:]
    catalogue.reserveCapacity(rows.count)
    for (rank, row) in NaturalOrder.sorted(rows, by: { $0.tag.name }).enumerated() {
      catalogue[row.seq] = (row.tag, rank)
    }
    return catalogue
  }

  /// The tags of `tag_seqs` lists for a long list of issues, each distinct list made once: most
  /// issues share a few sets of tags, and making each issue's array anew (looking up, sorting,
  /// copying) would be the larger part of decoding its row.
  struct TagLists {
    /// Past this many distinct lists, each further one is made afresh, and so is a list longer
    /// than `longestKept` bytes, so the cache stays small whatever the database holds.
    static let limit = 8_192
    static let longestKept = 256
    let catalogue: [Int64: (tag: Tag, rank: Int)]
    private var made: [String: [Tag]] = [:]

    init(_ catalogue: [Int64: (tag: Tag, rank: Int)]) { self.catalogue = catalogue }

    mutating func tags(inList list: UnsafeBufferPointer<UInt8>) -> [Tag] {
      guard !list.isEmpty else { return [] }
      guard list.count <= Self.longestKept else {
        return Connection.tags(inList: list, catalogue: catalogue)
      }
      let key = String(decoding: list, as: UTF8.self)
      if let known = made[key] { return known }
      let tags = Connection.tags(inList: list, catalogue: catalogue)
      if made.count < Self.limit { made[key] = tags }
      return tags
    }
  }

  /// The tags of a `tag_seqs` list, in name order.
  static func tags(
    inList list: UnsafeBufferPointer<UInt8>, catalogue: [Int64: (tag: Tag, rank: Int)]
  ) -> [Tag] {
    guard !list.isEmpty else { return [] }
    var ranked: [(tag: Tag, rank: Int)] = []
    var number: Int64 = 0
    for byte in list {
      if byte == UInt8(ascii: ",") {
        if let entry = catalogue[number] { ranked.append(entry) }
        number = 0
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        number = number &* 10 &+ Int64(byte - UInt8(ascii: "0"))
      }
    }
    if let entry = catalogue[number] { ranked.append(entry) }
    if ranked.count > 1 { ranked.sort { $0.rank < $1.rank } }
    return ranked.map(\.tag)
  }

  static func decodeIssue(_ row: Row, tags catalogue: [Int64: (tag: Tag, rank: Int)]) throws
    -> Issue
  {
    try decodeIssue(row) { row.withTextBytes(7) { Self.tags(inList: $0, catalogue: catalogue) } }
  }

  /// The same, with the tag lists that repeat from row to row made once (`TagLists`).
  static func decodeIssue(_ row: Row, tags lists: inout TagLists) throws -> Issue {
    try decodeIssue(row) { row.withTextBytes(7) { lists.tags(inList: $0) } }
  }

  private static func decodeIssue(_ row: Row, tags: () -> [Tag]) throws -> Issue {
    Issue(
      id: try row.get(0, as: UUID.self), title: try row.get(1), detail: try row.get(2),
      priority: Priority(rawValue: try row.get(3)) ?? .low, completed: try row.get(4),
      created: try row.get(5), modified: try row.get(6), tags: tags())
  }

  /// One page of the issues `request` selects, in its order. Without `detail`, the detail of
  /// each issue is left empty (for lists that do not show it). A whole list is better streamed
  /// (`streamIssues`).
  public func fetchIssues(
    _ request: IssueRequest, limit: Int? = nil, offset: Int = 0, detail: Bool = true,
    walk: TextWalk.Limits = .interactive
  ) throws -> [Issue] {
    try readTransaction {
      let catalogue = try tagCatalogue()
      var share: Double?
      if let limit, request.search.hasText {
        let walked = try walkedPage(
          request, limit: limit, offset: offset, detail: detail, limits: walk,
          catalogue: catalogue)
        if let page = walked.page { return page }
        if case .gaveUp(let sampled) = walked.outcome { share = sampled }
      }
      let (sql, arguments) = try issuesSQL(
        request, forPage: limit != nil, detail: detail, limit: limit, offset: offset,
        textShare: share)
      return try fetchAll(sql, arguments) { try Self.decodeIssue($0, tags: catalogue) }
    }
  }

  /// The statement that reads the issues of `request` in its order, and its arguments.
  func issuesSQL(
    _ request: IssueRequest, forPage: Bool, detail: Bool, limit: Int?, offset: Int = 0,
    textShare: Double? = nil
  ) throws -> (String, [any DatabaseValueConvertible]) {
    let clause = try IssueRequestSQL(request, db: self, forPage: forPage, textShare: textShare)
    var sql = """
      SELECT \(Self.issueColumns(detail: detail)) FROM issues i
      WHERE \(clause.condition) ORDER BY \(clause.orderBy(request.sort))
      """
    var arguments = clause.arguments
    if let limit {
      sql += " LIMIT ? OFFSET ?"
      arguments += [limit, offset]
    }
    return (sql, arguments)
  }

  /// How many issues `request` selects; with `limit`, counting stops there (a list that shows
  /// "1000+" need not count a hundred thousand matches on every keystroke).
  ///
  /// Text is counted from the full-text index's matches, each joined to its issue, when no tag
  /// narrows the list: as a set for `i.seq IN (…)`, SQLite reads every open issue of the
  /// completion index and looks it up in the matches, and a count up to 1 001 reads every match
  /// first, many times slower for a common word and for a whole list alike. With a tag the set
  /// stays: the tag may be the rarer of the two.
  public func countIssues(
    _ request: IssueRequest, limit: Int? = nil, walk: TextWalk.Limits = .interactive
  ) throws -> Int {
    if let limit, request.search.hasText,
      let count = try walkedCount(request, limit: limit, limits: walk)
    {
      return count
    }
    var joinsText = request.search.tags.isEmpty
    if case .tag = request.filter { joinsText = false }
    let clause = try IssueRequestSQL(request, db: self, forPage: false, joinsText: joinsText)
    var from = "issues i"
    var arguments = clause.arguments
    if let expression = clause.joinedText {
      from = "issue_fts CROSS JOIN issues i ON i.seq = issue_fts.rowid"
      arguments.insert(expression, at: 0)
    }
    let condition = (clause.joinedText == nil ? [] : ["issue_fts MATCH ?"]) + [clause.condition]
    let rows = "SELECT 1 FROM \(from) WHERE \(condition.joined(separator: " AND "))"
    if let limit {
      return try fetchOne(
        "SELECT count(*) FROM (\(rows) LIMIT ?)", arguments + [limit], as: Int.self) ?? 0
    }
    return try fetchOne("SELECT count(*) FROM (\(rows))", arguments, as: Int.self) ?? 0
  }

  public func fetchIssue(id: UUID) throws -> Issue? {
    try readTransaction {
      let catalogue = try tagCatalogue()
      let sql =
        "SELECT \(Self.issueColumns(detail: true)) FROM issues i WHERE i.id = ?"
      return try fetchOne(sql, [id]) { try Self.decodeIssue($0, tags: catalogue) }
    }
  }

  /// Issues whose id starts with `prefix` (hex digits, hyphens optional), at most `limit`.
  public func issueIDs(withPrefix prefix: String, limit: Int = 10) throws -> [UUID] {
    guard let canonical = IssueReference.canonicalPrefix(prefix) else { return [] }
    return try fetchAll(
      "SELECT id FROM issues WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
      [canonical, canonical + "\u{7F}", limit]
    ) { try $0.get(0, as: UUID.self) }
  }
}

/// Short references to issues: the shortest unique prefix of the id, at least four hex digits.
public enum IssueReference {
  public static let minimumLength = 4

  /// The hex digits of an id, without hyphens, lowercase.
  public static func hex(_ id: UUID) -> String {
    // Straight from the 16 bytes: this runs once per listed issue.
    let digits = Array("0123456789abcdef".utf8)
    var bytes = [UInt8]()
    bytes.reserveCapacity(32)
    withUnsafeBytes(of: id.uuid) { raw in
      for byte in raw {
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A typed prefix in the stored form (lowercase, hyphens where a UUID has them); nil if it is
  /// not hex.
  public static func canonicalPrefix(_ typed: String) -> String? {
    let digits = typed.lowercased().filter { $0 != "-" }
    guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy(\.isHexDigit) else { return nil }
    var result = ""
    for (offset, character) in digits.enumerated() {
      if [8, 12, 16, 20].contains(offset) { result.append("-") }
      result.append(character)
    }
    return result
  }

  /// How many hex digits two ids in text form share at their start (hyphens skipped, case
  /// ignored).
  public static func sharedHexDigits(
    _ a: some Collection<UInt8>, _ b: some Collection<UInt8>
  ) -> Int {
    var shared = 0
    var left = a.makeIterator()
    var right = b.makeIterator()
    func next(_ iterator: inout some IteratorProtocol<UInt8>) -> UInt8? {
      while let byte = iterator.next() {
        if byte == UInt8(ascii: "-") { continue }
        return byte | 0x20
      }
      return nil
    }
    while let x = next(&left), let y = next(&right), x == y { shared += 1 }
    return shared
  }

  /// The same for two texts in memory: those shaped as Docket writes ids (36 characters,
  /// hyphens after the 8th, 12th, 16th and 20th digit) compared in place, byte by byte, with no
  /// hyphen to skip. The pass over every id (`ReferenceIndex`) compares each with the one before,
  /// at the start of every whole list.
  static func sharedHexDigits(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    sharedHexDigitsInPlace(a, b) ?? sharedHexDigits(a.lazy, b.lazy)
  }

  /// `sharedHexDigits` of two texts shaped as ids, case aside; nil for text of another shape.
  static func sharedHexDigitsInPlace(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    guard a.count == 36, b.count == 36 else { return nil }
    // Every one of the eight bytes is a hyphen when their AND has all its bits and their OR no
    // others.
    let hyphens = a[8] & a[13] & a[18] & a[23] & b[8] & b[13] & b[18] & b[23]
    guard hyphens == 0x2D, a[8] | a[13] | a[18] | a[23] | b[8] | b[13] | b[18] | b[23] == 0x2D
    else { return nil }
    var index = 0
    while index < 36, a[index] | 0x20 == b[index] | 0x20 { index += 1 }
    // The hyphens before the first difference are not digits.
    return index - (index > 23 ? 4 : index > 18 ? 3 : index > 13 ? 2 : index > 8 ? 1 : 0)
  }
}

extension Connection {
  /// The shortest unique reference of each of `ids` among every issue in the database.
  public func references(for ids: [UUID]) throws -> [UUID: String] {
    // For a long list, one pass over every id (in order) beats two look-ups per issue: past a
    // twentieth of the issues (`ListReferences`).
    if ids.count > 64, ids.count * ListReferences.passShare > (try issueCount()) {
      return try referencesByScan(for: Set(ids))
    }
    var result: [UUID: String] = [:]
    for id in ids { result[id] = try neighbourReference(for: id) }
    return result
  }

  /// One issue's reference, from its neighbours in the id index: the nearest ids on either side
  /// are the only ones that can share a longer prefix.
  func neighbourReference(for id: UUID) throws -> String {
    id.hexPrefix(try neighbourReferenceLength(for: id))
  }

  /// How many hex digits `neighbourReference` gives `id`.
  public func neighbourReferenceLength(for id: UUID) throws -> Int {
    let canonical = id.lowercasedText
    var length = IssueReference.minimumLength
    let own = Array(canonical.utf8)
    for sql in [
      "SELECT id FROM issues WHERE id < ? ORDER BY id DESC LIMIT 1",
      "SELECT id FROM issues WHERE id > ? ORDER BY id LIMIT 1",
    ] {
      try forEachRow(sql, [canonical]) { row in
        row.withTextBytes(0) { neighbour in
          length = max(length, IssueReference.sharedHexDigits(own, neighbour) + 1)
        }
      }
    }
    return length
  }

  /// How many issues the database holds, as it keeps the count.
  func issueCount() throws -> Int {
    try fetchOne("SELECT open_count + completed_count FROM issue_counts", as: Int.self) ?? 0
  }
}

extension Connection {
  /// For a long list, one pass over every id in order beats two look-ups per issue.
  private func referencesByScan(for wanted: Set<UUID>) throws -> [UUID: String] {
    var result: [UUID: String] = [:]
    result.reserveCapacity(wanted.count)
    var previous: (text: [UInt8], id: UUID?, length: Int) = ([], nil, 0)
    try forEachRow("SELECT id FROM issues ORDER BY id") { row in
      let id = try row.get(0, as: UUID.self)
      row.withTextBytes(0) { text in
        let shared = previous.text.isEmpty ? 0 : IssueReference.sharedHexDigits(previous.text, text)
        if let earlier = previous.id {
          result[earlier] = earlier.hexPrefix(max(previous.length, shared + 1))
        }
        previous.text.removeAll(keepingCapacity: true)
        previous.text.append(contentsOf: text)
        previous.id = wanted.contains(id) ? id : nil
        previous.length = max(IssueReference.minimumLength, shared + 1)
      }
    }
    if let last = previous.id { result[last] = last.hexPrefix(previous.length) }
    return result
  }
}
