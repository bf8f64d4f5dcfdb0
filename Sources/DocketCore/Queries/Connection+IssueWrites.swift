import Database
import Foundation

/// Why an issue could not be written.
public enum IssueError: Error, Equatable, Sendable {
  /// The title is empty or only white space.
  case emptyTitle
  /// Longer than `Limits.titleCharacters`, or (as another device sent it) more than one line.
  case titleTooLong(limit: Int)
  case titleNotOneLine
  case detailTooLong(limit: Int)
}

/// Writing issues. Each call is one transaction (a savepoint inside a caller's transaction).
extension Connection {
  /// Stores `issue`: inserts it if new; else writes the fields and tag links that differ from the
  /// stored ones. Returns false, writing nothing, when nothing differs. The database stamps
  /// `modified`; a change of tags alone counts as an edit too. The title is kept on one line;
  /// a title or detail written that is longer than `Limits` allows is an error (one stored by an
  /// older version stays as it is while other fields are edited).
  @discardableResult
  public func saveIssue(_ issue: Issue) throws -> Bool {
    var issue = issue
    issue.title = Limits.oneLine(issue.title)
    return try transaction {
      guard let stored = try fetchIssue(id: issue.id) else {
        try insertIssue(issue)
        return true
      }
      if stored.hasSameContent(as: issue) { return false }
      try Self.check(
        title: stored.title == issue.title ? "" : issue.title,
        detail: stored.detail == issue.detail ? "" : issue.detail)
      var assignments: [String] = []
      var arguments: [any DatabaseValueConvertible] = []
      if stored.title != issue.title {
        assignments.append("title = ?")
        arguments.append(issue.title)
      }
      if stored.detail != issue.detail {
        assignments.append("detail = ?")
        arguments.append(issue.detail)
      }
      if stored.priority != issue.priority {
        assignments.append("priority = ?")
        arguments.append(issue.priority.rawValue)
      }
      if stored.completed != issue.completed {
        assignments.append("completed = ?")
        arguments.append(issue.completed)
      }
      if assignments.isEmpty {
        try execute("UPDATE issues SET modified = docket_now() WHERE id = ?", [issue.id])
      } else {
        let sql = "UPDATE issues SET \(assignments.joined(separator: ", ")) WHERE id = ?"
        try execute(sql, arguments + [issue.id])
      }
      try retag(issueID: issue.id, from: Set(stored.tags.map(\.id)), to: Set(issue.tags.map(\.id)))
      return true
    }
  }

  /// Inserts a new issue with its links, keeping the dates it carries; the title on one line.
  public func insertIssue(_ issue: Issue) throws {
    var issue = issue
    issue.title = Limits.oneLine(issue.title)
    try Self.check(title: issue.title, detail: issue.detail)
    try transaction {
      try execute(
        """
        INSERT INTO issues (id, title, detail, priority, completed, created, modified)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          issue.id, issue.title, issue.detail, issue.priority.rawValue, issue.completed,
          issue.created, issue.modified,
        ])
      try link(issueID: issue.id, tagIDs: Set(issue.tags.map(\.id)))
    }
  }

  /// Creates an issue tagged with `tagNames`, making the tags that do not exist yet (names match
  /// ignoring case; a name given twice counts once), in one transaction: how every face adds an
  /// issue. The title must not be empty once trimmed.
  public func createIssue(
    id: UUID, title: String, detail: String = "", priority: Priority = .low,
    completed: Bool = false, tagNames: [String] = [], now: Date, makeTagID: () -> UUID = { UUID() }
  ) throws -> Issue {
    let trimmed = Limits.oneLine(title).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw IssueError.emptyTitle }
    try Self.check(title: trimmed, detail: detail)
    return try transaction {
      var tags: [Tag] = []
      for name in tagNames
      where !tags.contains(where: { TagName.key($0.name) == TagName.key(name) }) {
        tags.append(try createTag(named: name, id: makeTagID()).tag)
      }
      let issue = Issue(
        id: id, title: trimmed, detail: detail, priority: priority, completed: completed,
        created: now, tags: NaturalOrder.sorted(tags, by: \.name))
      try insertIssue(issue)
      return issue
    }
  }

  /// Fails with the limit a title (on one line already) or a detail goes past.
  static func check(title: String, detail: String) throws(IssueError) {
    if let problem = Limits.problem(title: title, detail: detail) { throw problem }
  }

  /// Moves the issue's links from the tags `had` to the tags `has`: the ones only in `had` go,
  /// the ones only in `has` are made (each tag must exist).
  public func retag(issueID: UUID, from had: Set<UUID>, to has: Set<UUID>) throws {
    for removed in had.subtracting(has) {
      try execute(
        """
        DELETE FROM issue_tags WHERE issue_seq = (SELECT seq FROM issues WHERE id = ?)
          AND tag_seq = (SELECT seq FROM tags WHERE id = ?)
        """, [issueID, removed])
    }
    try link(issueID: issueID, tagIDs: has.subtracting(had))
  }

  /// Links an issue to tags; a tag that does not exist is an error and nothing is linked.
  func link(issueID: UUID, tagIDs: Set<UUID>) throws {
    guard !tagIDs.isEmpty,
      let issueRow = try fetchOne("SELECT seq FROM issues WHERE id = ?", [issueID], as: Int64.self)
    else { return }
    for tagID in tagIDs.sorted(by: { $0.uuidString < $1.uuidString }) {
      guard let tagRow = try fetchOne("SELECT seq FROM tags WHERE id = ?", [tagID], as: Int64.self)
      else { throw TagError.notFound }
      try execute(
        "INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [issueRow, tagRow])
    }
  }

  /// Marks issues completed or open. Returns how many changed (issues already so are left alone).
  /// Part of the write around it, not a savepoint of its own: under a savepoint each statement
  /// walks every page written so far, and closing thousands at once took seconds.
  @discardableResult
  public func setCompleted(_ completed: Bool, issueIDs: [UUID]) throws -> Int {
    try withinTransaction {
      var changed = 0
      for id in issueIDs {
        try execute(
          "UPDATE issues SET completed = ? WHERE id = ? AND completed != ?",
          [completed, id, completed])
        changed += changedRowCount
      }
      return changed
    }
  }

  /// Deletes issues and their links. Returns how many existed.
  @discardableResult
  public func deleteIssues(_ ids: [UUID]) throws -> Int {
    try withinTransaction {
      var deleted = 0
      for id in ids {
        try execute("DELETE FROM issues WHERE id = ?", [id])
        deleted += changedRowCount
      }
      return deleted
    }
  }
}
