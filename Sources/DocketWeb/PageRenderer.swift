import DocketCore
import Foundation
import Localization

/// What a form held when it was refused, to show it again with the reason.
struct FormDraft: Equatable, Sendable {
  var title = ""
  var detail = ""
  var priority: Priority = .low
  var completed = false
  var tagIDs: Set<UUID> = []
  var newTags = ""
  var error: String
}

/// Draws the tracker's page from its data, the way the terminal app draws its buffer from state:
/// the same data always gives the same markup.
struct PageRenderer {
  var data: PageData
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  /// A message to announce (after a change), already in the page's language.
  var said: String?
  var draft: FormDraft?
  /// The count of changes when the data was read (where the page's event stream starts).
  var liveVersion: UInt64 = 0

  var location: WebLocation { data.location }

  /// The whole document.
  func page() -> HTML {
    let title: String
    if let issue = data.selected, location.mode != .new {
      title = issue.title + " · Docket"
    } else {
      title = l10n.filterName(location.filter, tags: data.allTags) + " · Docket"
    }
    let body: HTML = """
      <div class="panes" data-front="\(location.frontPane.rawValue)">\
      \(filtersPane())\(listPane())\(detailPane())</div>
      """
    return WebDocument(
      l10n: l10n, title: title, csrf: csrf, readOnly: readOnly, said: said,
      current: .issues, here: location.url, liveVersion: liveVersion
    ).render(body)
  }

  // MARK: Filters

  func filtersPane() -> HTML {
    var items: [HTML] = []
    for filter in [IssueFilter.open, .completed, .recent] {
      items.append(filterLink(filter, name: l10n.filterName(filter, tags: data.allTags)))
    }
    // Conflicts beside the smart filters, only while there are some.
    if data.counts.conflicts > 0 {
      items.append(
        """
        <li><a href="/conflicts"><span class="name">\(l10n("filter.conflicts"))</span> \
        <span class="count">\(data.counts.conflicts)</span></a></li>
        """)
    }
    if data.deletedCount > 0 {
      items.append(
        """
        <li><a href="/deleted"><span class="name">\(l10n("filter.deleted"))</span> \
        <span class="count">\(data.deletedCount)</span></a></li>
        """)
    }
    var tagItems: [HTML] = []
    for summary in data.tags {
      tagItems.append(filterLink(.tag(summary.tag.id), name: summary.tag.name))
    }
    let tagList: HTML =
      tagItems.isEmpty
      ? "<p class=\"quiet\">\(l10n("tui.noTags"))</p>"
      : "<ul class=\"filters\">\(tagItems)</ul>"
    let switchLocation = location.with {
      $0.showCompleted = !data.showCompleted
      $0.shown = WebLocation.pageSize
    }
    let switchText = l10n(data.showCompleted ? "web.hideCompleted" : "web.showCompleted")
    let completedSwitch: HTML =
      location.filter.honoursShowCompleted
      ? """
      <p><a class="button" href="\(switchLocation.url)" aria-pressed="\(data.showCompleted ? "true" : "false")">\(switchText)</a></p>
      """
      : .empty
    return """
      <nav id="filters" class="pane" aria-labelledby="filters-heading">\
      <h2 id="filters-heading" tabindex="-1">\(l10n("tui.filters"))</h2>\
      <ul class="filters">\(items)</ul>\
      <h3>\(l10n("tui.tags"))</h3>\(tagList)\(completedSwitch)\
      <p><a href="/tags">\(l10n("web.tags.manage"))</a></p>\
      </nav>
      """
  }

  func filterLink(_ filter: IssueFilter, name: String) -> HTML {
    let target = WebLocation(
      filter: filter, chips: location.chips, query: location.query, sort: location.sort,
      showCompleted: location.showCompleted)
    let current = filter == location.filter
    return """
      <li><a href="\(target.url)"\(HTML.when(current, " aria-current=\"page\""))>\
      <span class="name">\(name)</span> <span class="count">\(data.count(of: filter))</span></a></li>
      """
  }

  // MARK: List

  func listPane() -> HTML {
    let heading = l10n.filterName(location.filter, tags: data.allTags)
    let rows: HTML
    if let error = data.searchError {
      rows = "<p class=\"problem\" role=\"alert\">\(error)</p>"
    } else if data.issues.isEmpty {
      let empty =
        location.search.isEmpty && location.filter == .open && data.counts.open == 0
        ? l10n("web.empty.none") : l10n("web.empty.noMatch")
      rows = "<p class=\"quiet\">\(empty)</p>"
    } else {
      var items: [HTML] = []
      for issue in data.issues { items.append(issueRow(issue)) }
      var more: HTML = .empty
      if data.hasMore {
        let next = location.with { $0.shown = min($0.shown * 2, WebLocation.largestPage) }
        if next.shown > location.shown {
          more = "<p><a class=\"button\" href=\"\(next.url)\">\(l10n("web.list.more"))</a></p>"
        }
      }
      // What a swipe on a row does, in words, for the script to show under the row as it moves.
      let swipe: HTML =
        readOnly
        ? .empty
        : """
         data-swipe-complete="\(l10n("web.action.complete"))" \
        data-swipe-reopen="\(l10n("web.action.reopen"))" data-swipe-delete="\(l10n("web.action.delete"))"
        """
      rows = "<ol class=\"issues\" id=\"issue-list\"\(swipe)>\(items)</ol>\(more)"
    }
    let count =
      data.searchError == nil
      ? (data.matching > max(PageData.countLimit, location.shown)
        ? l10n("tui.issueCountMore", .integer(max(PageData.countLimit, location.shown)))
        : l10n("tui.issueCount", .integer(data.matching))) : ""
    let newLink = location.with {
      $0.mode = .new
      $0.issue = nil
      $0.pane = nil
    }
    let newButton: HTML =
      readOnly
      ? .empty
      : "<a class=\"button primary\" href=\"\(newLink.url)\" data-key=\"n\">\(l10n("web.new"))</a>"
    return """
      <main id="list" class="pane" aria-labelledby="list-heading">\
      <div class="pane-head"><a class="phone-only button" href="\(location.with { $0.pane = .filters }.url)">\(l10n("tui.filters"))</a>\
      <h2 id="list-heading" tabindex="-1">\(heading)</h2>\(newButton)</div>\
      \(searchForm())<div class="list-bar">\
      <p class="quiet" id="list-count">\(count)</p>\(sortForm())</div>\(rows)</main>
      """
  }

  func issueRow(_ issue: Issue) -> HTML {
    let target = location.with {
      $0.issue = issue.id
      $0.mode = .view
      $0.pane = nil
    }
    let current = issue.id == location.issue
    let status = l10n(issue.completed ? "web.mark.completed" : "web.mark.open")
    let tags: [HTML] = issue.tags.map { " <span class=\"tag\">\($0.name)</span>" }
    let changed = issue.modified ?? issue.created
    let when = l10n.relativeTime(changed, now: data.now)
    // Read as words, not glyphs and a reference spelled out: "Fix login layout, High priority,
    // Open, tags Bug, UI Design, changed 2 days ago".
    var spoken = [
      issue.title, l10n("web.row.priority", .string(l10n.name(of: issue.priority))), status,
    ]
    if !issue.tags.isEmpty {
      spoken.append(l10n("web.row.tags", .string(issue.tags.map(\.name).joined(separator: ", "))))
    }
    spoken.append(l10n("web.row.changed", .string(when)))
    // The spaces between the parts keep them apart in a text browser, which shows the status
    // in words too.
    return """
      <li class="\(issue.completed ? "issue done" : "issue")"><a href="\(target.url)"\
      \(HTML.when(current, " aria-current=\"true\"")) aria-label="\(spoken.joined(separator: ", "))">\
      <span class="status" title="\(status)">\(issue.completed ? "✓" : "○") <span class="sr">\(status)</span></span> \
      <span class="title">\(issue.title)</span> \
      <span class="priority p-\(issue.priority.name)">\(l10n.name(of: issue.priority))</span> \
      <span class="ref">\(data.reference(issue.id))</span> <span class="meta">\(tags) \
      <time class="when" datetime="\(ISOTime.string(changed))">\(when)</time></span></a></li>
      """
  }

  func searchForm() -> HTML {
    var hidden = hiddenFields(of: location, leaving: ["q", "chip", "n", "issue", "mode", "pane"])
    if let issue = location.issue, location.mode == .view {
      hidden += "<input type=\"hidden\" name=\"issue\" value=\"\(issue.uuidString.lowercased())\">"
    }
    var suggestions: HTML = .empty
    // (None once the search holds as many chips as an address carries: one more would be lost.)
    if !data.suggestions.isEmpty, location.chips.count < WebLocation.mostChips {
      // The `#fragment` being typed becomes a chip; the text before it stays.
      let typed = location.search.textWithoutFragment
      var items: [HTML] = []
      for suggestion in data.suggestions.prefix(12) {
        let chosen = location.with {
          $0.chips.append(suggestion.token)
          $0.query = typed.isEmpty ? "" : typed + " "
          $0.shown = WebLocation.pageSize
        }
        items.append(
          "<li><a href=\"\(chosen.url)\" data-token=\"\(suggestion.token)\">\(suggestion.label) <span class=\"quiet\">\(suggestion.token)</span></a></li>"
        )
      }
      suggestions =
        "<ul class=\"suggestions\" id=\"suggestions\" aria-label=\"\(l10n("web.suggestions"))\">\(items)</ul>"
    }
    return """
      <form class="search" role="search" action="/" method="get">\(hidden)\
      <label for="q">\(l10n("web.search.label"))</label>\
      <div class="search-field">\(chips())<input id="q" name="q" type="search" \
      value="\(location.query)" aria-describedby="q-help" aria-controls="issue-list" \
      data-key="/"></div>\
      <button type="submit" name="enter" value="1" class="without-script">\
      \(l10n("web.search.button"))</button>\
      <p id="q-help" class="quiet small">\(l10n("web.search.help"))</p>\(suggestions)</form>
      """
  }

  /// The search's chips, before the text: each sends its token with the form, and taken away
  /// (a tap, or Backspace at the start of the text) leaves the rest of the search.
  func chips() -> HTML {
    guard !location.chips.isEmpty else { return .empty }
    var items: [HTML] = []
    for (index, chip) in location.chips.enumerated() {
      let without = location.with {
        $0.chips.remove(at: index)
        $0.shown = WebLocation.pageSize
      }
      let label = l10n.chipLabel(chip)
      items.append(
        """
        <li><input type="hidden" name="chip" value="\(chip)">\
        <a class="chip" href="\(without.url)" title="\(chip)" \
        aria-label="\(l10n("web.chip.remove", .string(label)))">\
        <span class="chip-label">\(label)</span>\
        <span class="chip-x" aria-hidden="true">×</span></a></li>
        """)
    }
    return "<ul class=\"chips\" id=\"chips\" aria-label=\"\(l10n("web.chips"))\">\(items)</ul>"
  }

  func sortForm() -> HTML {
    let sort = data.sort
    var options: [HTML] = []
    for field in IssueSortField.allCases {
      for ascending in [false, true] {
        let choice = IssueSort(field: field, ascending: ascending)
        let name =
          l10n.sortFieldName(field) + ", "
          + l10n(ascending ? "web.sort.ascending" : "web.sort.descending")
        options.append(
          "<option value=\"\(choice.storageValue)\"\(HTML.when(choice == sort, " selected"))>\(name)</option>"
        )
      }
    }
    // The sort chosen is stored for the device, as every face's choice is (SPEC §4); read-only,
    // it is this page's alone.
    let back = location.with {
      $0.sort = nil
      $0.shown = WebLocation.pageSize
    }
    let form: HTML =
      readOnly
      ? "<form class=\"sort\" action=\"/\" method=\"get\">\(hiddenFields(of: location, leaving: ["sort", "n"]))"
      : "<form class=\"sort\" action=\"/sort\" method=\"post\" data-inplace>\(postFields(back: back))"
    return """
      \(form)\
      <label for="sort">\(l10n("web.sort.label"))</label>\
      <select id="sort" name="sort">\(options)</select>\
      <button type="submit" class="without-script">\(l10n("web.sort.button"))</button></form>
      """
  }

  /// Hidden inputs that carry the location through a GET form, but for `leaving`.
  func hiddenFields(of location: WebLocation, leaving: Set<String>) -> HTML {
    var result: HTML = .empty
    for (name, value) in location.parameters where !leaving.contains(name) {
      result += "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
    }
    return result
  }
}
