import Database
import DocketCore
import DocketSync
import Foundation
import JSONText
import Terminal

/// `docket list --filter deleted [WORDS...]`: the issues deleted in the last 30 days, the latest
/// delete first, with the reference `docket restore` takes.
struct DeletedListing {
  let context: CommandContext

  func run(words: [String], limit: Int?) throws {
    let l10n = context.l10n
    for option in ["sort", "asc", "desc", "remember", "show-completed", "hide-completed"]
    where context.arguments.has(option) {
      throw CommandFailure.usage(l10n("error.deleted.option", .string("--" + option)))
    }
    // Words narrow the list by title, as the words of a search do; the search's tokens ask
    // about fields a deleted issue no longer keeps up to date, so they are refused.
    if let token = words.first(where: { $0.contains(":") || $0.hasPrefix("-") }) {
      throw CommandFailure.usage(l10n("error.deleted.token", .string(token)))
    }
    let folded = words.map { SortKey.fold($0) }.filter { !$0.isEmpty }
    let database = try context.database()
    let (issues, references) = try database.read { db in
      var issues = try db.recentlyDeletedIssues()
      if !folded.isEmpty {
        issues = issues.filter { issue in
          let title = SortKey.fold(issue.title)
          return folded.allSatisfy { title.contains($0) }
        }
      }
      let total = issues.count
      if let limit { issues = Array(issues.prefix(limit)) }
      return ((issues, total), try db.references(forDeleted: issues))
    }
    if context.json {
      context.printJSON(
        .array(
          issues.0.map { Self.json($0, reference: references[$0.id] ?? IssueReference.hex($0.id)) }
        ))
      return
    }
    let console = context.console
    guard !issues.0.isEmpty else {
      if console.outputIsTerminal {
        console.line(l10n(folded.isEmpty ? "list.deleted.empty" : "list.empty"))
      }
      return
    }
    let output = context.output
    var table = TextTable(columns: [
      TextTable.Column(header: l10n("table.ref")),
      TextTable.Column(header: l10n("table.priority")),
      TextTable.Column(header: l10n("table.title"), shrinks: true, minimumWidth: 12),
      TextTable.Column(header: l10n("table.deleted")),
      TextTable.Column(header: l10n("table.deletedBy"), shrinks: true, minimumWidth: 6),
    ])
    for issue in issues.0 {
      table.rows.append([
        TextTable.Cell(reference: references[issue.id] ?? IssueReference.hex(issue.id)),
        output.priorityCell(issue.priority),
        TextTable.Cell(text: output.oneLine(issue.title)),
        TextTable.Cell(text: l10n.compact(RowDate(issue.deleted, now: context.now))),
        TextTable.Cell(
          text: issue.deletedHere || issue.deletedBy.isEmpty
            ? l10n("deleted.byThisDevice") : issue.deletedBy),
      ])
    }
    var text = ""
    table.render(width: console.width, colors: console.colors) { line in
      text += line
      text += "\n"
    }
    if console.outputIsTerminal {
      text +=
        issues.1 > issues.0.count
        ? l10n("list.summary.limited", .integer(issues.0.count), .integer(issues.1)) + "\n"
        : l10n("list.deleted.summary", .integer(issues.1)) + "\n"
    }
    console.write(text)
  }

  static func json(_ issue: DeletedIssue, reference: String) -> JSON {
    .object([
      ("id", .string(issue.id.lowercasedText)),
      ("ref", .string(reference)),
      ("title", .string(issue.title)),
      ("priority", .string(issue.priority.name)),
      ("completed", .bool(issue.completed)),
      ("created", .string(ISOTime.string(issue.created))),
      ("deleted", .string(ISOTime.string(issue.deleted))),
      ("deletedBy", issue.deletedHere ? .null : .string(issue.deletedBy)),
      (
        "restorableUntil",
        .string(ISOTime.string(issue.deleted.addingTimeInterval(RecentlyDeleted.window)))
      ),
    ])
  }
}
