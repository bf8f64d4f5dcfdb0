import Composable
import ComposableTesting
import DocketCore
import Foundation
import Testing

@testable import DocketFeatures

/// The seed's sample data (`shared/seed/sample-data.md`) in the filter pane: the badges the
/// seed's tests expect, with show-completed off (the default) and on.
@MainActor
@Suite struct SeedSampleFeatureTests {
  let fx: Fixture
  var tags: [String: Tag] = [:]

  init() throws {
    fx = try Fixture()
    for name in [
      "SwiftUI", "Networking", "Core Data", "UI Design", "Bug", "Accessibility & VoiceOver",
    ] {
      tags[name] = try fx.tag(name)
    }
    let rows: [(String, Priority, Bool, [String], Double, Double?)] = [
      ("A", .high, false, ["SwiftUI", "Bug"], 2, nil),
      ("B", .medium, false, ["SwiftUI", "UI Design"], 14, 3),
      ("C", .medium, true, ["Networking"], 30, 20),
      ("D", .low, false, ["SwiftUI", "UI Design"], 10, nil),
      ("E", .high, true, ["SwiftUI", "Bug"], 21, 1),
      ("F", .low, false, [], 5, nil),
      (
        "G", .medium, false, ["SwiftUI", "Networking", "UI Design", "Accessibility & VoiceOver"], 8,
        4
      ),
    ]
    for (title, priority, completed, names, created, modified) in rows {
      let issue = Issue(
        id: fx.nextID(), title: title, priority: priority, completed: completed,
        created: fx.now.addingTimeInterval(-created * Fixture.day),
        modified: modified.map { fx.now.addingTimeInterval(-$0 * Fixture.day) },
        tags: names.map { tags[$0]! })
      try fx.queue.write { try $0.insertIssue(issue) }
    }
  }

  @Test func theBadgesTheSeedExpects() async throws {
    let store = TestStore(
      initialState: SidebarFeature.State(), reducer: { SidebarFeature() },
      withDependencies: fx.dependencies())
    let task = await store.send(.task)
    let (counts, summaries) = try fx.queue.read {
      (try $0.filterCounts(now: fx.now), try $0.tagSummaries())
    }
    await store.receive(.loaded(counts, summaries)) {
      $0.counts = counts
      $0.tags = TagSort.default.sorted(summaries, showCompleted: false)
    }
    let state = store.state
    #expect(state.count(of: .open) == 5)
    #expect(state.count(of: .completed) == 2)
    #expect(state.count(of: .recent) == 4)
    #expect(
      state.tags.map(\.tag.name) == [
        "Accessibility & VoiceOver", "Bug", "Core Data", "Networking", "SwiftUI", "UI Design",
      ])
    #expect(state.tags.map { state.count(of: .tag($0.tag.id)) } == [1, 1, 0, 1, 4, 3])

    // Under Recent the switch is offered; on, the seed's other counts.
    await store.send(.filterTapped(.recent)) { $0.selection = .recent }
    await store.receive(.delegate(.filterChanged(.recent)))
    await store.send(.showCompletedToggled) { $0.showCompleted = true }
    await store.receive(.delegate(.showCompletedChanged(true)))
    #expect(store.state.count(of: .recent) == 5)
    #expect(store.state.tags.map { store.state.count(of: .tag($0.tag.id)) } == [1, 2, 0, 2, 5, 3])

    // By count: SwiftUI first, Core Data last; count again reverses it.
    await store.send(.tagSortChosen(.count)) {
      $0.tagSort = TagSort(field: .count)
      $0.tags = TagSort(field: .count).sorted($0.tags, showCompleted: true)
    }
    #expect(store.state.tags.first?.tag.name == "SwiftUI")
    #expect(store.state.tags.last?.tag.name == "Core Data")
    await store.send(.tagSortChosen(.count)) {
      $0.tagSort = TagSort(field: .count, ascending: true)
      $0.tags = TagSort(field: .count, ascending: true).sorted($0.tags, showCompleted: true)
    }
    #expect(store.state.tags.first?.tag.name == "Core Data")
    #expect(store.state.tags.last?.tag.name == "SwiftUI")
    await task.cancel()
    await store.finish()
  }
}
