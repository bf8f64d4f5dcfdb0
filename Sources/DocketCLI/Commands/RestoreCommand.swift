import Database
import DocketCore
import DocketSync
import Foundation
import Terminal

/// `docket restore REF...`: brings back issues deleted in the last 30 days, as they were when
/// deleted, on every device (`docket list --filter deleted` shows their references).
struct RestoreCommand {
  let context: CommandContext

  func run() throws {
    let l10n = context.l10n
    let database = try context.database()
    let restored = try database.write { db -> [(reference: String, issue: Issue)] in
      var wanted: [DeletedIssue] = []
      for reference in context.arguments.arguments {
        let deleted = try context.resolveDeleted(reference, in: db)
        if !wanted.contains(where: { $0.id == deleted.id }) { wanted.append(deleted) }
      }
      var restored: [(String, Issue)] = []
      for deleted in wanted {
        guard let issue = try db.restoreDeletedIssue(id: deleted.id) else {
          throw CommandFailure.usage(l10n("error.restore.gone", .string(deleted.title)))
        }
        restored.append(
          (try db.references(for: [issue.id])[issue.id] ?? IssueReference.hex(issue.id), issue))
      }
      return restored
    }
    if context.json {
      context.printJSON(
        .array(restored.map { IssueOutput.json($0.issue, reference: $0.reference) }))
      return
    }
    for (reference, issue) in restored {
      context.console.line(
        l10n("restore.done", .string(reference), .string(SafeText.sanitized(issue.title))))
    }
  }
}

extension CommandContext {
  /// The recently deleted issue whose id starts with `reference`.
  func resolveDeleted(_ reference: String, in db: Connection) throws -> DeletedIssue {
    let l10n = self.l10n
    let digits = try referenceDigits(reference)
    let candidates = try db.recentlyDeletedIDs(withPrefix: digits, limit: 11)
    guard let first = candidates.first else {
      // A living issue named: nothing to restore, and the words say so.
      if let living = try db.issueIDs(withPrefix: reference, limit: 2).first,
        let issue = try db.fetchIssue(id: living)
      {
        throw CommandFailure.usage(l10n("error.restore.notDeleted", .string(issue.title)))
      }
      throw CommandFailure.usage(l10n("error.restore.unknown", .string(reference)))
    }
    // A prefix that a living issue shares names that one as much as a deleted one.
    let living = try db.issueIDs(withPrefix: reference, limit: 10)
    guard candidates.count == 1, living.isEmpty else {
      let references = try db.references(forDeleted: candidates)
      var lines = [l10n("error.ref.ambiguous", .string(reference))]
      let liveReferences = try db.references(for: living)
      for id in living {
        let title = try db.fetchIssue(id: id)?.title ?? ""
        lines.append(
          "  \(liveReferences[id] ?? IssueReference.hex(id))  \(SafeText.sanitized(title))")
      }
      for issue in candidates.prefix(10) {
        lines.append(
          "  \(references[issue.id] ?? IssueReference.hex(issue.id))  \(SafeText.sanitized(issue.title))"
        )
      }
      if candidates.count > 10 { lines.append("  …") }
      lines.append(l10n("error.ref.useMoreDigits"))
      throw CommandFailure.usage(lines.joined(separator: "\n"))
    }
    return first
  }
}
