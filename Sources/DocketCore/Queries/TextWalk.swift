import Database

/// A page of a text search read by walking the sort index and matching each issue's text here
/// (`TextMatcher`), instead of first asking the full-text index for every match.
///
/// The full-text index answers in time that grows with how many issues hold the words, all of
/// it before the first row, while a page of them is found after about `page ÷ share` issues of
/// the sort index. So a search walks first, and gives up for the index once the matches seen
/// project past `budget` issues; a rare word then costs the walk of `sample` issues more than
/// asking the index alone would.
///
/// A walked issue costs a read of its row and the match, several times as much when the rows
/// are read from the file as when they are in SQLite's cache. The index's answer for words on a
/// tenth of the issues costs about as much as walking 6 000 issues in the cache, or 1 000 read
/// from the file: the two budgets of `Limits`. A word being typed is common while it is short,
/// so its page fills long before the budget.
public enum TextWalk {
  /// How far a walk may go.
  public struct Limits: Equatable, Sendable {
    /// Issues walked before the share of matches is trusted.
    public var sample: Int
    /// The most issues walked for one page or count.
    public var budget: Int

    /// For the terminal app, whose rows are in SQLite's cache after the first keystrokes.
    public static let interactive = Limits(sample: 512, budget: 6_144)
    /// For a command run once, whose every row is a read from the file: a walk pays only for
    /// text on one issue in twenty or more; for rarer text, asking the index is quicker.
    public static let oneShot = Limits(sample: 256, budget: 1_024)
  }

  private struct Stop: Error {}

  /// How a walk ended.
  enum Outcome: Equatable {
    /// It had every match it wanted, or walked every issue.
    case complete
    /// It gave up; `share` is the share of walked issues that matched (nil when it could not
    /// walk at all).
    case gaveUp(share: Double?)
  }

  /// Calls `body` with each matching row, in the order of the request, until it has had `wanted`
  /// of them.
  static func walk(
    _ request: IssueRequest, wanted: Int, limits: Limits = .interactive, db: Connection,
    _ body: (Row) throws -> Void
  ) throws -> Outcome {
    let (sample, budget) = (limits.sample, limits.budget)
    if wanted <= 0 { return .complete }
    guard let matcher = TextMatcher(search: request.search, db: db) else {
      return .gaveUp(share: nil)
    }
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
    if !gaveUp, found == wanted || walked < budget { return .complete }
    // A walk that found none says 0: the text may still be on a few issues it did not reach.
    return .gaveUp(share: Double(found) / Double(max(walked, 1)))
  }
}

extension Connection {
  /// The page of a text search by `TextWalk`, or how the walk ended when the index should
  /// answer.
  func walkedPage(
    _ request: IssueRequest, limit: Int, offset: Int, detail: Bool, limits: TextWalk.Limits,
    catalogue: [Int64: (tag: Tag, rank: Int)]
  ) throws -> (page: [Issue]?, outcome: TextWalk.Outcome) {
    var issues: [Issue] = []
    var skipped = 0
    let outcome = try TextWalk.walk(
      request, wanted: limit + offset, limits: limits, db: self
    ) { row in
      if skipped < offset {
        skipped += 1
        return
      }
      var issue = try Self.decodeIssue(row, tags: catalogue)
      if !detail { issue.detail = "" }
      issues.append(issue)
    }
    return (outcome == .complete ? issues : nil, outcome)
  }

  /// How many issues a text search holds, up to `limit`, by `TextWalk`; nil when the index
  /// should count.
  func walkedCount(_ request: IssueRequest, limit: Int, limits: TextWalk.Limits) throws -> Int? {
    var count = 0
    let outcome = try TextWalk.walk(request, wanted: limit, limits: limits, db: self) { _ in
      count += 1
    }
    return outcome == .complete ? count : nil
  }
}
