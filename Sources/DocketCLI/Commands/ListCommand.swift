import Database
import DocketCore
import Foundation
import Localization

/// `docket list [QUERY...] [--filter F] [--sort S] [--asc|--desc] [--show-completed|--hide-completed] [--limit N]`
struct ListCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    if arguments.has("asc"), arguments.has("desc") {
      throw CommandFailure.usage(
        UsageText.message(for: .conflictingOptions("--asc", "--desc"), l10n))
    }
    if arguments.has("show-completed"), arguments.has("hide-completed") {
      throw CommandFailure.usage(
        UsageText.message(for: .conflictingOptions("--show-completed", "--hide-completed"), l10n))
    }
    let limit = try arguments.value("limit").map { text -> Int in
      guard let number = Int(text), number > 0 else {
        throw CommandFailure.usage(l10n("error.limit", .string(text)))
      }
      return number
    }
    let query: SearchQuery
    do {
      query = try SearchParser.parse(arguments.arguments.joined(separator: " "))
    } catch {
      throw CommandFailure.usage(l10n.message(for: error))
    }
    let chosenField = try arguments.value("sort").map { text -> IssueSort.Field in
      guard let field = IssueSort.Field(rawValue: text.lowercased()) else {
        throw CommandFailure.usage(
          UsageText.message(
            for: .badValue(option: "--sort", value: text, allowed: "priority, date, title"), l10n))
      }
      return field
    }

    let database = try context.database()
    let now = context.now
    // A sort given here is remembered, for the terminal app and the next list alike; only then
    // does listing write, and the list itself is read without waiting for any writer.
    if chosenField != nil || arguments.has("asc") || arguments.has("desc") {
      var settings = try database.read { try $0.fetchSettings() }
      var sort = chosenField.map { IssueSort(field: $0) } ?? settings.issueSort
      if arguments.has("asc") { sort.ascending = true }
      if arguments.has("desc") { sort.ascending = false }
      if sort != settings.issueSort {
        settings.issueSort = sort
        try database.write { db in
          var stored = try db.fetchSettings()
          stored.issueSort = sort
          try db.saveSettings(stored)
        }
      }
    }
    let (issues, total, references, filter) = try database.read { db in
      let settings = try db.fetchSettings()
      let filter = try Self.filter(arguments.value("filter"), db: db, l10n: l10n)
      var showCompleted = settings.showCompleted
      if arguments.has("show-completed") { showCompleted = true }
      if arguments.has("hide-completed") { showCompleted = false }
      let request = IssueRequest(
        filter: filter, search: query, sort: settings.issueSort, showCompleted: showCompleted,
        now: now)
      // The table does not show the detail; JSON does. The total is shown on a terminal only.
      let issues = try db.fetchIssues(request, limit: limit, detail: context.json)
      let wantsTotal = limit != nil && !context.json && context.console.outputIsTerminal
      let total = wantsTotal ? try db.countIssues(request) : issues.count
      return (issues, total, try db.references(for: issues.map(\.id)), filter)
    }

    if context.json {
      context.printJSON(
        .array(
          issues.map {
            IssueOutput.json($0, reference: references[$0.id] ?? IssueReference.hex($0.id))
          }))
      return
    }
    let console = context.console
    if issues.isEmpty {
      if console.outputIsTerminal {
        let empty = filter == .open && query.isEmpty ? "list.empty.open" : "list.empty"
        console.line(l10n(empty))
      }
      return
    }
    let table = context.output.table(issues, references: references)
    context.keptUntilExit += [issues, references, table]
    // Written in pieces of about 64 KiB: a list of every issue is never one huge string.
    var text = ""
    table.render(width: console.width, colors: console.colors) { line in
      text += line
      text += "\n"
      if text.utf8.count >= 65_536 {
        console.write(text)
        text = ""
      }
    }
    if console.outputIsTerminal {
      text +=
        total > issues.count
        ? l10n("list.summary.limited", .integer(issues.count), .integer(total)) + "\n"
        : l10n("list.summary", .integer(total)) + "\n"
    }
    console.write(text)
  }

  /// `open`, `completed`, `recent`, `all` or `tag:NAME`.
  static func filter(_ text: String?, db: Connection, l10n: Localizer) throws -> IssueFilter {
    guard let text else { return .open }
    switch text.lowercased() {
    case "open": return .open
    case "completed", "closed", "done": return .completed
    case "recent": return .recent
    case "all": return .all
    default:
      guard text.lowercased().hasPrefix("tag:") else {
        throw CommandFailure.usage(
          UsageText.message(
            for: .badValue(
              option: "--filter", value: text, allowed: "open, completed, recent, all, tag:NAME"),
            l10n))
      }
      let name = String(text.dropFirst(4)).trimmingCharacters(
        in: CharacterSet(charactersIn: "\"' "))
      guard let tag = try db.fetchTag(named: name) else {
        throw CommandFailure.usage(l10n("error.tag.unknown", .string(name)))
      }
      return .tag(tag.id)
    }
  }
}
