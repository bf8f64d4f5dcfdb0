import Foundation

extension IssueFilter {
  /// Whether `issue` belongs in this filter's list, by the filter's own rules (not a search).
  public func admits(_ issue: Issue, showCompleted: Bool, now: Date) -> Bool {
    switch self {
    case .open: return !issue.completed
    case .completed: return issue.completed
    case .all: return true
    case .recent:
      return (showCompleted || !issue.completed)
        && issue.lastActivity >= now.addingTimeInterval(-Self.recentWindow)
    case .tag(let id):
      return (showCompleted || !issue.completed) && issue.tags.contains { $0.id == id }
    }
  }
}
