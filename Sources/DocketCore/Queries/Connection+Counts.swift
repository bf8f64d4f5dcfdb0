import Database
import Foundation

/// The badge counts of the smart filters.
public struct FilterCounts: Equatable, Hashable, Sendable {
  public var open: Int
  public var completed: Int
  /// Recent issues that are open, and that are completed; the badge shows what is visible.
  public var recentOpen: Int
  public var recentCompleted: Int

  public init(open: Int = 0, completed: Int = 0, recentOpen: Int = 0, recentCompleted: Int = 0) {
    self.open = open
    self.completed = completed
    self.recentOpen = recentOpen
    self.recentCompleted = recentCompleted
  }

  public func recent(showCompleted: Bool) -> Int {
    showCompleted ? recentOpen + recentCompleted : recentOpen
  }
}

extension Connection {
  /// The badge counts of Open, Completed and Recent, each an index range count.
  public func filterCounts(now: Date) throws -> FilterCounts {
    let since = now.addingTimeInterval(-IssueFilter.recentWindow)
    return try fetchOne(
      """
      SELECT open_count, completed_count,
        (SELECT count(*) FROM issues WHERE completed = 0 AND activity >= ?),
        (SELECT count(*) FROM issues WHERE completed = 1 AND activity >= ?)
      FROM issue_counts WHERE id = 1
      """, [since, since]
    ) { row in
      FilterCounts(
        open: try row.get(0), completed: try row.get(1), recentOpen: try row.get(2),
        recentCompleted: try row.get(3))
    } ?? FilterCounts()
  }

  /// Every tag with its open and total counts (kept on the tag rows by triggers), in no particular
  /// order (see `TagSort`).
  public func tagSummaries() throws -> [TagSummary] {
    try fetchAll(
      """
      SELECT id, name, total_count, open_count FROM tags
      """
    ) { row in
      TagSummary(
        tag: Tag(id: try row.get(0), name: try row.get(1)), open: try row.get(3),
        total: try row.get(2))
    }
  }

  /// Every tag, sorted by name ignoring case.
  public func fetchTags() throws -> [Tag] {
    try fetchAll("SELECT id, name FROM tags ORDER BY name_key, id") { row in
      Tag(id: try row.get(0), name: try row.get(1))
    }
  }

  /// The tag whose name equals `name` ignoring case, if there is one.
  public func fetchTag(named name: String) throws -> Tag? {
    try fetchOne(
      "SELECT id, name FROM tags WHERE name_key = ? ORDER BY seq LIMIT 1", [TagName.key(name)]
    ) { row in
      Tag(id: try row.get(0), name: try row.get(1))
    }
  }

  public func fetchTag(id: UUID) throws -> Tag? {
    try fetchOne("SELECT id, name FROM tags WHERE id = ?", [id]) { row in
      Tag(id: try row.get(0), name: try row.get(1))
    }
  }
}
