import Database
import Foundation

/// Which issues to show, in which order: a filter, a search, a sort and the show-completed switch.
public struct IssueRequest: Equatable, Hashable, Sendable {
  public var filter: IssueFilter
  public var search: SearchQuery
  public var sort: IssueSort
  public var showCompleted: Bool
  /// The moment Recent counts back from.
  public var now: Date

  /// How far a list counts its issues on screen; past it, it says "1000+" (counting a hundred
  /// thousand matches on every keystroke would make typing slow).
  public static let shownCountLimit = 1000

  public init(
    filter: IssueFilter = .open, search: SearchQuery = .empty, sort: IssueSort = .default,
    showCompleted: Bool = true, now: Date
  ) {
    self.filter = filter
    self.search = search
    self.sort = sort
    self.showCompleted = showCompleted
    self.now = now
  }

  /// Which completion states the request shows: a status token decides; else the filter's rule.
  public var completionStates: [Int] {
    let statuses = Set(search.statuses)
    if statuses.count == 1 { return statuses.contains(.completed) ? [1] : [0] }
    if !statuses.isEmpty { return [0, 1] }
    switch filter {
    case .open: return [0]
    case .completed: return [1]
    case .all: return [0, 1]
    case .recent, .tag: return showCompleted ? [0, 1] : [0]
    }
  }
}

/// A request turned into SQL against one database: tags resolved to their row numbers.
struct IssueRequestSQL {
  var condition: String
  var arguments: [any DatabaseValueConvertible]
  /// True when the page is read from the few issues the search text matches and sorted,
  /// instead of walking the sort index (see `init`).
  var drivesFromText = false
  /// With `joinsText`, the search text's FTS5 expression, left out of `condition` for the caller
  /// to read its matches from the full-text index and join the issues to them.
  var joinedText: String?

  /// The ORDER BY of `sort`, kept from using its index when the page is driven from the text.
  func orderBy(_ sort: IssueSort) -> String {
    drivesFromText ? "+" + sort.orderBy : sort.orderBy
  }

  /// A tag, or the tags of one name, as the links know them, and how many issues carry them.
  struct ResolvedTags {
    var rows: [Int64]
    var issueCount: Int

    /// One placeholder per row: the row numbers are bound, never spliced into the SQL, so the
    /// statements of every tag filter are the same few texts and their cache stays small.
    var placeholders: String { Array(repeating: "?", count: rows.count).joined(separator: ", ") }
    /// Each row as it is found in `',' || tag_seqs || ','`.
    var patterns: [String] { rows.map { ",\($0)," } }
  }

  /// Builds the WHERE clause over `issues i`.
  ///
  /// The clause is shaped so that SQLite reads a first page in index order without sorting:
  /// completion is always stated (`completed IN (0, 1)` included), so every sort index can be
  /// entered by it; a tag carried by many issues is checked in each sort index entry as it is
  /// read (the tag rows it ends on), a rare one drives the query from its links; Recent seeks by
  /// activity within each priority for the priority sorts and is checked in the index for the
  /// title sorts.
  /// Without `text`, the search's text and excluded text are left out: the caller matches them
  /// itself (`TextWalk`).
  ///
  /// `textShare`, when a walk has already sampled it (`TextWalk`), is the share of issues the
  /// text matches: it decides between walking and driving without asking the full-text index
  /// twice (an answer for a common word is slow on a large database).
  ///
  /// `unordered`: the rows are wanted in any order (a whole list, sorted afterwards), so the
  /// sort indexes are kept out of the plan: a tag or text drives the query from its own rows,
  /// and a list with neither reads the table through (Recent still seeks its week by activity).
  ///
  /// `joinsText`: the caller reads the text's matches from the full-text index and joins each to
  /// its issue (`joinedText`), so the rest of the clause is checked on each match as it comes
  /// and the completion index is kept out.
  init(
    _ request: IssueRequest, db: Connection, forPage: Bool, text: Bool = true,
    textShare: Double? = nil, unordered: Bool = false, joinsText: Bool = false
  ) throws {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible] = []

    // How many issues there are, roughly (row numbers only grow): read only for a tag or text
    // on a page.
    var estimate: Int?
    func estimatedIssues() throws -> Int {
      if let estimate { return estimate }
      let value = try db.fetchOne("SELECT coalesce(max(seq), 0) FROM issues", as: Int.self) ?? 0
      estimate = value
      return value
    }

    // Text that few issues match drives the page: walking the sort index would read most of the
    // table before finding a page of them, while reading and sorting the few matches is quick.
    // Reading and sorting a match costs about thirty times as much as walking an index entry,
    // and a walk finds a page of 100 after 100 × issues ÷ matches entries, so the two meet near
    // √(3 × issues) matches. The matches are counted only up to there, so counting stays cheap.
    var textExpression = text ? FullTextExpression.expression(for: request.search.text) : nil
    if joinsText {
      joinedText = textExpression
      textExpression = nil
    }
    if forPage, let textExpression {
      let issues = try estimatedIssues()
      let flip = Int((Double(issues) * 3).squareRoot()) + 1
      // A walk's sample decides only for text it found, on clearly more than `flip` issues: a
      // sample of 256 issues cannot tell text on none from text on one in three hundred (a
      // word on no issue, taken as half a match in the sample, projects past `flip` at a
      // million issues, and the page would walk every open issue). The count below stops at
      // `flip`, so rare text is counted cheaply.
      if let textShare, textShare > 0, textShare * Double(issues) >= 2 * Double(flip) {
        drivesFromText = false
      } else {
        let matches =
          try db.fetchOne(
            "SELECT count(*) FROM (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ? LIMIT ?)",
            [textExpression, flip], as: Int.self) ?? 0
        drivesFromText = matches < flip
      }
    }

    let states = request.completionStates
    // Recent is read from the activity indexes, entered by completion, in any case.
    let keepsIndexOut = unordered && request.filter != .recent || joinedText != nil
    let completion = drivesFromText || keepsIndexOut ? "+i.completed" : "i.completed"
    conditions.append(
      states.count == 1
        ? "\(completion) = \(states[0])"
        : "\(completion) IN (\(states.map(String.init).joined(separator: ", ")))")
    // Whether the issue carries one of `tags`, from the tag rows kept on it (`tag_seqs`, "3,17"),
    // which every sort index ends on (schema 7): checked in the index entry as it is read, with
    // no look-up in the links.
    func carries(_ tags: ResolvedTags) -> String {
      let checks = tags.rows.map { _ in "instr(',' || i.tag_seqs || ',', ?) > 0" }
      return "(" + checks.joined(separator: " OR ") + ")"
    }
    func include(_ tags: ResolvedTags) throws {
      guard !tags.rows.isEmpty else {
        conditions.append("0")
        return
      }
      // Walking the sort index checks about (page size × issues ÷ tagged) entries, driving reads
      // about `tagged` rows and sorts them. With each entry checked in the index itself (schema
      // 7), a driven row costs a little over twice as much as an entry, so the two meet where
      // tagged² is a little under half of page × issues: with the app's page of 100,
      // √(40 × issues) is near enough.
      if forPage, try tags.issueCount * tags.issueCount >= 40 * estimatedIssues() {
        conditions.append(carries(tags))
        arguments += tags.patterns as [any DatabaseValueConvertible]
      } else {
        conditions.append(
          "i.seq IN (SELECT issue_seq FROM issue_tags WHERE tag_seq IN (\(tags.placeholders)))")
        arguments += tags.rows as [any DatabaseValueConvertible]
      }
    }

    switch request.filter {
    case .open, .completed, .all: break
    case .recent:
      let since = request.now.addingTimeInterval(-IssueFilter.recentWindow)
      switch request.sort.field {
      case .date:
        conditions.append("i.activity >= ?")
      case .priority:
        if request.search.priorities.isEmpty { conditions.append("i.priority IN (0, 1, 2)") }
        conditions.append("i.activity >= ?")
      case .title:
        // A page walks the title index and checks activity there; a whole list reads the week.
        conditions.append(unordered ? "i.activity >= ?" : "+i.activity >= ?")
      }
      arguments.append(since)
    case .tag(let id):
      try include(try db.resolveTags(id: id))
    }

    if let expression = textExpression {
      conditions.append("i.seq IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ?)")
      arguments.append(expression)
    }
    // Each excluded word or phrase takes away the issues that match it (prefix rules as for
    // text); one with no letters or digits takes away nothing.
    for excluded in text ? request.search.excludedText : [] {
      guard let expression = FullTextExpression.expression(for: [excluded]) else { continue }
      conditions.append("i.seq NOT IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ?)")
      arguments.append(expression)
    }
    for name in request.search.tags {
      try include(try db.resolveTags(named: name))
    }
    for name in request.search.excludedTags {
      let tags = try db.resolveTags(named: name)
      if !tags.rows.isEmpty {
        conditions.append("NOT " + carries(tags))
        arguments += tags.patterns as [any DatabaseValueConvertible]
      }
    }
    if !request.search.priorities.isEmpty {
      let values = Set(request.search.priorities).map(\.rawValue).sorted()
      conditions.append("i.priority IN (\(values.map(String.init).joined(separator: ", ")))")
    }
    if !request.search.excludedPriorities.isEmpty {
      let values = Set(request.search.excludedPriorities).map(\.rawValue).sorted()
      conditions.append("i.priority NOT IN (\(values.map(String.init).joined(separator: ", ")))")
    }
    self.condition = conditions.joined(separator: " AND ")
    self.arguments = arguments
  }
}

extension Connection {
  func resolveTags(id: UUID) throws -> IssueRequestSQL.ResolvedTags {
    try resolveTags(sql: "SELECT seq, total_count FROM tags WHERE id = ?", id)
  }

  /// Every tag of this name ignoring case (two can exist for a moment after a sync merges).
  func resolveTags(named name: String) throws -> IssueRequestSQL.ResolvedTags {
    try resolveTags(sql: "SELECT seq, total_count FROM tags WHERE name_key = ?", TagName.key(name))
  }

  private func resolveTags(sql: String, _ argument: any DatabaseValueConvertible) throws
    -> IssueRequestSQL.ResolvedTags
  {
    var resolved = IssueRequestSQL.ResolvedTags(rows: [], issueCount: 0)
    try forEachRow(sql, [argument]) { row in
      resolved.rows.append(try row.get(0))
      resolved.issueCount += try row.get(1, as: Int.self)
    }
    return resolved
  }
}
