import DocketCore
import Foundation
import HTTPServer

/// What a page of the tracker shows, all of it in the URL so that every view can be bookmarked,
/// reloaded and shared: the filter, the search, the sort, the chosen issue, whether it is being
/// edited or a new one written, and (on a phone) which pane is in front.
public struct WebLocation: Equatable, Sendable {
  public enum Mode: String, Equatable, Sendable {
    case view, edit, new, delete
  }

  /// The pane a phone shows when it shows one at a time.
  public enum Pane: String, Equatable, Sendable {
    case filters, list, detail
  }

  public var filter: IssueFilter = .open
  /// The search's tokens shown as chips (`tag:"UI Design"`, `priority:high`, `-crash`), each a
  /// `chip` parameter, before the text typed after them.
  public var chips: [String] = []
  /// The search's text as typed after the chips, in the search syntax.
  public var query: String = ""
  /// Nil: the sort this device remembers.
  public var sort: IssueSort?
  /// Nil: the show-completed switch this device remembers.
  public var showCompleted: Bool?
  public var issue: UUID?
  public var mode: Mode = .view
  /// Asked for explicitly (a phone's Filters button); otherwise it follows from the rest.
  public var pane: Pane?
  /// How many issues the list shows (grows by a page with "Show more").
  public var shown: Int = WebLocation.pageSize

  public static let pageSize = 50
  /// At most this many chips, each at most `longestChip` bytes of UTF-8 (a tag's name of the
  /// longest, quoted, fits): more is not a search anyone types.
  public static let mostChips = 20
  public static let longestChip = 1024
  /// A list never shows more than this in one page, however the URL asks.
  public static let largestPage = 1000

  public init(
    filter: IssueFilter = .open, chips: [String] = [], query: String = "", sort: IssueSort? = nil,
    showCompleted: Bool? = nil, issue: UUID? = nil, mode: Mode = .view, pane: Pane? = nil,
    shown: Int = WebLocation.pageSize
  ) {
    self.filter = filter
    self.chips = chips
    self.query = query
    self.sort = sort
    self.showCompleted = showCompleted
    self.issue = issue
    self.mode = mode
    self.pane = pane
    self.shown = shown
  }

  /// The location a request's query names; what does not parse is left at its default.
  public init(query parameters: [(name: String, value: String)]) {
    func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
    if let text = value("filter"), let filter = IssueFilter(storageValue: text) {
      self.filter = filter
    }
    chips = Array(
      parameters.lazy.filter { $0.name == "chip" }
        .map { $0.value.trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { !$0.isEmpty && $0.utf8.count <= Self.longestChip }
        .prefix(Self.mostChips))
    query = String((value("q") ?? "").prefix(1000))
    sort = value("sort").flatMap(IssueSort.init(storageValue:))
    showCompleted = value("done").flatMap { $0 == "1" ? true : $0 == "0" ? false : nil }
    issue = value("issue").flatMap { UUID(uuidString: $0) }
    mode = value("mode").flatMap(Mode.init(rawValue:)) ?? .view
    if (mode == .edit || mode == .delete) && issue == nil { mode = .view }
    pane = value("pane").flatMap(Pane.init(rawValue:))
    if let text = value("n"), let count = Int(text), count > 0 {
      shown = min(count, Self.largestPage)
    }
  }

  /// The search: its chips and the text after them.
  public var search: SearchField { SearchField(chips: chips, text: query) }

  /// The pane a phone shows: the one asked for, else the form or the issue when there is one,
  /// else the list.
  public var frontPane: Pane {
    if let pane { return pane }
    return mode == .new || issue != nil ? .detail : .list
  }

  /// The query parameters of this location, leaving out defaults.
  public var parameters: [(String, String)] {
    var result: [(String, String)] = []
    if filter != .open { result.append(("filter", filter.storageValue)) }
    for chip in chips { result.append(("chip", chip)) }
    if !query.isEmpty { result.append(("q", query)) }
    if let sort { result.append(("sort", sort.storageValue)) }
    if let showCompleted { result.append(("done", showCompleted ? "1" : "0")) }
    if let issue { result.append(("issue", issue.uuidString.lowercased())) }
    if mode != .view { result.append(("mode", mode.rawValue)) }
    if let pane { result.append(("pane", pane.rawValue)) }
    if shown != Self.pageSize { result.append(("n", String(shown))) }
    return result
  }

  /// The path and query of this location: `/?filter=recent&q=…`.
  public var url: String {
    let query = URLText.query(parameters)
    return query.isEmpty ? "/" : "/?" + query
  }

  /// This location with `change` made.
  public func with(_ change: (inout WebLocation) -> Void) -> WebLocation {
    var copy = self
    change(&copy)
    return copy
  }
}
