import Database
import DocketCore
import Foundation
import Localization

/// Issues as the command line prints them: JSON in the documented shape, or rows for people.
struct IssueOutput {
  let l10n: Localizer
  let now: Date
  let colors: Bool

  /// `{"id", "ref", "title", "detail", "priority", "completed", "created", "modified", "tags"}`.
  static func json(_ issue: Issue, reference: String) -> JSONValue {
    .object([
      ("id", .string(issue.id.lowercasedText)),
      ("ref", .string(reference)),
      ("title", .string(issue.title)),
      ("detail", .string(issue.detail)),
      ("priority", .string(issue.priority.name)),
      ("completed", .bool(issue.completed)),
      ("created", .string(ISOTime.string(issue.created))),
      ("modified", issue.modified.map { .string(ISOTime.string($0)) } ?? .null),
      ("tags", .array(issue.tags.map { .string($0.name) })),
    ])
  }

  func priorityCell(_ priority: Priority) -> Table.Cell {
    let symbol: String
    let style: Style
    switch priority {
    case .high:
      symbol = "▲"
      style = .high
    case .medium:
      symbol = "■"
      style = .medium
    case .low:
      symbol = "▽"
      style = .dim
    }
    return Table.Cell(text: symbol + " " + l10n.name(of: priority), style: style)
  }

  func statusCell(_ completed: Bool) -> Table.Cell {
    completed
      ? Table.Cell(text: "✓ " + l10n.name(of: SearchQuery.Status.completed), style: .done)
      : Table.Cell(text: "○ " + l10n.name(of: SearchQuery.Status.open))
  }

  /// The table of `docket list`.
  func table(_ issues: [Issue], references: [UUID: String]) -> Table {
    var table = Table(columns: [
      Table.Column(header: l10n("table.ref")),
      Table.Column(header: l10n("table.priority")),
      Table.Column(header: l10n("table.status")),
      Table.Column(header: l10n("table.title"), shrinks: true, minimumWidth: 12),
      Table.Column(header: l10n("table.tags"), shrinks: true, minimumWidth: 6),
      Table.Column(header: l10n("table.updated")),
    ])
    // The words that repeat from row to row are made once.
    let priorities = Dictionary(
      uniqueKeysWithValues: Priority.allCases.map { ($0, priorityCell($0).measured()) })
    let statuses = [false: statusCell(false).measured(), true: statusCell(true).measured()]
    let untitled = l10n("issue.untitled")
    var times: [RowDate: String] = [:]
    table.rows.reserveCapacity(issues.count)
    for issue in issues {
      // Compact, as the seed's rows show it ("> 3 days", "29 Oct").
      let rowDate = RowDate(issue.lastActivity, now: now)
      let time = times[rowDate] ?? l10n.compact(rowDate)
      times[rowDate] = time
      table.rows.append([
        Table.Cell(text: references[issue.id] ?? IssueReference.hex(issue.id), style: .reference),
        priorities[issue.priority]!,
        statuses[issue.completed]!,
        Table.Cell(text: oneLine(issue.title.isEmpty ? untitled : issue.title)),
        Table.Cell(text: issue.tags.map(\.name).joined(separator: ", "), style: .dim),
        Table.Cell(text: time, style: .dim),
      ])
    }
    return table
  }

  /// A title on one line: line breaks and tabs shown as spaces.
  func oneLine(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0xE2 || $0 == 0xC2 }) else { return text }
    return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}

extension CommandContext {
  /// The issue a reference names: the shortest unique prefix of its id (at least four hex
  /// digits), or the full id. Unknown and ambiguous references are usage errors that say so.
  func resolve(_ reference: String, in db: Connection) throws -> Issue {
    let digits = reference.lowercased().filter { $0 != "-" }
    guard IssueReference.canonicalPrefix(reference) != nil else {
      throw CommandFailure.usage(l10n("error.ref.notHex", .string(reference)))
    }
    guard digits.count >= IssueReference.minimumLength else {
      throw CommandFailure.usage(l10n("error.ref.tooShort", .string(reference)))
    }
    let candidates = try db.issueIDs(withPrefix: reference, limit: 11)
    guard let first = candidates.first else {
      throw CommandFailure.usage(l10n("error.ref.unknown", .string(reference)))
    }
    guard candidates.count == 1 else {
      let references = try db.references(for: candidates)
      var lines = [l10n("error.ref.ambiguous", .string(reference))]
      for id in candidates.prefix(10) {
        let title = try db.fetchIssue(id: id)?.title ?? ""
        lines.append("  \(references[id] ?? IssueReference.hex(id))  \(title)")
      }
      if candidates.count > 10 { lines.append("  …") }
      lines.append(l10n("error.ref.useMoreDigits"))
      throw CommandFailure.usage(lines.joined(separator: "\n"))
    }
    guard let issue = try db.fetchIssue(id: first) else {
      throw CommandFailure.usage(l10n("error.ref.unknown", .string(reference)))
    }
    return issue
  }

  /// Resolves every reference before anything is changed: one bad reference changes nothing.
  func resolveAll(_ references: [String], in db: Connection) throws -> [Issue] {
    var seen = Set<UUID>()
    return try references.compactMap { reference in
      let issue = try resolve(reference, in: db)
      return seen.insert(issue.id).inserted ? issue : nil
    }
  }

  func printJSON(_ value: JSONValue) {
    console.line(value.rendered())
  }

  var output: IssueOutput { IssueOutput(l10n: l10n, now: now, colors: console.colors) }
}
