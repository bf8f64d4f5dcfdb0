import Foundation

/// One issue, with the tags it carries.
public struct Issue: Identifiable, Equatable, Hashable, Sendable {
  public var id: UUID
  public var title: String
  public var detail: String
  public var priority: Priority
  public var completed: Bool
  public var created: Date
  /// Set by the database on every edit; nil until the first one.
  public var modified: Date?
  /// Sorted by name, ignoring case.
  public var tags: [Tag]

  public init(
    id: UUID, title: String = "", detail: String = "", priority: Priority = .low,
    completed: Bool = false, created: Date, modified: Date? = nil, tags: [Tag] = []
  ) {
    self.id = id
    self.title = title
    self.detail = detail
    self.priority = priority
    self.completed = completed
    self.created = created
    self.modified = modified
    self.tags = tags
  }

  /// When the issue last changed: its last edit, else its creation.
  public var lastActivity: Date { modified ?? created }

  /// True when the fields a person edits and the set of tags are the same in both.
  public func hasSameContent(as other: Issue) -> Bool {
    title == other.title && detail == other.detail && priority == other.priority
      && completed == other.completed && Set(tags.map(\.id)) == Set(other.tags.map(\.id))
  }
}
