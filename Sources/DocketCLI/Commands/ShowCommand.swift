import Database
import DocketCore
import Foundation
import Terminal

/// `docket show REF`: one issue with all its fields and tags.
struct ShowCommand {
  let context: CommandContext

  func run() throws {
    let database = try context.database()
    let (issue, reference) = try database.read { db -> (Issue, String) in
      let issue = try context.resolve(context.arguments.arguments[0], in: db)
      return (issue, try db.references(for: [issue.id])[issue.id] ?? IssueReference.hex(issue.id))
    }
    if context.json {
      context.printJSON(IssueOutput.json(issue, reference: reference))
      return
    }
    let l10n = context.l10n
    let output = context.output
    let colors = context.console.colors
    func styled(_ cell: TextTable.Cell) -> String {
      colors ? cell.style.apply(cell.text) : cell.text
    }
    var lines: [String] = []
    // Text from data is shown safe (SafeText): no escape sequence in it reaches the terminal.
    let title = issue.title.isEmpty ? l10n("issue.untitled") : SafeText.sanitized(issue.title)
    lines.append(
      (colors ? Style.header.apply(title) : title) + "  "
        + styled(TextTable.Cell(text: reference, style: .reference)))
    lines.append("")
    let rows: [(String, String)] = [
      (l10n("show.priority"), styled(output.priorityCell(issue.priority))),
      (l10n("show.status"), styled(output.statusCell(issue.completed))),
      (
        l10n("show.tags"),
        issue.tags.isEmpty
          ? l10n("show.noTags")
          : issue.tags.map { SafeText.sanitized($0.name) }.joined(separator: ", ")
      ),
      (
        l10n("show.created"),
        ISOTime.local(issue.created) + " (" + l10n.relativeTime(issue.created, now: context.now)
          + ")"
      ),
      (
        l10n("show.modified"),
        issue.modified.map {
          ISOTime.local($0) + " (" + l10n.relativeTime($0, now: context.now) + ")"
        }
          ?? l10n("show.never")
      ),
      (l10n("show.id"), issue.id.uuidString.lowercased()),
    ]
    let labelWidth = rows.map { $0.0.count }.max() ?? 0
    for (label, value) in rows {
      lines.append(
        (label + ":").padding(toLength: labelWidth + 2, withPad: " ", startingAt: 0) + value)
    }
    if !issue.detail.isEmpty {
      lines.append("")
      let detail = issue.detail.replacingOccurrences(of: "\r\n", with: "\n")
      lines.append(SafeText.sanitized(detail, keeping: [.lineBreaks, .tabs]))
    }
    context.console.line(lines.joined(separator: "\n"))
  }
}
