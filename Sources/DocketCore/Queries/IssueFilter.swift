import Foundation

/// The smart filters of the sidebar, one per tag, and `all` for the command line.
public enum IssueFilter: Equatable, Hashable, Sendable {
  case open
  case completed
  case recent
  case tag(UUID)
  /// Every issue, completed or not (command line only).
  case all

  /// How far back Recent looks.
  public static let recentWindow: TimeInterval = 7 * 24 * 60 * 60

  /// Whether the show-completed switch changes what this filter shows.
  public var honoursShowCompleted: Bool {
    switch self {
    case .recent, .tag: return true
    case .open, .completed, .all: return false
    }
  }

  /// The stable text form kept in settings: `open`, `completed`, `recent`, `all`, `tag:<uuid>`.
  public var storageValue: String {
    switch self {
    case .open: return "open"
    case .completed: return "completed"
    case .recent: return "recent"
    case .all: return "all"
    case .tag(let id): return "tag:" + id.uuidString.lowercased()
    }
  }

  public init?(storageValue: String) {
    switch storageValue {
    case "open": self = .open
    case "completed": self = .completed
    case "recent": self = .recent
    case "all": self = .all
    default:
      guard storageValue.hasPrefix("tag:"),
        let id = UUID(uuidString: String(storageValue.dropFirst(4)))
      else { return nil }
      self = .tag(id)
    }
  }
}
