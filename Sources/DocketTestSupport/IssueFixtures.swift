import Database
import DocketCore
import Foundation

/// A test's database with its ids and its time: the suites' fixtures conform, and make their tags
/// and issues through the one way written here.
public protocol IssueFixtures {
  var queue: DatabaseQueue { get }
  /// Now, as the test's clock says.
  var now: Date { get }
  /// The id of the next tag or issue a test makes without naming one.
  func nextID() -> UUID
  /// How long before `now` an issue is made when a test does not say (a day, where a suite's
  /// lists tell apart what was made today).
  static var defaultAge: TimeInterval { get }
}

extension IssueFixtures {
  public static var defaultAge: TimeInterval { 0 }
  public static var day: TimeInterval { 24 * 60 * 60 }

  @discardableResult
  public func tag(_ name: String, id: UUID? = nil) throws -> Tag {
    try queue.write { try $0.createTag(named: name, id: id ?? nextID()).tag }
  }

  @discardableResult
  public func issue(
    _ title: String, id: UUID? = nil, detail: String = "", priority: Priority = .low,
    completed: Bool = false, daysAgo: Double? = nil, tags: [Tag] = []
  ) throws -> Issue {
    let age = daysAgo.map { $0 * Self.day } ?? Self.defaultAge
    let issue = Issue(
      id: id ?? nextID(), title: title, detail: detail, priority: priority, completed: completed,
      created: now.addingTimeInterval(-age), tags: tags)
    try queue.write { try $0.insertIssue(issue) }
    return issue
  }

  /// The issue as the database has it now.
  public func stored(_ id: UUID) throws -> Issue? { try queue.read { try $0.fetchIssue(id: id) } }
}
