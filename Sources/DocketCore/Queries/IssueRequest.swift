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

  /// The WHERE clause (over `issues i`) and its arguments.
  func whereClause() -> (sql: String, arguments: [any DatabaseValueConvertible]) {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible] = []

    switch filter {
    case .open, .completed, .all: break
    case .recent:
      conditions.append("i.activity >= ?")
      arguments.append(now.addingTimeInterval(-IssueFilter.recentWindow))
    case .tag(let id):
      conditions.append("i.id IN (SELECT issue_id FROM issue_tags WHERE tag_id = ?)")
      arguments.append(id)
    }

    // Completion: a status token decides; else the filter's rule.
    let statuses = Set(search.statuses)
    if statuses.count == 1 {
      conditions.append(statuses.contains(.completed) ? "i.completed = 1" : "i.completed = 0")
    } else if statuses.isEmpty {
      switch filter {
      case .open: conditions.append("i.completed = 0")
      case .completed: conditions.append("i.completed = 1")
      case .all: break
      case .recent, .tag: if !showCompleted { conditions.append("i.completed = 0") }
      }
    }

    if let expression = FullTextExpression.expression(for: search.text) {
      conditions.append("i.seq IN (SELECT rowid FROM issue_fts WHERE issue_fts MATCH ?)")
      arguments.append(expression)
    }
    for name in search.tags {
      conditions.append(
        "i.id IN (SELECT l.issue_id FROM issue_tags l JOIN tags t ON t.id = l.tag_id WHERE t.name_key = ?)"
      )
      arguments.append(TagName.key(name))
    }
    for name in search.excludedTags {
      conditions.append(
        "i.id NOT IN (SELECT l.issue_id FROM issue_tags l JOIN tags t ON t.id = l.tag_id WHERE t.name_key = ?)"
      )
      arguments.append(TagName.key(name))
    }
    if !search.priorities.isEmpty {
      let values = Set(search.priorities).map(\.rawValue).sorted()
      conditions.append("i.priority IN (\(values.map { _ in "?" }.joined(separator: ", ")))")
      arguments += values
    }
    if !search.excludedPriorities.isEmpty {
      let values = Set(search.excludedPriorities).map(\.rawValue).sorted()
      conditions.append("i.priority NOT IN (\(values.map { _ in "?" }.joined(separator: ", ")))")
      arguments += values
    }
    let sql = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
    return (sql, arguments)
  }
}
