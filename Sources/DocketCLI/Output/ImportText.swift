import DocketCore
import DocketTransfer
import Foundation
import JSONText
import Localization

/// What an import says: its summary in words or JSON, and why a file was refused.
enum ImportText {
  /// "Imported: 812 issues and 37 tags new, 12 updated, 3 deleted tasks skipped."
  static func summary(_ summary: ImportSummary, _ l10n: Localizer) -> String {
    var parts = [
      l10n(
        "import.part.new", .string(l10n("import.count.issues", .integer(summary.createdIssues))),
        .string(l10n("import.count.tags", .integer(summary.createdTags))))
    ]
    if summary.updatedIssues > 0 {
      parts.append(l10n("import.part.updated", .integer(summary.updatedIssues)))
    }
    if summary.unchangedIssues > 0 {
      parts.append(l10n("import.part.unchanged", .integer(summary.unchangedIssues)))
    }
    for reason in summary.skipped.keys.sorted() where summary.skipped[reason]! > 0 {
      let count = summary.skipped[reason]!
      let what =
        switch reason {
        case .deletedTask: l10n("import.count.deletedTasks", .integer(count))
        case .recurringTemplate: l10n("import.count.recurringTemplates", .integer(count))
        }
      parts.append(l10n("import.part.skipped", .string(what)))
    }
    if summary.keptDeleted > 0 {
      parts.append(l10n("import.part.keptDeleted", .integer(summary.keptDeleted)))
    }
    if summary.restoredIssues > 0 {
      parts.append(l10n("import.part.restored", .integer(summary.restoredIssues)))
    }
    if summary.oneLinedTitles > 0 {
      parts.append(l10n("import.part.oneLined", .integer(summary.oneLinedTitles)))
    }
    let list = parts.joined(separator: ", ")
    return l10n(summary.dryRun ? "import.dryRun" : "import.done", .string(list))
  }

  static func json(_ summary: ImportSummary) -> JSON {
    .object([
      ("format", .string(summary.format.rawValue)),
      ("dryRun", .bool(summary.dryRun)),
      (
        "created",
        .object([
          ("issues", .integer(summary.createdIssues)), ("tags", .integer(summary.createdTags)),
        ])
      ),
      ("updated", .integer(summary.updatedIssues)),
      ("keptDeleted", .integer(summary.keptDeleted)),
      ("restored", .integer(summary.restoredIssues)),
      ("unchanged", .integer(summary.unchangedIssues)),
      ("titlesPutOnOneLine", .integer(summary.oneLinedTitles)),
      (
        "skipped",
        .object(SkipReason.allCases.map { ($0.rawValue, .integer(summary.skipped[$0] ?? 0)) })
      ),
    ])
  }

  /// "line 12 (record 5): the field “entry” is missing"
  static func describe(_ error: ImportError, _ l10n: Localizer) -> String {
    var place: [String] = []
    if let line = error.line { place.append(l10n("import.where.line", .integer(line))) }
    if let record = error.record {
      let key =
        switch error.list {
        case .tags: "import.where.tag"
        case .issues: "import.where.issue"
        case nil: "import.where.record"
        }
      place.append(l10n(key, .integer(record)))
    }
    let problem = problem(error.problem, l10n)
    guard !place.isEmpty else { return problem }
    return place.joined(separator: ", ") + ": " + problem
  }

  static func problem(_ problem: ImportError.Problem, _ l10n: Localizer) -> String {
    switch problem {
    case .syntax(let syntax):
      switch syntax {
      case .unexpectedEnd: return l10n("import.problem.end")
      case .unexpected(let found, let expected):
        return l10n("import.problem.unexpected", .string(found), .string(expected))
      case .invalidUTF8: return l10n("import.problem.utf8")
      case .badEscape: return l10n("import.problem.escape")
      case .badNumber: return l10n("import.problem.number")
      case .controlCharacterInString: return l10n("import.problem.control")
      case .tooDeep: return l10n("import.problem.deep")
      }
    case .unknownFormat: return l10n("import.problem.format")
    case .missingField(let field): return l10n("import.problem.missing", .string(field))
    case .wrongType(let field, let expected):
      return l10n("import.problem.type", .string(field), .string(kind(expected, l10n)))
    case .badValue(let field, let value):
      return l10n("import.problem.value", .string(field), .string(value))
    case .tooLong(let field, let limit):
      return l10n("import.problem.tooLong", .string(field), .integer(limit))
    case .newerVersion(let version): return l10n("import.problem.newer", .integer(version))
    case .unknownTag(let id): return l10n("import.problem.tag", .string(id))
    }
  }

  /// The kind of value a field should hold, in words.
  static func kind(_ expected: String, _ l10n: Localizer) -> String {
    switch expected {
    case "text": l10n("import.kind.text")
    case "list": l10n("import.kind.list")
    case "object": l10n("import.kind.object")
    case "whole number": l10n("import.kind.number")
    case "true or false": l10n("import.kind.bool")
    case "labels with names": l10n("import.kind.labels")
    default: expected
    }
  }
}
