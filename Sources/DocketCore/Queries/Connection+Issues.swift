import Database
import Foundation

/// Reading issues.
extension Connection {
  /// The columns `decodeIssue` reads, over `issues i`; tags come as `id<US>name` pairs joined by
  /// the record separator, so one query serves a page.
  static let issueColumns = """
    i.id, i.title, i.detail, i.priority, i.completed, i.created, i.modified,
    (SELECT group_concat(t.id || char(31) || t.name, char(30))
       FROM issue_tags l JOIN tags t ON t.seq = l.tag_seq WHERE l.issue_seq = i.seq)
    """

  static func decodeIssue(_ row: Row) throws -> Issue {
    let tagList = try row.get(7, as: String?.self) ?? ""
    let tags = tagList.split(separator: "\u{1E}").compactMap { pair -> Tag? in
      let parts = pair.split(separator: "\u{1F}", maxSplits: 1)
      guard parts.count == 2, let id = UUID(uuidString: String(parts[0])) else { return nil }
      return Tag(id: id, name: String(parts[1]))
    }
    return Issue(
      id: try row.get(0), title: try row.get(1), detail: try row.get(2),
      priority: Priority(rawValue: try row.get(3)) ?? .low, completed: try row.get(4),
      created: try row.get(5), modified: try row.get(6),
      tags: tags.sorted {
        ($0.name.lowercased(), $0.id.uuidString) < ($1.name.lowercased(), $1.id.uuidString)
      })
  }

  /// One page of the issues `request` selects, in its order.
  public func fetchIssues(_ request: IssueRequest, limit: Int? = nil, offset: Int = 0) throws
    -> [Issue]
  {
    let clause = try IssueRequestSQL(request, db: self, forPage: limit != nil)
    var sql = """
      SELECT \(Self.issueColumns) FROM issues i WHERE \(clause.condition)
      ORDER BY \(request.sort.orderBy)
      """
    var allArguments = clause.arguments
    if let limit {
      sql += " LIMIT ? OFFSET ?"
      allArguments += [limit, offset]
    }
    return try fetchAll(sql, allArguments, Self.decodeIssue)
  }

  /// How many issues `request` selects.
  public func countIssues(_ request: IssueRequest) throws -> Int {
    let clause = try IssueRequestSQL(request, db: self, forPage: false)
    let sql = "SELECT count(*) FROM issues i WHERE \(clause.condition)"
    return try fetchOne(sql, clause.arguments, as: Int.self) ?? 0
  }

  public func fetchIssue(id: UUID) throws -> Issue? {
    try fetchOne("SELECT \(Self.issueColumns) FROM issues i WHERE i.id = ?", [id], Self.decodeIssue)
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
    id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
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
    let all = try fetchAll("SELECT id FROM issues ORDER BY id") { row in
      try row.get(0, as: String.self).replacingOccurrences(of: "-", with: "")
    }
    var result: [UUID: String] = [:]
    result.reserveCapacity(wanted.count)
    for index in all.indices {
      var length = IssueReference.minimumLength
      if index > all.startIndex {
        length = max(length, IssueReference.commonPrefixLength(all[index], all[index - 1]) + 1)
      }
      if index + 1 < all.endIndex {
        length = max(length, IssueReference.commonPrefixLength(all[index], all[index + 1]) + 1)
      }
      guard let id = UUID(uuidString: Self.hyphenated(all[index])), wanted.contains(id) else {
        continue
      }
      result[id] = String(all[index].prefix(length))
    }
    return result
  }

  static func hyphenated(_ hex: String) -> String {
    var result = ""
    for (offset, character) in hex.enumerated() {
      if [8, 12, 16, 20].contains(offset) { result.append("-") }
      result.append(character)
    }
    return result
  }
}
