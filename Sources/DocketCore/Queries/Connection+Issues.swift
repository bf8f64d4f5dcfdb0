import Database
import Foundation

/// Reading issues.
extension Connection {
  /// The columns `decodeIssue` reads, over `issues i`: the issue's own fields and the row numbers
  /// of its tags (in a subquery, or, for long lists, looked up in `LinkTable`).
  static func issueColumns(detail: Bool, tagsInline: Bool) -> String {
    """
    i.id, i.title, \(detail ? "i.detail" : "''"), i.priority, i.completed, i.created, i.modified,
    \(tagsInline ? "(SELECT group_concat(tag_seq) FROM issue_tags WHERE issue_seq = i.seq)" : "NULL"), i.seq
    """
  }

  /// Every tag by its row number, with its place in name order (how an issue lists its tags).
  func tagCatalogue() throws -> [Int64: (tag: Tag, rank: Int)] {
    var catalogue: [Int64: (tag: Tag, rank: Int)] = [:]
    var rank = 0
    try forEachRow("SELECT seq, id, name FROM tags ORDER BY name_key, id") { row in
      catalogue[try row.get(0)] = (Tag(id: try row.get(1), name: try row.get(2)), rank)
      rank += 1
    }
    return catalogue
  }

  static func decodeIssue(
    _ row: Row, tags catalogue: [Int64: (tag: Tag, rank: Int)], links: LinkTable?
  ) throws -> Issue {
    var ranked: [(tag: Tag, rank: Int)] = []
    if let links {
      links.forEachTag(of: try row.get(8, as: Int64.self)) {
        if let entry = catalogue[$0] { ranked.append(entry) }
      }
    } else if case .text(let list) = row.value(at: 7) {
      ranked = list.split(separator: ",").compactMap { Int64($0).flatMap { catalogue[$0] } }
    }
    if ranked.count > 1 { ranked.sort { $0.rank < $1.rank } }
    return Issue(
      id: try row.get(0, as: UUID.self), title: try row.get(1), detail: try row.get(2),
      priority: Priority(rawValue: try row.get(3)) ?? .low, completed: try row.get(4),
      created: try row.get(5), modified: try row.get(6), tags: ranked.map(\.tag))
  }

  /// One page of the issues `request` selects, in its order. Without `detail`, the detail of
  /// each issue is left empty (for lists that do not show it).
  public func fetchIssues(
    _ request: IssueRequest, limit: Int? = nil, offset: Int = 0, detail: Bool = true
  ) throws -> [Issue] {
    try readTransaction {
      let catalogue = try tagCatalogue()
      // A page asks for the tags of its few issues; a long list reads every link once.
      let links = (limit ?? Int.max) > 500 ? try LinkTable(self) : nil
      if limit == nil, request.search.isEmpty, [.open, .completed, .all].contains(request.filter) {
        return try fetchWholeList(
          request, detail: detail, catalogue: catalogue, links: links ?? LinkTable(self))
      }
      let clause = try IssueRequestSQL(request, db: self, forPage: limit != nil)
      var sql = """
        SELECT \(Self.issueColumns(detail: detail, tagsInline: links == nil)) FROM issues i
        WHERE \(clause.condition) ORDER BY \(clause.orderBy(request.sort))
        """
      var allArguments = clause.arguments
      if let limit {
        sql += " LIMIT ? OFFSET ?"
        allArguments += [limit, offset]
      }
      return try fetchAll(sql, allArguments) {
        try Self.decodeIssue($0, tags: catalogue, links: links)
      }
    }
  }

  /// How many issues `request` selects; with `limit`, counting stops there (a list that shows
  /// "1000+" need not count a hundred thousand matches on every keystroke).
  public func countIssues(_ request: IssueRequest, limit: Int? = nil) throws -> Int {
    let clause = try IssueRequestSQL(request, db: self, forPage: false)
    if let limit {
      let sql = "SELECT count(*) FROM (SELECT 1 FROM issues i WHERE \(clause.condition) LIMIT ?)"
      return try fetchOne(sql, clause.arguments + [limit], as: Int.self) ?? 0
    }
    let sql = "SELECT count(*) FROM issues i WHERE \(clause.condition)"
    return try fetchOne(sql, clause.arguments, as: Int.self) ?? 0
  }

  public func fetchIssue(id: UUID) throws -> Issue? {
    try readTransaction {
      let catalogue = try tagCatalogue()
      let sql =
        "SELECT \(Self.issueColumns(detail: true, tagsInline: true)) FROM issues i WHERE i.id = ?"
      return try fetchOne(sql, [id]) { try Self.decodeIssue($0, tags: catalogue, links: nil) }
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

  /// The shortest prefix of each id (at least `minimumLength`) that no other id in `ids` shares.
  public static func shortestUniquePrefixes(_ ids: [UUID]) -> [UUID: String] {
    let sorted = ids.map { ($0, hex($0)) }.sorted { $0.1 < $1.1 }
    var result: [UUID: String] = [:]
    for (index, entry) in sorted.enumerated() {
      var length = minimumLength
      for neighbour in [index - 1, index + 1] where sorted.indices.contains(neighbour) {
        length = max(length, commonPrefixLength(entry.1, sorted[neighbour].1) + 1)
      }
      result[entry.0] = String(entry.1.prefix(length))
    }
    return result
  }

  static func commonPrefixLength(_ a: String, _ b: String) -> Int {
    zip(a, b).prefix { $0 == $1 }.count
  }
}

extension Connection {
  /// The shortest unique reference of each of `ids` among every issue in the database.
  public func references(for ids: [UUID]) throws -> [UUID: String] {
    // For a long list, one pass over every id (in order) beats two look-ups per issue.
    if ids.count > 64 { return try referencesByScan(for: Set(ids)) }
    var result: [UUID: String] = [:]
    for id in ids {
      let canonical = id.uuidString.lowercased()
      // The nearest ids on either side are the only ones that can share a longer prefix.
      let before = try fetchOne(
        "SELECT id FROM issues WHERE id < ? ORDER BY id DESC LIMIT 1", [canonical], as: UUID.self)
      let after = try fetchOne(
        "SELECT id FROM issues WHERE id > ? ORDER BY id LIMIT 1", [canonical], as: UUID.self)
      let neighbours = [before, after].compactMap { $0 }
      result[id] = IssueReference.shortestUniquePrefixes([id] + neighbours)[id]
    }
    return result
  }
}

extension Connection {
  private func referencesByScan(for wanted: Set<UUID>) throws -> [UUID: String] {
    // Every id in order (the text order of ids is the order of their bytes), compared as bytes.
    let all = try fetchAll("SELECT id FROM issues ORDER BY id") { try $0.get(0, as: UUID.self) }
    var result: [UUID: String] = [:]
    result.reserveCapacity(wanted.count)
    for index in all.indices where wanted.contains(all[index]) {
      var length = IssueReference.minimumLength
      if index > all.startIndex {
        length = max(length, all[index].sharedHexDigits(with: all[index - 1]) + 1)
      }
      if index + 1 < all.endIndex {
        length = max(length, all[index].sharedHexDigits(with: all[index + 1]) + 1)
      }
      result[all[index]] = all[index].hexPrefix(length)
    }
    return result
  }
}

extension Connection {
  /// Every issue of Open, Completed or All: the table read in storage order and sorted here,
  /// which spares a random look-up per row that reading in index order costs. Sorts exactly as
  /// `IssueSort.orderBy` does (title keys and ids compared as bytes, as SQLite does).
  private func fetchWholeList(
    _ request: IssueRequest, detail: Bool, catalogue: [Int64: (tag: Tag, rank: Int)],
    links: LinkTable
  ) throws -> [Issue] {
    let states = request.completionStates.map(String.init).joined(separator: ", ")
    let sql = """
      SELECT \(Self.issueColumns(detail: detail, tagsInline: false)), i.title_key
      FROM issues i NOT INDEXED WHERE i.completed IN (\(states))
      """
    var issues: [Issue] = []
    var titleKeys: [[UInt8]] = []
    let byTitle = request.sort.field == .title
    try forEachRow(sql) { row in
      issues.append(try Self.decodeIssue(row, tags: catalogue, links: links))
      if byTitle { titleKeys.append(Array(try row.get(9, as: String.self).utf8)) }
    }
    // The keys in flat arrays, so comparing two rows copies no issue.
    let completed = issues.map(\.completed)
    let priorities = issues.map(\.priority.rawValue)
    let activities = issues.map(\.lastActivity.timeIntervalSince1970)
    let ids = issues.map(\.id)
    let sort = request.sort
    var order = Array(issues.indices)
    order.sort { left, right in
      if completed[left] != completed[right] { return !completed[left] }
      switch sort.field {
      case .priority:
        if priorities[left] != priorities[right] {
          return sort.ascending
            ? priorities[left] < priorities[right] : priorities[left] > priorities[right]
        }
      case .date:
        if activities[left] != activities[right] {
          return sort.ascending
            ? activities[left] < activities[right] : activities[left] > activities[right]
        }
      case .title:
        if titleKeys[left] != titleKeys[right] {
          return sort.ascending
            ? titleKeys[left].lexicographicallyPrecedes(titleKeys[right])
            : titleKeys[right].lexicographicallyPrecedes(titleKeys[left])
        }
      }
      if activities[left] != activities[right] { return activities[left] < activities[right] }
      return ids[left].precedes(ids[right])
    }
    return order.map { issues[$0] }
  }
}

/// Every link as (issue row, tag row) pairs in order, for finding the tags of many issues at once.
struct LinkTable {
  private var issues: [Int64] = []
  private var tags: [Int64] = []

  init(_ db: Connection) throws {
    try db.forEachRow("SELECT issue_seq, tag_seq FROM issue_tags ORDER BY issue_seq, tag_seq") {
      row in
      issues.append(try row.get(0))
      tags.append(try row.get(1))
    }
  }

  func forEachTag(of issue: Int64, _ body: (Int64) -> Void) {
    // The first link of `issue`, by binary search.
    var low = 0
    var high = issues.count
    while low < high {
      let middle = (low + high) / 2
      if issues[middle] < issue { low = middle + 1 } else { high = middle }
    }
    while low < issues.count, issues[low] == issue {
      body(tags[low])
      low += 1
    }
  }
}
