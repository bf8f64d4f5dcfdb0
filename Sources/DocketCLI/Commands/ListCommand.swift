import Database
import DocketCore
import Foundation
import Localization
import Terminal

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
    if arguments.value("filter")?.lowercased() == "deleted" {
      try DeletedListing(context: context).run(words: arguments.arguments, limit: limit)
      return
    }
    if arguments.value("filter")?.lowercased() == "conflicts" {
      if let word = arguments.arguments.first {
        throw CommandFailure.usage(l10n("error.conflicts.option", .string(word)))
      }
      try ConflictsCommand(context: context).list(limit: limit)
      return
    }
    let query: SearchQuery
    do {
      query = try SearchParser.parse(arguments.arguments.joined(separator: " "))
    } catch {
      throw CommandFailure.usage(l10n.message(for: error))
    }
    let given = try context.givenSort(kept: \.issueSort)
    let database = try context.database()
    // A page is read whole and laid out from its own rows. A longer list is written as it is
    // read (`stream`), so memory stays flat however many issues it holds.
    if let limit, limit <= Self.largestPage {
      try writePage(database: database, query: query, sort: given, limit: limit)
    } else {
      try stream(database: database, query: query, sort: given, limit: limit)
    }
  }

  /// The most rows listed by reading them whole; beyond it a list streams.
  static let largestPage = 1000

  private func request(_ db: Connection, query: SearchQuery, sort given: IssueSort?) throws -> (
    IssueRequest, IssueFilter
  ) {
    let arguments = context.arguments
    let settings = try db.fetchSettings()
    let filter = try Self.filter(arguments.value("filter"), db: db, l10n: context.l10n)
    var showCompleted = settings.showCompleted
    if arguments.has("show-completed") { showCompleted = true }
    if arguments.has("hide-completed") { showCompleted = false }
    let request = IssueRequest(
      filter: filter, search: query, sort: given ?? settings.issueSort,
      showCompleted: showCompleted,
      now: context.now)
    return (request, filter)
  }

  private func writePage(
    database: DatabaseQueue, query: SearchQuery, sort: IssueSort?, limit: Int
  ) throws {
    let (issues, total, references, filter) = try database.read { db in
      let (request, filter) = try request(db, query: query, sort: sort)
      // The table does not show the detail; JSON does. The total is shown on a terminal only.
      let issues = try db.fetchIssues(
        request, limit: limit, detail: context.json, walk: .oneShot)
      let wantsTotal = !context.json && context.console.outputIsTerminal
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
    if issues.isEmpty {
      writeEmpty(filter: filter, query: query)
      return
    }
    let console = context.console
    var text = ""
    context.output.table(issues, references: references).render(
      width: console.width, colors: console.colors
    ) { line in
      text += line
      text += "\n"
    }
    if console.outputIsTerminal {
      text +=
        total > issues.count
        ? context.l10n("list.summary.limited", .integer(issues.count), .integer(total)) + "\n"
        : context.l10n("list.summary", .integer(total)) + "\n"
    }
    console.write(text)
  }

  private func writeEmpty(filter: IssueFilter, query: SearchQuery) {
    if context.console.outputIsTerminal {
      let empty = filter == .open && query.isEmpty ? "list.empty.open" : "list.empty"
      context.console.line(context.l10n(empty))
    }
  }

  /// Rows read, formatted and written in batches of about 64 KiB, all in one read transaction.
  /// JSON is a valid array written as it goes. A table's columns are measured before its first
  /// row (`ListMeasurer`), then its rows are written as they arrive.
  private func stream(
    database: DatabaseQueue, query: SearchQuery, sort: IssueSort?, limit: Int?
  ) throws {
    let console = context.console
    let output = context.output
    var text = console.streamingOutput()
    try database.read { db in
      let (request, filter) = try request(db, query: query, sort: sort)
      if context.json {
        var first = true
        try db.streamEncodedIssues(
          request, limit: limit, detail: true,
          encode: { listed, encoded in
            IssueOutput.appendJSON(listed.issue, reference: listed.reference, to: &encoded)
          }
        ) { encoded in
          text.append(first ? "[\n  " : ",\n  ")
          first = false
          text.append(encoded)
          text.flushIfFull()
        }
        text.append(first ? "[]\n" : "\n]\n")
        return
      }
      var cells = IssueOutput.RowCells(output)
      // Dates are measured only for a terminal: the last column is never padded, and its
      // width counts only where lines are fitted to the screen.
      var dateWidths: [RowDate: Int] = [:]
      let measuringCells = cells
      let measureDate: ((Date) -> Int)? =
        console.width == nil
        ? nil
        : { date in
          let rowDate = RowDate(date, now: output.now)
          if let known = dateWidths[rowDate] { return known }
          let width = measuringCells.dateWidth(date)
          dateWidths[rowDate] = width
          return width
        }
      // A list read in index order is measured in a pass of its own before its first row; a
      // whole list sorted here is measured as each row is encoded, all before the first.
      let measurer = ListMeasurer(
        title: cells.titleWidth, tags: cells.tagsWidth, date: measureDate)
      var encodedWidths = ListWidths()
      var layout: TextTable.Layout?
      var count = 0
      try db.streamEncodedIssues(
        request, limit: limit, detail: false, measuring: measurer,
        encode: { listed, encoded in
          let widths = cells.encode(listed.issue, reference: listed.reference, to: &encoded)
          encodedWidths.add(
            reference: widths.reference, priority: listed.issue.priority,
            completed: listed.issue.completed, title: widths.title, tags: widths.tags,
            date: measureDate == nil ? 0 : widths.date)
        }
      ) { encoded in
        if layout == nil {
          let widths = cells.contentWidths(
            measurer.widths.including(encodedWidths), datesMeasured: measureDate != nil)
          layout = TextTable.Layout(
            columns: output.listColumns, contentWidths: widths, width: console.width,
            colors: console.colors)
          text.append(layout!.header())
          text.append(byte: 0x0A)
        }
        layout!.append(encoded: encoded, to: &text)
        text.append(byte: 0x0A)
        count += 1
        text.flushIfFull()
      }
      guard count > 0 else {
        writeEmpty(filter: filter, query: query)
        return
      }
      if console.outputIsTerminal {
        let total = limit == count ? try db.countIssues(request) : count
        text.append(
          total > count
            ? context.l10n("list.summary.limited", .integer(count), .integer(total)) + "\n"
            : context.l10n("list.summary", .integer(count)) + "\n")
      }
    }
    text.flush()
  }

  /// `open`, `completed`, `recent`, `all` or `tag:NAME` (`deleted` is read by `DeletedListing`).
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
              option: "--filter", value: text,
              allowed: "open, completed, recent, all, deleted, conflicts, tag:NAME"),
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
