import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// What one page shows, read from the database in one snapshot: the filter pane's counts and
/// tags, one page of the list, and the chosen issue with its history.
struct PageData: Sendable {
  var location: WebLocation
  var settings: DeviceSettings
  var counts: FilterCounts
  var tags: [TagSummary]
  var allTags: [Tag]
  /// Nil when the search does not parse (`searchError` says why).
  var issues: [Issue]
  var searchError: String?
  /// More issues than the page shows are there.
  var hasMore: Bool
  /// How many the list selects, counted up to one past `countLimit` (then the page says
  /// "1000+", as the terminal app does).
  var matching: Int
  var references: [UUID: String]
  var selected: Issue?
  /// The issue the location names is not there (deleted here or elsewhere).
  var selectedIsGone: Bool
  var history: [HistoryEntry]
  /// The chosen issue's open conflicts, shown in its detail.
  var conflicts: [Conflict] = []
  var suggestions: [SearchSuggestion]
  var now: Date
  /// Each tag's count as the filter pane shows it (looked up once per tag drawn).
  var tagCounts: [UUID: Int] = [:]
  /// How many issues can still be restored (`DeletedPage`); the pane links there when some can.
  var deletedCount = 0

  static var countLimit: Int { IssueRequest.shownCountLimit }

  var showCompleted: Bool { location.showCompleted ?? settings.showCompleted }
  var sort: IssueSort { location.sort ?? settings.issueSort }

  /// The page of `location`, as the database holds it now.
  static func load(
    _ location: WebLocation, from db: Connection, now: Date, localizer: Localizer
  ) throws -> PageData {
    let settings = try db.fetchSettings()
    let showCompleted = location.showCompleted ?? settings.showCompleted
    let summaries = try db.tagSummaries()
    let tags = settings.tagSort.sorted(summaries, showCompleted: showCompleted)
    let allTags = NaturalOrder.sorted(summaries.map(\.tag), by: \.name)
    var field = location.search
    var searchError: String?
    var issues: [Issue] = []
    var hasMore = false
    var matching = 0
    var suggestions: [SearchSuggestion] = []
    switch field.parse() {
    case .success(let search):
      let request = IssueRequest(
        filter: location.filter, search: search, sort: location.sort ?? settings.issueSort,
        showCompleted: showCompleted, now: now)
      let page = try db.fetchIssues(request, limit: location.shown + 1, detail: false)
      hasMore = page.count > location.shown
      issues = Array(page.prefix(location.shown))
      matching =
        hasMore
        ? try db.countIssues(request, limit: max(countLimit, location.shown) + 1) : issues.count
      if let fragment = field.suggestionFragment {
        suggestions = SearchSuggestion.suggestions(
          for: fragment, tags: allTags, chosen: search, localizer: localizer)
      }
    case .failure(let error):
      searchError = localizer.message(for: error)
      field = SearchField()
    }
    var selected: Issue?
    var history: [HistoryEntry] = []
    var conflicts: [Conflict] = []
    if let id = location.issue {
      selected = try db.fetchIssue(id: id)
      if selected != nil {
        history = try db.history(ofIssue: id)
        conflicts = try db.conflicts(issue: id)
      }
    }
    var ids = issues.map(\.id)
    if let selected { ids.append(selected.id) }
    return PageData(
      location: location, settings: settings, counts: try db.filterCounts(now: now), tags: tags,
      allTags: allTags, issues: issues, searchError: searchError, hasMore: hasMore,
      matching: matching, references: try db.references(for: ids), selected: selected,
      selectedIsGone: location.issue != nil && selected == nil, history: history,
      conflicts: conflicts,
      suggestions: suggestions, now: now,
      tagCounts: Dictionary(
        tags.map { ($0.tag.id, $0.visibleCount(showCompleted: showCompleted)) },
        uniquingKeysWith: { first, _ in first }),
      deletedCount: try db.recentlyDeletedCount())
  }

  /// How many issues a smart filter or a tag shows in the filter pane.
  func count(of filter: IssueFilter) -> Int {
    switch filter {
    case .open: return counts.open
    case .completed: return counts.completed
    case .all: return counts.open + counts.completed
    case .recent: return counts.recent(showCompleted: showCompleted)
    case .tag(let id):
      return tagCounts[id] ?? 0
    }
  }

  func reference(_ id: UUID) -> String { references[id] ?? IssueReference.hex(id) }
}
