import Database
import Foundation
import Localization

/// The words of undo, redo and the conflicts view, the same in every face.
public enum UndoMessages {
  /// "close Fix login", "close 3 issues", "new tag Bug".
  public static func summary(_ summary: StepSummary, _ l10n: Localizer) -> String {
    let verb = summary.verb.rawValue
    if let name = summary.name, summary.count == 1, !name.isEmpty {
      return l10n("step.\(verb).one", .string(oneLine(name)))
    }
    return l10n("step.\(verb).many", .integer(summary.count))
  }

  /// "Undid “close Fix login”; the priority of “Fix login” was changed on Desktop since, kept."
  public static func report(_ report: UndoReport, _ l10n: Localizer) -> String {
    var parts = [
      l10n(report.isRedo ? "redo.done" : "undo.done", .string(summary(report.summary, l10n)))
    ]
    parts += report.kept.map { kept($0, l10n) }
    let unnamed = report.keptCount - report.kept.count
    if unnamed > 0 { parts.append(l10n("undo.kept.more", .integer(unnamed))) }
    return parts.joined(separator: l10n("undo.separator")) + l10n("undo.end")
  }

  /// What an undo left, and why.
  public static func kept(_ kept: KeptChange, _ l10n: Localizer) -> String {
    let device =
      kept.isThisDevice
      ? l10n("deleted.byThisDevice")
      : (kept.deviceName.isEmpty ? l10n("undo.anotherDevice") : kept.deviceName)
    let title = oneLine(kept.title)
    switch kept.what {
    case .field(let field):
      return l10n(
        "undo.kept.field", .string(l10n("history.field.\(field)")), .string(title),
        .string(device))
    case .tag(let name):
      return l10n("undo.kept.tag", .string(name), .string(title), .string(device))
    case .deleted:
      return l10n("undo.kept.deleted", .string(title), .string(device))
    case .changed:
      return l10n("undo.kept.changed", .string(title), .string(device))
    case .tagName(let old):
      return l10n("undo.kept.tagName", .string(title), .string(old))
    case .gone:
      return l10n("undo.kept.gone", .string(title))
    }
  }

  /// A step of the list: its words.
  public static func step(_ step: UndoStep, _ l10n: Localizer) -> String {
    let words = summary(step.summary, l10n)
    return step.kind == .redo ? l10n("undo.list.redone", .string(words)) : words
  }

  // MARK: - Conflicts

  /// The history's kind of a conflict's field, to show its values as the history does.
  static func what(_ field: String) -> HistoryEntry.What {
    switch field {
    case "title": .title
    case "detail": .detail
    case "priority": .priority
    case "completed": .completed
    default: .createdDate
    }
  }

  /// A conflict's value as its field shows it: “Earlier”, high, completed.
  public static func value(_ value: DatabaseValue, of conflict: Conflict, _ l10n: Localizer)
    -> String
  {
    SyncMessages.value(value, what(conflict.field), l10n)
  }

  /// The name of a conflict's field in the reader's language.
  public static func field(_ conflict: Conflict, _ l10n: Localizer) -> String {
    l10n("history.field.\(conflict.field)")
  }

  /// "Used the lost title of “Shared”: “Earlier”." and its like.
  public static func outcome(_ outcome: ConflictOutcome, _ l10n: Localizer) -> String {
    switch outcome {
    case .used(let conflict):
      l10n(
        "conflicts.used", .string(field(conflict, l10n)), .string(oneLine(conflict.title)),
        .string(value(conflict.lost, of: conflict, l10n)))
    case .dismissed(let conflict):
      l10n(
        "conflicts.dismissed", .string(field(conflict, l10n)), .string(oneLine(conflict.title)),
        .string(value(conflict.kept, of: conflict, l10n)))
    case .notFound:
      l10n("conflicts.gone")
    }
  }

  /// A device that made a value, as a person knows it: on its own (in parentheses, a table's
  /// cell), or (`after`) after "on", which German declines.
  public static func device(_ name: String, here: Bool, after: Bool = false, _ l10n: Localizer)
    -> String
  {
    here ? l10n(after ? "deleted.byThisDevice" : "conflicts.thisDevice") : name
  }

  static func oneLine(_ text: String) -> String {
    let flat = text.split(omittingEmptySubsequences: true) { $0.isNewline }.joined(separator: " ")
    return flat.count > 60 ? String(flat.prefix(59)) + "…" : flat
  }
}
