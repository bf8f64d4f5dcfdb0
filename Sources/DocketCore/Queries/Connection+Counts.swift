import Database
import Foundation

/// The badge counts of the smart filters.
public struct FilterCounts: Equatable, Hashable, Sendable {
  public var open: Int
  public var completed: Int
  /// Recent issues that are open, and that are completed; the badge shows what is visible.
  public var recentOpen: Int
  public var recentCompleted: Int
  /// Values that lost a merge, not yet used or dismissed: the Conflicts entry shows while any.
  public var conflicts: Int

  public init(
    open: Int = 0, completed: Int = 0, recentOpen: Int = 0, recentCompleted: Int = 0,
    conflicts: Int = 0
  ) {
    self.open = open
    self.completed = completed
    self.recentOpen = recentOpen
    self.recentCompleted = recentCompleted
    self.conflicts = conflicts
  }

  public func recent(showCompleted: Bool) -> Int {
    showCompleted ? recentOpen + recentCompleted : recentOpen
  }
}

extension Connection {
  /// The badge counts of Open, Completed and Recent: Open and Completed one row each; Recent the
  /// whole days after the one its week begins in (`activity_days`), and the rest of that day
  /// counted on the activity index.
  public func filterCounts(now: Date) throws -> FilterCounts {
    let since = now.addingTimeInterval(-IssueFilter.recentWindow)
    // The day the week begins in, as the triggers number days, and the moment the next begins.
    let seconds = since.timeIntervalSince1970
    guard seconds >= 86_400, seconds < 1e15 else { return try filterCountsOnTheIndex(since: since) }
    let firstDay = Int64(seconds.rounded(.down)) / 86_400
    let nextDay = Double((firstDay + 1) * 86_400)
    return try filterCounts(
      recent: { completed in
        """
        (SELECT coalesce(sum(issue_count), 0) FROM activity_days
          WHERE completed = \(completed) AND day > ?1)
        + (SELECT count(*) FROM issues
          WHERE completed = \(completed) AND activity >= ?2 AND activity < ?3)
        """
      }, [firstDay, since, nextDay])
  }

  /// The badge counts with Recent counted on the activity index alone (a clock before 1970's
  /// second day, or past any date a day number holds).
  func filterCountsOnTheIndex(since: Date) throws -> FilterCounts {
    try filterCounts(
      recent: { "(SELECT count(*) FROM issues WHERE completed = \($0) AND activity >= ?1)" },
      [since])
  }

  /// Open and Completed from their row, Recent's open and completed by `recent(0)` and
  /// `recent(1)`.
  private func filterCounts(
    recent: (Int) -> String, _ arguments: [any DatabaseValueConvertible]
  ) throws -> FilterCounts {
    try fetchOne(
      """
      SELECT open_count, completed_count, \(recent(0)), \(recent(1)), (\(Self.conflictCountSQL))
      FROM issue_counts WHERE id = 1
      """, arguments
    ) { row in
      FilterCounts(
        open: try row.get(0), completed: try row.get(1), recentOpen: try row.get(2),
        recentCompleted: try row.get(3), conflicts: try row.get(4))
    } ?? FilterCounts()
  }

  /// The fields a conflict can be of.
  public static let conflictFields = ["title", "detail", "priority", "completed", "created"]

  /// The condition on `changes c` (its device `d`, its issue `i`) of an open conflict: a value
  /// that lost a merge (`lost`), of a field of an issue that lives, other than the value the
  /// issue has, that no later edit of the field started from (one did: it was seen, and
  /// replaced, which is no conflict), and not dismissed (a `dismiss` change of the issue naming
  /// it by stamp, device and field). Which changes are marked lost depends on the order they
  /// came in; the rest of the condition depends only on the changes, so every device that holds
  /// the same changes lists the same conflicts.
  public static let openConflictSQL = """
    c.lost = 1 AND c.held = 0 AND c.entity = 'issue'
      AND c.field IN (\(conflictFields.map { "'\($0)'" }.joined(separator: ", ")))
      AND (CASE c.field WHEN 'title' THEN i.title WHEN 'detail' THEN i.detail
        WHEN 'priority' THEN i.priority WHEN 'completed' THEN i.completed
        ELSE i.created END) IS NOT c.new_value
      AND NOT EXISTS (
        SELECT 1 FROM changes seen WHERE seen.row_id = c.row_id AND seen.field = c.field
          AND seen.held = 0 AND seen.hlc > c.hlc AND seen.old_value IS c.new_value)
      AND NOT EXISTS (
        SELECT 1 FROM changes x WHERE x.row_id = c.row_id AND x.field = 'dismiss'
          AND x.held = 0 AND x.new_value = c.hlc || ' ' || d.id || ' ' || c.field)
    """

  /// How many conflicts are open, read from the index of lost values alone.
  public static let conflictCountSQL = """
    SELECT count(*) FROM changes c INDEXED BY changes_lost
      JOIN issues i ON i.id = c.row_id JOIN sync_devices d ON d.seq = c.device
    WHERE \(openConflictSQL)
    """

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

  /// Every tag, in name order (`NaturalOrder`).
  public func fetchTags() throws -> [Tag] {
    NaturalOrder.sorted(
      try fetchAll("SELECT id, name FROM tags ORDER BY id") { row in
        Tag(id: try row.get(0), name: try row.get(1))
      }, by: \.name)
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
