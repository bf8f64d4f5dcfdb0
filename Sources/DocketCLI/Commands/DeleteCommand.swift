import Database
import DocketCore
import Foundation
import Terminal

/// `docket delete REF... [--yes]`: asks first on a terminal; refuses without `--yes` otherwise.
struct DeleteCommand {
  let context: CommandContext

  func run() throws {
    let l10n = context.l10n
    let database = try context.database()
    let (issues, references) = try database.read { db in
      let issues = try context.resolveAll(context.arguments.arguments, in: db)
      return (issues, try db.references(for: issues.map(\.id)))
    }
    if !context.arguments.has("yes") {
      guard context.console.inputIsTerminal else {
        throw CommandFailure.usage(l10n("error.delete.needsYes"))
      }
      for issue in issues {
        context.console.line("  \(references[issue.id] ?? "")  \(SafeText.sanitized(issue.title))")
      }
      guard context.confirm(l10n("delete.confirm", .integer(issues.count))) else {
        context.console.line(l10n("delete.cancelled"))
        return
      }
    }
    try database.write { try $0.deleteIssues(issues.map(\.id)) }
    for issue in issues {
      context.console.line(
        l10n("delete.done", .string(references[issue.id] ?? ""), .string(issue.title)))
    }
    // Said to a person only: what a script reads stays one line an issue.
    if context.console.outputIsTerminal {
      context.console.line(
        issues.count == 1
          ? l10n("delete.restoreHint.one", .string(references[issues[0].id] ?? ""))
          : l10n("delete.restoreHint.many"))
    }
  }
}
