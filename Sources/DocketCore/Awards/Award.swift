import Database

/// A milestone, computed live from the data: deleting issues or tags can lock it again.
public struct Award: Identifiable, Equatable, Hashable, Sendable {
  public enum Criterion: String, Sendable, CaseIterable {
    /// How many issues exist.
    case issues
    /// How many issues are completed.
    case closed
    /// How many tags exist.
    case tags
    /// How many conflicts were used or dismissed (on any device).
    case resolved

    public var thresholds: [Int] {
      switch self {
      case .issues, .closed: return [1, 10, 20, 50, 100, 250, 500, 1000]
      case .tags: return [1, 10, 50]
      case .resolved: return [1]
      }
    }

    /// The colour the awards of this criterion are shown in.
    public var color: AwardColor {
      switch self {
      case .issues: return .blue
      case .closed: return .green
      case .tags, .resolved: return .purple
      }
    }
  }

  public var criterion: Criterion
  public var value: Int

  /// `issues-10`, `closed-1`, `tags-50`.
  public var id: String { "\(criterion.rawValue)-\(value)" }

  /// Every award, criterion by criterion, thresholds ascending.
  public static let all: [Award] = Criterion.allCases.flatMap { criterion in
    criterion.thresholds.map { Award(criterion: criterion, value: $0) }
  }

  public func isUnlocked(by counts: AwardCounts) -> Bool {
    counts.count(for: criterion) >= value
  }

  /// Catalog keys of the name and description; both take the threshold as their argument.
  public var nameKey: String { "award.\(criterion.rawValue).name" }
  public var descriptionKey: String { "award.\(criterion.rawValue).description" }
}

public enum AwardColor: String, Sendable, CaseIterable {
  case blue, green, purple
}

/// What the awards are measured against.
public struct AwardCounts: Equatable, Hashable, Sendable {
  public var issues: Int
  public var closed: Int
  public var tags: Int
  public var resolved: Int

  public init(issues: Int = 0, closed: Int = 0, tags: Int = 0, resolved: Int = 0) {
    self.issues = issues
    self.closed = closed
    self.tags = tags
    self.resolved = resolved
  }

  public func count(for criterion: Award.Criterion) -> Int {
    switch criterion {
    case .issues: return issues
    case .closed: return closed
    case .tags: return tags
    case .resolved: return resolved
    }
  }
}

/// An award and whether it is unlocked now.
public struct AwardStatus: Identifiable, Equatable, Hashable, Sendable {
  public var award: Award
  public var unlocked: Bool
  public var id: String { award.id }

  public static func all(for counts: AwardCounts) -> [AwardStatus] {
    Award.all.map { AwardStatus(award: $0, unlocked: $0.isUnlocked(by: counts)) }
  }
}

extension Connection {
  public func awardCounts() throws -> AwardCounts {
    try fetchOne(
      """
      SELECT (SELECT count(*) FROM issues), (SELECT count(*) FROM issues WHERE completed = 1),
             (SELECT count(*) FROM tags),
             (SELECT count(*) FROM changes WHERE field = 'dismiss' AND entity = 'issue')
      """
    ) { row in
      AwardCounts(
        issues: try row.get(0), closed: try row.get(1), tags: try row.get(2),
        resolved: try row.get(3))
    }
      ?? AwardCounts()
  }
}
