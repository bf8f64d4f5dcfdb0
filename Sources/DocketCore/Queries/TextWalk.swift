import Database

/// A page of a text search read by walking the sort index and matching each issue's text here
/// (`TextMatcher`), instead of first asking the full-text index for every match.
///
/// The full-text index answers in time that grows with how many issues hold the words: at a
/// million issues, `b*` (40 % of issues) takes 27 ms and `fix* build*` (1.2 %) 23 ms before the
/// first row, while a page of them is found after about `page ÷ share` issues of the sort index.
/// So a search walks first, and gives up for the index once the matches seen project past
/// `budget` issues; a rare word then costs the walk of `sample` issues more than it did.
///
/// A walked issue costs a random read of its row: about 1 µs when the database is in SQLite's
/// cache, 6 µs at a million issues (measured: 4 200 rows in sort order, 27 ms in the `sqlite3`
/// shell). The budget is where walking stops paying at a million: 4 096 issues cost about as
/// much as the index's answer for words on a tenth of the issues (22–27 ms). Typing a word
/// (`b`, `bu`, … `build`, on 18–40 % of issues) fills a page of 100 within 600 issues.
enum TextWalk {
  /// Issues walked before the share of matches is trusted.
  static let sample = 512
  /// The most issues walked for one page or count.
  static let budget = 4_096

  private struct Stop: Error {}

  /// Calls `body` with each matching row, in the order of the request, until it has had `wanted`
  /// of them. True when it did, or when every issue was walked; false when the walk gave up.
  static func walk(
    _ request: IssueRequest, wanted: Int, db: Connection, _ body: (Row) throws -> Void
  ) throws -> Bool {
    guard let matcher = TextMatcher(search: request.search, db: db) else { return false }
    let clause = try IssueRequestSQL(request, db: db, forPage: true, text: false)
    let sql = """
      SELECT \(Connection.issueColumns(detail: true)) FROM issues i
      WHERE \(clause.condition) ORDER BY \(clause.orderBy(request.sort)) LIMIT ?
      """
    var walked = 0
    var found = 0
    var gaveUp = false
    do {
      try db.forEachRow(sql, clause.arguments + [budget]) { row in
        walked += 1
        let matches = row.withTextBytes(1) { title in
          row.withTextBytes(2) { detail in matcher.matches(title: title, detail: detail) }
        }
        if matches {
          found += 1
          try body(row)
          if found == wanted { throw Stop() }
        }
        // Past the sample, the share of matches so far says how far the page still is.
        if walked >= sample, walked % 256 == 0, found * budget < wanted * walked {
          gaveUp = true
          throw Stop()
        }
      }
    } catch is Stop {}
    // A walk that reached its budget without filling the page did not see every issue.
    return !gaveUp && (found == wanted || walked < budget)
  }
}

extension Connection {
  /// The page of a text search by `TextWalk`, or nil when the index should answer.
  func walkedPage(
    _ request: IssueRequest, limit: Int, offset: Int, detail: Bool,
    catalogue: [Int64: (tag: Tag, rank: Int)]
  ) throws -> [Issue]? {
    var issues: [Issue] = []
    var skipped = 0
    let complete = try TextWalk.walk(request, wanted: limit + offset, db: self) { row in
      if skipped < offset {
        skipped += 1
        return
      }
      var issue = try Self.decodeIssue(row, tags: catalogue)
      if !detail { issue.detail = "" }
      issues.append(issue)
    }
    return complete ? issues : nil
  }

  /// How many issues a text search holds, up to `limit`, by `TextWalk`; nil when the index
  /// should count.
  func walkedCount(_ request: IssueRequest, limit: Int) throws -> Int? {
    var count = 0
    let complete = try TextWalk.walk(request, wanted: limit, db: self) { _ in count += 1 }
    return complete ? count : nil
  }
}
