import Database
import DocketCore
import Foundation

/// Search text, as typed in any face: the field's suggestion and chips, the parser, and every
/// query the parser accepts run against a small database under each filter. Text the parser
/// accepts must never fail in SQLite (a broken full-text expression would).
enum SearchFuzz {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let l10n = DocketStrings.localizer(language: "en")

  static let database: DatabaseQueue = {
    do {
      let queue = try DocketDatabase.inMemory(now: { now })
      try queue.write { db in
        let titles = [
          "Crash when the search has quotes", "Sort by title ignores case", "Übergröße Dateien",
          "数据库 locked", "tag:bug is not a tag", "-minus and \"quotes\" and *stars*",
        ]
        for (index, title) in titles.enumerated() {
          _ = try db.createIssue(
            id: UUID(), title: title, detail: "detail \(index) with words and ünïcödé",
            priority: index % 2 == 0 ? .high : .low, completed: index % 3 == 0,
            tagNames: index % 2 == 0 ? ["bug", "UI work"] : ["feature"], now: now)
        }
      }
      return queue
    } catch {
      fatalError("the fuzzer's database: \(error)")
    }
  }()

  static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    var field = SearchField(text: text)
    _ = field.suggestionFragment
    _ = field.textWithoutFragment
    field = field.submitted()
    if case .failure(let error) = field.parse() {
      require(
        isExplained(l10n.message(for: error), input: bytes), "a search error unexplained: \(error)")
    }
    let query: SearchQuery
    do {
      query = try SearchParser.parse(text)
    } catch {
      require(
        isExplained(l10n.message(for: error), input: bytes), "a search error unexplained: \(error)")
      return
    }
    let tag = (try? database.read { try $0.fetchTag(named: "bug") })?.flatMap { $0 }
    var filters: [IssueFilter] = [.open, .completed, .recent, .all]
    if let tag { filters.append(.tag(tag.id)) }
    for (index, filter) in filters.enumerated() {
      let sort = IssueSort(
        field: IssueSortField.allCases[index % IssueSortField.allCases.count],
        ascending: index % 2 == 0)
      let request = IssueRequest(filter: filter, search: query, sort: sort, now: now)
      do {
        let (page, count) = try database.read { db in
          (
            try db.fetchIssues(request, limit: 3),
            try db.countIssues(request, limit: IssueRequest.shownCountLimit)
          )
        }
        require(page.count <= min(3, count), "a page of \(page.count) for a count of \(count)")
      } catch {
        fatalError("the search \(text.debugDescription) was accepted but failed: \(error)")
      }
    }
  }
}
