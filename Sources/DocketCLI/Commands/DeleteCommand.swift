import Database
import DocketCore
import DocketSync
import Foundation
import Terminal

/// `docket delete REF... [--yes]`: asks first on a terminal; refuses without `--yes` otherwise.
struct DeleteCommand {
  let context: CommandContext

  func run() throws {
    if context.arguments.has("now") { return try deleteForGood() }
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

  /// `docket delete --now REF...`: living or recently deleted issues, deleted for good on every
  /// device (asks first on a terminal, as a delete does).
  private func deleteForGood() throws {
    let l10n = context.l10n
    let database = try context.database()
    let chosen = try database.read { db -> [(id: UUID, title: String, reference: String)] in
      var chosen: [(id: UUID, title: String, reference: String)] = []
      for reference in context.arguments.arguments {
        let found: (UUID, String)
        if try !db.issueIDs(withPrefix: reference, limit: 1).isEmpty {
          let issue = try context.resolveAll([reference], in: db)[0]
          found = (issue.id, issue.title)
        } else {
          let deleted = try context.resolveDeleted(reference, in: db)
          found = (deleted.id, deleted.title)
        }
        if !chosen.contains(where: { $0.id == found.0 }) {
          chosen.append((found.0, found.1, reference))
        }
      }
      return chosen
    }
    if !context.arguments.has("yes") {
      guard context.console.inputIsTerminal else {
        throw CommandFailure.usage(l10n("error.delete.needsYes"))
      }
      for issue in chosen {
        context.console.line("  \(issue.reference)  \(SafeText.sanitized(issue.title))")
      }
      guard context.confirm(l10n("delete.confirmForGood", .integer(chosen.count))) else {
        context.console.line(l10n("delete.cancelled"))
        return
      }
    }
    try database.write { db in
      for issue in chosen { _ = try db.purgeIssue(id: issue.id) }
    }
    for issue in chosen {
      context.console.line(
        l10n("delete.doneForGood", .string(issue.reference), .string(issue.title)))
    }
  }
}
