import Database
import DocketCore
import Foundation
import Localization

/// `docket add TITLE [--detail TEXT] [--priority P] [--tag NAME]... [--completed]`
struct AddCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    let title = arguments.arguments.joined(separator: " ").trimmingCharacters(
      in: .whitespacesAndNewlines)
    try TitleOption.check(title, l10n)
    let priority = try PriorityOption.read(arguments, l10n) ?? .low
    let tagNames = try arguments.values("tag").map { name in
      guard let normalized = TagName.normalized(name) else {
        throw CommandFailure.usage(l10n("error.tag.emptyName"))
      }
      return normalized
    }
    let database = try context.database()
    let now = context.now
    let (issue, reference) = try database.write { db -> (Issue, String) in
      let issue = try db.createIssue(
        id: UUID(), title: title, detail: arguments.value("detail") ?? "", priority: priority,
        completed: arguments.has("completed"), tagNames: tagNames, now: now)
      return (issue, try db.references(for: [issue.id])[issue.id] ?? IssueReference.hex(issue.id))
    }
    if context.json {
      context.printJSON(IssueOutput.json(issue, reference: reference))
    } else {
      context.console.line(reference)
    }
  }
}

/// A title typed on the command line: never empty, and one line (a line break a shell let in,
/// `"$(cat notes)"`, would be a title no form could show).
enum TitleOption {
  static func check(_ title: String, _ l10n: Localizer) throws {
    guard !title.isEmpty else { throw CommandFailure.usage(l10n("error.add.emptyTitle")) }
    if title.unicodeScalars.contains(where: Limits.isLineBreak) {
      throw CommandFailure.usage(l10n("error.add.titleLineBreak"))
    }
  }
}

/// `--priority low|medium|high` (also `l`, `m`, `h`).
enum PriorityOption {
  static func read(_ arguments: ParsedArguments, _ l10n: Localization.Localizer) throws -> Priority?
  {
    guard let value = arguments.value("priority") else { return nil }
    guard let priority = Priority(name: value) else {
      throw UsageText.badValue(option: "priority", value: value, in: arguments, l10n)
    }
    return priority
  }
}
