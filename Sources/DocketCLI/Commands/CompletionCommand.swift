import Database
import DocketCore
import Foundation

/// `docket close REF...` and `docket reopen REF...`.
struct CompletionCommand {
  let context: CommandContext
  let completed: Bool

  func run() throws {
    let database = try context.database()
    let results = try database.write { db -> [(Issue, Bool, String)] in
      let issues = try context.resolveAll(context.arguments.arguments, in: db)
      var results: [(Issue, Bool, String)] = []
      let references = try db.references(for: issues.map(\.id))
      for issue in issues {
        let changed = try db.setCompleted(completed, issueIDs: [issue.id]) > 0
        let stored = try db.fetchIssue(id: issue.id) ?? issue
        results.append((stored, changed, references[issue.id] ?? IssueReference.hex(issue.id)))
      }
      return results
    }
    if context.json {
      context.printJSON(.array(results.map { IssueOutput.json($0.0, reference: $0.2) }))
      return
    }
    let l10n = context.l10n
    for (issue, changed, reference) in results {
      let key =
        completed
        ? (changed ? "close.done" : "close.already") : (changed ? "reopen.done" : "reopen.already")
      context.console.line(l10n(key, .string(reference), .string(issue.title)))
    }
  }
}
