import Database
import Foundation

/// A field of an issue that a person edits.
public enum IssueField: String, CaseIterable, Sendable, Hashable {
  case title, detail, priority, completed

  /// The catalog key of the field's name ("Title", "Titel").
  public var nameKey: String { "field.\(rawValue)" }
}

/// What one edit changed: the fields it set and the tags it added and removed, and nothing else.
///
/// Saving an edit writes only these, so a field or tag that changed elsewhere meanwhile (another
/// shell, a sync) and that this edit left alone keeps its newer value.
public struct IssueEdit: Equatable, Sendable {
  public var id: UUID
  public var title: String?
  public var detail: String?
  public var priority: Priority?
  public var completed: Bool?
  public var addedTags: Set<UUID> = []
  /// The names of added tags, to find the tag of that name when the id is not stored (a tag
  /// created in the form while another of the same name was created elsewhere).
  public var addedTagNames: [UUID: String] = [:]
  public var removedTags: Set<UUID> = []
  /// The values this edit started from, to tell a field changed in both places from one changed
  /// only here. Nil for an edit that reads and writes in one go (command-line flags).
  public var base: Issue?

  public init(id: UUID) {
    self.id = id
  }

  /// The edit that turns `base` into `edited`.
  public init(from base: Issue, to edited: Issue) {
    id = base.id
    self.base = base
    if edited.title != base.title { title = edited.title }
    if edited.detail != base.detail { detail = edited.detail }
    if edited.priority != base.priority { priority = edited.priority }
    if edited.completed != base.completed { completed = edited.completed }
    let before = Set(base.tags.map(\.id))
    let after = Set(edited.tags.map(\.id))
    addedTags = after.subtracting(before)
    for tag in edited.tags where addedTags.contains(tag.id) { addedTagNames[tag.id] = tag.name }
    removedTags = before.subtracting(after)
  }

  /// True when it changes nothing.
  public var isEmpty: Bool {
    title == nil && detail == nil && priority == nil && completed == nil && addedTags.isEmpty
      && removedTags.isEmpty
  }

  /// `issue` with this edit applied: what the database will hold once it is saved. Added tags
  /// are looked up in `tags`.
  public func applied(to issue: Issue, tags: [Tag]) -> Issue {
    var result = issue
    if let title { result.title = title }
    if let detail { result.detail = detail }
    if let priority { result.priority = priority }
    if let completed { result.completed = completed }
    result.tags.removeAll { removedTags.contains($0.id) }
    let present = Set(result.tags.map(\.id))
    result.tags += tags.filter { addedTags.contains($0.id) && !present.contains($0.id) }
    result.tags = NaturalOrder.sorted(result.tags, by: \.name)
    return result
  }
}

/// What saving an edit did.
public struct EditOutcome: Equatable, Sendable {
  /// The issue as stored after the save; nil when it no longer exists.
  public var issue: Issue?
  /// False when nothing needed writing.
  public var changed: Bool
  /// Fields that changed elsewhere since the edit began and that this edit overwrote.
  public var overwritten: [IssueField]

  public init(issue: Issue?, changed: Bool, overwritten: [IssueField]) {
    self.issue = issue
    self.changed = changed
    self.overwritten = overwritten
  }
}

/// Writing an edit field by field.
extension Connection {
  /// Saves `edit` in one transaction: reads the issue as stored now, writes only the fields and
  /// tag links the edit changed and that differ from the stored ones (a title on one line, both
  /// texts within `Limits`), and names the fields that
  /// changed elsewhere since the edit began (they take this edit's value). An issue deleted
  /// meanwhile stays deleted; the outcome then has no issue. A tag deleted meanwhile is not
  /// linked again.
  public func saveEdit(_ edit: IssueEdit) throws -> EditOutcome {
    var edit = edit
    edit.title = edit.title.map(Limits.oneLine)
    try Self.check(title: edit.title ?? "", detail: edit.detail ?? "")
    return try transaction {
      guard let stored = try fetchIssue(id: edit.id) else {
        return EditOutcome(issue: nil, changed: false, overwritten: [])
      }
      var overwritten: [IssueField] = []
      var assignments: [String] = []
      var arguments: [any DatabaseValueConvertible] = []
      func set<Value: Equatable & DatabaseValueConvertible>(
        _ field: IssueField, _ column: String, _ new: Value?, stored: Value, base: Value?
      ) {
        guard let new, new != stored else { return }
        if let base, base != stored { overwritten.append(field) }
        assignments.append("\(column) = ?")
        arguments.append(new)
      }
      set(.title, "title", edit.title, stored: stored.title, base: edit.base?.title)
      set(.detail, "detail", edit.detail, stored: stored.detail, base: edit.base?.detail)
      set(
        .priority, "priority", edit.priority?.rawValue, stored: stored.priority.rawValue,
        base: edit.base?.priority.rawValue)
      set(
        .completed, "completed", edit.completed, stored: stored.completed,
        base: edit.base?.completed)

      let storedTags = Set(stored.tags.map(\.id))
      let removing = edit.removedTags.intersection(storedTags)
      var adding: Set<UUID> = []
      for id in edit.addedTags.subtracting(storedTags) {
        if try tagRow(id: id) != nil {
          adding.insert(id)
        } else if let name = edit.addedTagNames[id], let tag = try fetchTag(named: name),
          !storedTags.contains(tag.id)
        {
          // Created here under a name that another device or shell created too: that tag.
          adding.insert(tag.id)
        }
        // Otherwise the tag was deleted meanwhile, and is not brought back.
      }
      if assignments.isEmpty && removing.isEmpty && adding.isEmpty {
        return EditOutcome(issue: stored, changed: false, overwritten: [])
      }
      if assignments.isEmpty {
        // A change of tags alone counts as an edit: it stamps `modified` too.
        try execute("UPDATE issues SET modified = docket_now() WHERE id = ?", [edit.id])
      } else {
        let sql = "UPDATE issues SET \(assignments.joined(separator: ", ")) WHERE id = ?"
        try execute(sql, arguments + [edit.id])
      }
      if !removing.isEmpty, let issueRow = try issueRow(id: edit.id) {
        for tagID in removing.sorted(by: { $0.uuidString < $1.uuidString }) {
          guard let tagRow = try tagRow(id: tagID) else { continue }
          try execute(
            "DELETE FROM issue_tags WHERE issue_seq = ? AND tag_seq = ?", [issueRow, tagRow])
        }
      }
      try link(issueID: edit.id, tagIDs: adding)
      return EditOutcome(
        issue: try fetchIssue(id: edit.id), changed: true, overwritten: overwritten)
    }
  }

  func issueRow(id: UUID) throws -> Int64? {
    try fetchOne("SELECT seq FROM issues WHERE id = ?", [id], as: Int64.self)
  }

  func tagRow(id: UUID) throws -> Int64? {
    try fetchOne("SELECT seq FROM tags WHERE id = ?", [id], as: Int64.self)
  }
}
