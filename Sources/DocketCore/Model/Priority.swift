/// How urgent an issue is. Stored as its raw value.
public enum Priority: Int, Sendable, CaseIterable, Comparable, Hashable {
  case low = 0
  case medium = 1
  case high = 2

  /// The stable English name used in search tokens, JSON and settings.
  public var name: String {
    switch self {
    case .low: return "low"
    case .medium: return "medium"
    case .high: return "high"
    }
  }

  /// Reads `low`, `medium`, `high` and their first letters, ignoring case.
  public init?(name: String) {
    switch name.lowercased() {
    case "low", "l": self = .low
    case "medium", "m", "med": self = .medium
    case "high", "h": self = .high
    default: return nil
    }
  }

  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}
