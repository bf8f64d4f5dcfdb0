import Database
import Foundation

/// A small, varied set of issues and tags for a first look at Docket.
public enum SampleData {
  public enum Failure: Error, Equatable, Sendable {
    /// Sample data goes only into a database without issues or tags.
    case databaseNotEmpty(issues: Int, tags: Int)
  }

  struct Item {
    var title: String
    var detail: String
    var priority: Priority
    var completed: Bool
    var daysAgo: Double
    var editedDaysAgo: Double?
    var tags: [String]
  }

  static let tagNames = [
    "Bug", "Feature", "UI Design", "Documentation", "Performance", "Übersetzung",
  ]

  static let items: [Item] = [
    Item(
      title: "Fix login layout on narrow screens",
      detail: "The password field overlaps the button below 60 columns.", priority: .high,
      completed: false, daysAgo: 2, editedDaysAgo: 1, tags: ["Bug", "UI Design"]),
    Item(
      title: "Add keyboard shortcut for new issue",
      detail: "Press n anywhere to start a new issue.",
      priority: .medium, completed: true, daysAgo: 12, editedDaysAgo: 5, tags: ["Feature"]),
    Item(
      title: "Write the sync guide",
      detail: "Explain folder and PostgreSQL remotes, with a Syncthing example.", priority: .medium,
      completed: false, daysAgo: 20, editedDaysAgo: nil, tags: ["Documentation"]),
    Item(
      title: "Speed up search on large databases",
      detail: "Search should stay under 10 ms with 100 000 issues.", priority: .high,
      completed: false,
      daysAgo: 30, editedDaysAgo: 3, tags: ["Performance"]),
    Item(
      title: "Übersetzung der Fehlermeldungen prüfen",
      detail: "Alle Meldungen auf Deutsch gegenlesen, auch die Pluralformen.", priority: .low,
      completed: false, daysAgo: 6, editedDaysAgo: nil, tags: ["Übersetzung", "Documentation"]),
    Item(
      title: "Crash when a tag name is only spaces",
      detail: "Blank names should be ignored, not stored.", priority: .high, completed: true,
      daysAgo: 45, editedDaysAgo: 40, tags: ["Bug"]),
    Item(
      title: "Dark theme colours for the awards screen", detail: "", priority: .low,
      completed: false,
      daysAgo: 9, editedDaysAgo: nil, tags: ["UI Design"]),
    Item(
      title: "Export to CSV", detail: "One row per issue; tags joined by commas.",
      priority: .medium,
      completed: false, daysAgo: 60, editedDaysAgo: 15, tags: ["Feature"]),
    Item(
      title: "Release notes for 1.0", detail: "", priority: .low, completed: true, daysAgo: 90,
      editedDaysAgo: 80, tags: []),
    Item(
      title: "Profile start-up time", detail: "Opening the app should not read every issue.",
      priority: .medium, completed: false, daysAgo: 1, editedDaysAgo: nil,
      tags: ["Performance", "Feature"]),
    Item(
      title: "Screen-reader labels for the filter pane",
      detail: "Counts should be read with their names.",
      priority: .high, completed: false, daysAgo: 15, editedDaysAgo: 4,
      tags: ["UI Design", "Feature"]),
    Item(
      title: "Résumé des tickets fermés", detail: "Accents in titles must sort and search well.",
      priority: .low, completed: true, daysAgo: 3, editedDaysAgo: 2, tags: []),
  ]

  /// Fills an empty database; refuses one that has issues or tags. Returns how many issues it made.
  @discardableResult
  public static func insert(
    into db: Connection, now: Date, makeID: () -> UUID
  ) throws -> Int {
    try db.transaction {
      let counts = try db.awardCounts()
      guard counts.issues == 0, counts.tags == 0 else {
        throw Failure.databaseNotEmpty(issues: counts.issues, tags: counts.tags)
      }
      var tags: [String: Tag] = [:]
      for name in tagNames {
        tags[name] = try db.createTag(named: name, id: makeID()).tag
      }
      let day: TimeInterval = 24 * 60 * 60
      for item in items {
        try db.insertIssue(
          Issue(
            id: makeID(), title: item.title, detail: item.detail, priority: item.priority,
            completed: item.completed, created: now.addingTimeInterval(-item.daysAgo * day),
            modified: item.editedDaysAgo.map { now.addingTimeInterval(-$0 * day) },
            tags: item.tags.compactMap { tags[$0] }))
      }
      return items.count
    }
  }
}
