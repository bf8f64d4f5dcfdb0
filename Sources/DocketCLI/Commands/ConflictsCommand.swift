import Database
import DocketCore
import DocketSync
import Foundation
import JSONText
import Localization
import Terminal

/// `docket conflicts [--json]` (also `docket list --filter conflicts`): the values that lost a
/// merge, each beside the value kept; `docket conflicts use ID` sets the lost value,
/// `docket conflicts dismiss ID|--all` keeps the other. Both reach every device.
struct ConflictsCommand {
  let context: CommandContext

  func list(limit: Int? = nil) throws {
    let l10n = context.l10n
    for option in ["sort", "asc", "desc", "remember", "show-completed", "hide-completed"]
    where context.arguments.has(option) {
      throw CommandFailure.usage(l10n("error.conflicts.option", .string("--" + option)))
    }
    let database = try context.database()
    let (conflicts, total) = try database.read { db in
      (try db.conflicts(limit: limit), try db.conflictCount())
    }
    if context.json {
      context.printJSON(.array(conflicts.map { Self.json($0, l10n) }))
      return
    }
    let console = context.console
    guard !conflicts.isEmpty else {
      if console.outputIsTerminal { console.line(l10n("conflicts.empty")) }
      return
    }
    let output = context.output
    var table = TextTable(columns: [
      TextTable.Column(header: l10n("table.id"), alignRight: true),
      TextTable.Column(header: l10n("table.issue"), shrinks: true, minimumWidth: 10),
      TextTable.Column(header: l10n("table.field")),
      TextTable.Column(header: l10n("table.kept"), shrinks: true, minimumWidth: 12),
      TextTable.Column(header: l10n("table.lost"), shrinks: true, minimumWidth: 12),
    ])
    for conflict in conflicts {
      func side(_ value: DatabaseValue, _ by: String, _ here: Bool, _ at: Date) -> String {
        l10n(
          "conflicts.value", .string(UndoMessages.value(value, of: conflict, l10n)),
          .string(UndoMessages.device(by, here: here, l10n)),
          .string(l10n.compact(RowDate(at, now: context.now))))
      }
      table.rows.append([
        TextTable.Cell(text: String(conflict.id)),
        TextTable.Cell(text: output.oneLine(conflict.title)),
        TextTable.Cell(text: UndoMessages.field(conflict, l10n)),
        TextTable.Cell(
          text: side(conflict.kept, conflict.keptBy, conflict.keptHere, conflict.keptAt)),
        TextTable.Cell(
          text: side(conflict.lost, conflict.lostBy, conflict.lostHere, conflict.lostAt)),
      ])
    }
    var text = ""
    table.render(width: console.width, colors: console.colors) { line in
      text += line
      text += "\n"
    }
    if console.outputIsTerminal {
      text +=
        total > conflicts.count
        ? l10n("list.summary.limited", .integer(conflicts.count), .integer(total)) + "\n"
        : l10n("conflicts.summary", .integer(total)) + "\n"
    }
    console.write(text)
  }

  func use() throws {
    let id = try conflictID(context.arguments.arguments.first)
    let outcome = try context.database().write { db in try db.useConflict(id) }
    try finish(outcome)
  }

  func dismiss() throws {
    let l10n = context.l10n
    if context.arguments.has("all") {
      guard context.arguments.arguments.isEmpty else {
        throw CommandFailure.usage(l10n("error.conflicts.dismissWhich"))
      }
      let count = try context.database().write { db in try db.dismissAllConflicts() }
      if context.json {
        context.printJSON(.object([("dismissed", .number(Double(count)))]))
      } else {
        context.console.line(l10n("conflicts.dismissedAll", .integer(count)))
      }
      return
    }
    guard let word = context.arguments.arguments.first else {
      throw CommandFailure.usage(l10n("error.conflicts.dismissWhich"))
    }
    let id = try conflictID(word)
    let outcome = try context.database().write { db in try db.dismissConflict(id) }
    try finish(outcome)
  }

  private func conflictID(_ word: String?) throws -> Int64 {
    guard let word, let id = Int64(word), id > 0 else {
      throw CommandFailure.usage(context.l10n("error.conflicts.id", .string(word ?? "")))
    }
    return id
  }

  private func finish(_ outcome: ConflictOutcome) throws {
    let l10n = context.l10n
    switch outcome {
    case .notFound:
      throw CommandFailure.failed(UndoMessages.outcome(outcome, l10n))
    case .used(let conflict), .dismissed(let conflict):
      if context.json {
        var object = Self.json(conflict, l10n)
        if case .object(var members) = object {
          if case .used = outcome {
            members.insert(("done", .string("used")), at: 0)
          } else {
            members.insert(("done", .string("dismissed")), at: 0)
          }
          object = .object(members)
        }
        context.printJSON(object)
      } else {
        context.console.line(UndoMessages.outcome(outcome, l10n))
      }
    }
  }

  static func json(_ conflict: Conflict, _ l10n: Localizer) -> JSON {
    func value(_ value: DatabaseValue) -> JSON {
      switch (conflict.field, value) {
      case ("priority", .integer(let raw)):
        .string((Priority(rawValue: Int(raw)) ?? .low).name)
      case ("completed", .integer(let done)): .bool(done == 1)
      case ("created", .real(let seconds)):
        .string(ISOTime.string(Date(timeIntervalSince1970: seconds)))
      case (_, .text(let text)): .string(text)
      default: .null
      }
    }
    return .object([
      ("id", .number(Double(conflict.id))),
      ("issue", .string(conflict.issueID.lowercasedText)),
      ("title", .string(conflict.title)),
      ("field", .string(conflict.field)),
      (
        "kept",
        .object([
          ("value", value(conflict.kept)),
          ("device", conflict.keptHere ? .null : .string(conflict.keptBy)),
          ("at", .string(ISOTime.string(conflict.keptAt))),
        ])
      ),
      (
        "lost",
        .object([
          ("value", value(conflict.lost)),
          ("device", conflict.lostHere ? .null : .string(conflict.lostBy)),
          ("at", .string(ISOTime.string(conflict.lostAt))),
        ])
      ),
    ])
  }
}
