/// A field a list can be sorted by, with the direction it starts in when chosen.
public protocol SortField: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
  var defaultAscending: Bool { get }
}

/// A sort order: a field and a direction. Choosing the field in use flips the direction; choosing
/// another field starts in that field's own direction. Kept in settings as `field:asc|desc`.
public struct SortChoice<Key: SortField>: Equatable, Hashable, Sendable {
  public typealias Field = Key

  public var field: Field
  public var ascending: Bool

  public init(field: Field, ascending: Bool) {
    self.field = field
    self.ascending = ascending
  }

  public init(field: Field) {
    self.init(field: field, ascending: field.defaultAscending)
  }

  public func choosing(_ newField: Field) -> SortChoice {
    newField == field
      ? SortChoice(field: field, ascending: !ascending) : SortChoice(field: newField)
  }

  /// `priority:desc`, as kept in settings.
  public var storageValue: String { "\(field.rawValue):\(ascending ? "asc" : "desc")" }

  public init?(storageValue: String) {
    let parts = storageValue.split(separator: ":")
    guard parts.count == 2, let field = Field(rawValue: String(parts[0])),
      parts[1] == "asc" || parts[1] == "desc"
    else { return nil }
    self.init(field: field, ascending: parts[1] == "asc")
  }
}

/// How the issue list is ordered. Completed issues always come after open ones; ties break on
/// last activity, oldest first, then id.
public typealias IssueSort = SortChoice<IssueSortField>

public enum IssueSortField: String, SortField {
  case priority
  case date
  case title

  /// Highest priority first, newest first, A–Z.
  public var defaultAscending: Bool { self == .title }
}

extension SortChoice where Key == IssueSortField {
  public static var `default`: IssueSort { IssueSort(field: .priority) }

  /// The ORDER BY clause; each variant has an index that reads it in order.
  var orderBy: String {
    switch (field, ascending) {
    case (.priority, false): return "i.completed, i.priority DESC, i.activity, i.id"
    case (.priority, true): return "i.completed, i.priority, i.activity, i.id"
    case (.date, false): return "i.completed, i.activity DESC, i.id"
    case (.date, true): return "i.completed, i.activity, i.id"
    case (.title, true): return "i.completed, i.title_key, i.activity, i.id"
    case (.title, false): return "i.completed, i.title_key DESC, i.activity, i.id"
    }
  }
}

/// How the tags of the sidebar are ordered.
public typealias TagSort = SortChoice<TagSortField>

public enum TagSortField: String, SortField {
  case name
  case count

  /// Names start A–Z, counts start with the most used.
  public var defaultAscending: Bool { self == .name }
}

extension SortChoice where Key == TagSortField {
  public static var `default`: TagSort { TagSort(field: .name) }

  /// Orders summaries: by name, or by the visible count with the name breaking ties (A–Z).
  public func sorted(_ summaries: [TagSummary], showCompleted: Bool) -> [TagSummary] {
    // In name order first (`NaturalOrder`), each name folded once; then by this sort.
    let byName = NaturalOrder.sorted(summaries) { $0.tag.name }
    let rank = Dictionary(
      byName.enumerated().map { ($0.element.tag.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
    return byName.sorted { left, right in
      let leftRank = rank[left.tag.id] ?? 0
      let rightRank = rank[right.tag.id] ?? 0
      switch field {
      case .name:
        if leftRank != rightRank { return ascending ? leftRank < rightRank : leftRank > rightRank }
      case .count:
        let leftCount = left.visibleCount(showCompleted: showCompleted)
        let rightCount = right.visibleCount(showCompleted: showCompleted)
        if leftCount != rightCount {
          return ascending ? leftCount < rightCount : leftCount > rightCount
        }
        if leftRank != rightRank { return leftRank < rightRank }
      }
      return left.tag.id.uuidString < right.tag.id.uuidString
    }
  }
}
