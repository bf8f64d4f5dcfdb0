import Database
import DocketCore
import DocketSync
import Foundation
import JSONText
import Localization
import Terminal

/// `docket undo [--list] [--json]` and `docket redo [--list] [--json]`: this device's own
/// actions taken back, or made again, newest first, as new changes that sync.
struct UndoCommand {
  let context: CommandContext
  let redo: Bool

  func run() throws {
    let l10n = context.l10n
    let database = try context.database()
    if context.arguments.has("list") {
      let steps = try database.read { db in
        try redo ? db.redoableSteps() : db.undoableSteps()
      }
      try list(steps)
      return
    }
    let report = try database.write { db in try redo ? db.redo() : db.undo() }
    guard let report else {
      if context.json {
        context.printJSON(.null)
      }
      throw CommandFailure.failed(l10n(redo ? "redo.nothing" : "undo.nothing"))
    }
    if context.json {
      context.printJSON(Self.json(report, l10n))
      return
    }
    context.console.line(UndoMessages.report(report, l10n))
  }

  private func list(_ steps: [UndoStep]) throws {
    let l10n = context.l10n
    if context.json {
      context.printJSON(
        .array(
          steps.map { step in
            .object(
              [("kind", .string(step.kind.rawValue))]
                + Self.summaryJSON(step.summary, l10n)
                + [("at", .string(ISOTime.string(step.at)))])
          }))
      return
    }
    let console = context.console
    guard !steps.isEmpty else {
      console.line(l10n(redo ? "redo.list.empty" : "undo.list.empty"))
      return
    }
    var table = TextTable(columns: [
      TextTable.Column(header: l10n("table.step"), alignRight: true),
      TextTable.Column(header: l10n("table.when")),
      TextTable.Column(header: l10n("table.title"), shrinks: true, minimumWidth: 12),
    ])
    for (index, step) in steps.enumerated() {
      table.rows.append([
        TextTable.Cell(text: String(index + 1)),
        TextTable.Cell(text: l10n.compact(RowDate(step.at, now: context.now))),
        TextTable.Cell(text: UndoMessages.step(step, l10n)),
      ])
    }
    var text = ""
    table.render(width: console.width, colors: console.colors) { line in
      text += line
      text += "\n"
    }
    console.write(text)
  }

  static func summaryJSON(_ summary: StepSummary, _ l10n: Localizer) -> [(String, JSON)] {
    [
      ("what", .string(UndoMessages.summary(summary, l10n))),
      ("verb", .string(summary.verb.rawValue)),
      ("count", .number(Double(summary.count))),
      ("title", summary.name.map { .string($0) } ?? .null),
    ]
  }

  static func json(_ report: UndoReport, _ l10n: Localizer) -> JSON {
    .object(
      [("done", .string(report.isRedo ? "redo" : "undo"))]
        + summaryJSON(report.summary, l10n)
        + [
          ("changes", .number(Double(report.changes))),
          ("keptCount", .number(Double(report.keptCount))),
          (
            "kept",
            .array(
              report.kept.map { kept in
                .object([
                  ("issue", .string(kept.title)),
                  ("what", .string(keptWhat(kept.what))),
                  ("device", kept.isThisDevice ? .null : .string(kept.deviceName)),
                  ("message", .string(UndoMessages.kept(kept, l10n))),
                ])
              })
          ),
        ])
  }

  static func keptWhat(_ what: KeptChange.What) -> String {
    switch what {
    case .field(let field): field
    case .tag(let name): "tag:" + name
    case .deleted: "deleted"
    case .changed: "changed"
    case .tagName: "tagName"
    case .gone: "gone"
    }
  }
}
