import Composable
import ComposableTesting
import Database
import DocketCore
import DocketFeatures
import DocketSync
import Foundation
import Localization
import Terminal
import Testing

@testable import DocketTUI

/// The moment every snapshot is drawn at.
let snapshotNow = Date(timeIntervalSince1970: 1_800_000_000)

/// A database with the sample data, fixed time and ids, and the screen state the app would reach
/// on it once everything has loaded.
struct ScreenFixture {
  let queue: DatabaseQueue

  init(sample: Bool = true, extraTags: Int = 0, longTitles: Bool = false) throws {
    queue = try DocketDatabase.inMemory { snapshotNow }
    var counter = 0
    let makeID = {
      counter += 1
      return UUID(uuidString: String(format: "5a000000-0000-4000-8000-%012x", counter))!
    }
    if sample {
      try queue.write { try SampleData.insert(into: $0, now: snapshotNow, makeID: makeID) }
    }
    for index in 0..<extraTags {
      try queue.write {
        _ = try $0.createTag(named: String(format: "Tag %04d", index), id: makeID())
      }
    }
    if longTitles {
      try queue.write { db in
        try db.insertIssue(
          Issue(
            id: makeID(),
            title:
              "A very long title that goes on and on about the details of a problem nobody can reproduce on a Tuesday",
            detail: String(
              repeating: "Long detail text that wraps across several lines of the pane. ", count: 6),
            priority: .high, created: snapshotNow.addingTimeInterval(-3600)))
        try db.insertIssue(
          Issue(
            id: makeID(), title: "日本語のタイトルと絵文字 🐛 も表示できる", priority: .medium,
            created: snapshotNow.addingTimeInterval(-7200)))
      }
    }
  }

  /// Recently deleted open over the panes, after two of the sample's issues were deleted, the
  /// second selected.
  func deletedState(columns: Int, rows: Int, select: String? = nil) throws -> ScreenFeature.State {
    try queue.write { db in
      for title in ["Export to CSV", "Fix login layout on narrow screens"] {
        let id = try db.fetchIssues(
          IssueRequest(filter: .all, search: try SearchParser.parse(title), now: snapshotNow),
          limit: 1
        ).first?.id
        _ = try db.deleteIssues(id.map { [$0] } ?? [])
      }
    }
    var state = try self.state(columns: columns, rows: rows, select: select)
    var deleted = DeletedFeature.State()
    deleted.issues = try queue.read { try $0.recentlyDeletedIssues() }
    deleted.loaded = true
    deleted.selected = 1
    state.app.deleted = deleted
    return state
  }

  /// Two values a phone set without seeing the ones set here (a title and a priority), lost,
  /// and the conflicts view over them; the filter pane counts them.
  func conflictsState(columns: Int, rows: Int) throws -> ScreenFeature.State {
    let phone = "0f000000-0000-4000-8000-000000000001"
    try queue.write { db in
      let request = IssueRequest(
        filter: .all, search: try SearchParser.parse("Export"), now: snapshotNow)
      guard var issue = try db.fetchIssues(request, limit: 1).first else { return }
      let original = issue
      issue.title = "Export to CSV and JSON"
      issue.priority = .high
      _ = try db.saveIssue(issue)
      let before = HybridClock.stamp(snapshotNow.addingTimeInterval(-3600))
      let row = issue.id.uuidString.lowercased()
      _ = try db.applyChanges(
        [
          Change(
            stamp: Stamp(hlc: before, device: phone), entity: .issue, row: row, field: "title",
            old: .text(original.title), new: .text("Export to a spreadsheet"),
            modified: snapshotNow.timeIntervalSince1970 - 3600),
          Change(
            stamp: Stamp(hlc: before + 1, device: phone), entity: .issue, row: row,
            field: "priority", old: .integer(Int64(original.priority.rawValue)), new: .integer(0),
            modified: snapshotNow.timeIntervalSince1970 - 3600),
        ], deviceNames: [phone: "Phone"])
    }
    var state = try self.state(columns: columns, rows: rows)
    var conflicts = ConflictsFeature.State()
    conflicts.conflicts = try queue.read { try $0.conflicts() }
    conflicts.loaded = true
    state.app.conflicts = conflicts
    return state
  }

  /// The state after loading, with `select` (a title) selected and shown in the detail.
  func state(
    columns: Int, rows: Int, select title: String? = nil, focus: ScreenFeature.Pane = .list
  ) throws
    -> ScreenFeature.State
  {
    var app = AppFeature.State()
    try queue.read { db in
      app.sidebar.counts = try db.filterCounts(now: snapshotNow)
      app.sidebar.tags = app.sidebar.tagSort.sorted(try db.tagSummaries(), showCompleted: true)
      let request = IssueRequest(filter: .open, now: snapshotNow)
      app.list.issues = try db.fetchIssues(request, limit: 100)
      app.list.total = try db.countIssues(request)
      app.list.hasLoaded = true
      app.list.tags = try db.fetchTags()
    }
    if let title, let issue = app.list.issues.first(where: { $0.title == title }) {
      app.list.selection = issue.id
      app.detail = DetailFeature.State(issue: issue, allTags: app.list.tags)
    }
    var state = ScreenFeature.State(app: app, columns: columns, rows: rows)
    state.focus = focus
    return state
  }
}

enum Snapshot {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  /// Compares the screen (its text, its styles and its cursor) with the recorded one.
  /// `DOCKET_RECORD_SNAPSHOTS=1` records it and fails the test ("recorded, run again"), so that a
  /// test can never pass by recording.
  static func check(
    _ state: ScreenFeature.State, named name: String, language: String = "en",
    palette: Palette = .full, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    _ = utc
    // The windows follow the selection after every action; states made by hand get the same.
    var state = state
    state.keepSelectionsInView()
    let buffer = ScreenView(
      state: state, l10n: DocketStrings.localizer(language: language), now: snapshotNow
    ).render().adapted(to: palette)
    let text = buffer.snapshot
    let file = folder.appendingPathComponent("\(name).\(state.columns)x\(state.rows).txt")
    if ProcessInfo.processInfo.environment["DOCKET_RECORD_SNAPSHOTS"] == "1" {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? Data(text.utf8).write(to: file)
      Testing.Issue.record(
        Comment(rawValue: "Recorded \(file.lastPathComponent); run again without recording"),
        sourceLocation: sourceLocation)
      return
    }
    guard let recorded = try? String(contentsOf: file, encoding: .utf8) else {
      let message =
        "No snapshot \(file.lastPathComponent); record it with DOCKET_RECORD_SNAPSHOTS=1"
      Testing.Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      return
    }
    if recorded != text {
      let expected = recorded.split(separator: "\n", omittingEmptySubsequences: false)
      let actual = text.split(separator: "\n", omittingEmptySubsequences: false)
      var diff: [String] = []
      for index in 0..<max(expected.count, actual.count) {
        let left = index < expected.count ? String(expected[index]) : ""
        let right = index < actual.count ? String(actual[index]) : ""
        if left != right { diff += ["line \(index + 1):", "− " + left, "+ " + right] }
      }
      let message =
        "\(file.lastPathComponent) differs from the recorded screen:\n"
        + diff.prefix(30).joined(separator: "\n")
      Testing.Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }

  /// Local dates on screen are drawn in UTC here, whatever the machine's zone.
  static let utc: Void = {
    setenv("TZ", "UTC", 1)
    tzset()
  }()

  static let sizes = [(160, 48), (100, 30), (60, 20)]
}

// Swift Testing has types of these names too; in these tests they mean Docket's.
typealias Tag = DocketCore.Tag
typealias Issue = DocketCore.Issue

/// A test store of the screen feature on the fixture's database, with a fixed date, counting
/// UUIDs, the given clock and English; `extra` sets more dependencies.
@MainActor
func screenStore(
  _ state: ScreenFeature.State, fixture: ScreenFixture, clock: TestClock,
  _ extra: @escaping (inout DependencyValues) -> Void = { _ in }
) -> TestStore<ScreenFeature.State, ScreenFeature.Action> {
  TestStore(
    initialState: state, reducer: { ScreenFeature() },
    withDependencies: {
      $0.database = fixture.queue
      $0.date = .constant(snapshotNow)
      $0.uuid = .incrementing
      $0.clock = clock
      $0.locale = "en"
      extra(&$0)
    })
}
