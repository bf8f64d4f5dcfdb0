import DocketCore
import Foundation
import Testing

/// The seed's own sample data (`shared/seed/sample-data.md`) and what the seed's tests expect of
/// it, through the command line.
@Suite struct SeedSampleTests {
  let box: Sandbox
  static let day: TimeInterval = 86_400

  /// A–G of the seed, created and modified the given days before now.
  init() throws {
    box = try Sandbox()
    _ = try box.docket(["list"])  // creates the database
    let db = try DocketDatabase.connection(path: box.database)
    let now = Date()
    var tags: [String: UUID] = [:]
    for name in [
      "SwiftUI", "Networking", "Core Data", "UI Design", "Bug", "Accessibility & VoiceOver",
    ] {
      let id = UUID()
      _ = try db.createTag(named: name, id: id)
      tags[name] = id
    }
    let issues: [(String, String, Priority, Bool, [String], Double, Double?)] = [
      (
        "Fix login screen layout",
        "The login button overlaps with the text field on smaller devices", .high, false,
        ["SwiftUI", "Bug"], 2, nil
      ),
      (
        "Add dark mode support", "Implement dark mode across all screens using asset catalogs",
        .medium, false, ["SwiftUI", "UI Design"], 14, 3
      ),
      (
        "Refactor networking layer", "Replace URLSession calls with async/await", .medium, true,
        ["Networking"], 30, 20
      ),
      (
        "Update onboarding flow", "Add new welcome screens with animations", .low, false,
        ["SwiftUI", "UI Design"], 10, nil
      ),
      (
        "Fix crash on iPad rotation",
        "App crashes when rotating from portrait to landscape on iPad Pro", .high, true,
        ["SwiftUI", "Bug"], 21, 1
      ),
      (
        "Audit VoiceOver labels and traits across the entire application for WCAG 2.1 AA compliance",
        "", .low, false, [], 5, nil
      ),
      (
        "Implement comprehensive push notification system with background delivery and rich media attachments",
        String(repeating: "A long paragraph about notifications. ", count: 8), .medium, false,
        ["SwiftUI", "Networking", "UI Design", "Accessibility & VoiceOver"], 8, 4
      ),
    ]
    for (title, detail, priority, completed, tagNames, created, modified) in issues {
      try db.insertIssue(
        Issue(
          id: UUID(), title: title, detail: detail, priority: priority, completed: completed,
          created: now.addingTimeInterval(-created * Self.day),
          modified: modified.map { now.addingTimeInterval(-$0 * Self.day) },
          tags: tagNames.map { Tag(id: tags[$0]!, name: $0) }))
    }
  }

  /// The letters of the listed issues.
  func letters(_ arguments: [String]) throws -> [String] {
    let run = try box.docket(["list"] + arguments + ["--json"])
    #expect(run.status == 0, "\(arguments): \(run.error)")
    let titles = (try run.json() as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    let byTitle: [String: String] = [
      "Fix login screen layout": "A", "Add dark mode support": "B",
      "Refactor networking layer": "C", "Update onboarding flow": "D",
      "Fix crash on iPad rotation": "E",
    ]
    return titles.map {
      byTitle[$0] ?? ($0.hasPrefix("Audit") ? "F" : $0.hasPrefix("Implement") ? "G" : "?")
    }
  }

  @Test func theDefaultListsAsTheSeedShowsThem() throws {
    #expect(try letters([]) == ["A", "G", "B", "D", "F"])
    #expect(try letters(["--filter", "completed"]) == ["E", "C"])
    #expect(try letters(["--filter", "recent"]) == ["A", "G", "B", "F"])
    #expect(try letters(["--filter", "recent", "--show-completed"]).count == 5)
    #expect(try letters(["--filter", "tag:Bug"]) == ["A"])
  }

  @Test func theSeedsSearchesUnderOpen() throws {
    let searches: [([String], [String])] = [
      (["login"], ["A"]), (["overlaps"], ["A"]), (["dark"], ["B"]), (["priority:high"], ["A"]),
      (["priority:medium"], ["G", "B"]), (["is:completed"], ["E", "C"]), (["tag:Bug"], ["A"]),
      (["tag:SwiftUI", "priority:medium"], ["G", "B"]), (["tag:SwiftUI", "dark"], ["B"]),
    ]
    for (words, expected) in searches {
      #expect(try letters(words) == expected, "\(words)")
    }
  }

  @Test func tagCountsAndTheirSort() throws {
    func tags(_ arguments: [String]) throws -> [(String, Int, Int)] {
      let run = try box.docket(["tag", "list", "--json"] + arguments)
      #expect(run.status == 0, "\(run.error)")
      return (try run.json() as? [[String: Any]] ?? []).map {
        ($0["name"] as? String ?? "", $0["open"] as? Int ?? -1, $0["total"] as? Int ?? -1)
      }
    }
    let byName = try tags([])
    #expect(
      byName.map(\.0) == [
        "Accessibility & VoiceOver", "Bug", "Core Data", "Networking", "SwiftUI", "UI Design",
      ])
    // Open counts are the seed's visible counts with show-completed off; totals with it on.
    #expect(byName.map(\.1) == [1, 1, 0, 1, 4, 3])
    #expect(byName.map(\.2) == [1, 2, 0, 2, 5, 3])
    let byCount = try tags(["--sort", "count"])
    #expect(byCount.first?.0 == "SwiftUI")
    #expect(byCount.last?.0 == "Core Data")
    let reversed = try tags(["--sort", "count", "--asc"])
    #expect(reversed.first?.0 == "Core Data")
    #expect(reversed.last?.0 == "SwiftUI")
    // For that list alone: the next is by name again, unless --remember kept it.
    #expect(try tags([]).map(\.0) == byName.map(\.0))
    #expect(try tags(["--sort", "count", "--asc", "--remember"]).map(\.0) == reversed.map(\.0))
    #expect(try tags([]).map(\.0) == reversed.map(\.0))
  }
}
