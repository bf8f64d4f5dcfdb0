import Database
import DocketCore
import DocketSync
import Foundation
import Localization
import Terminal

/// What sync says: a sync's result, an error naming what failed and where, an issue's history.
enum SyncText {
  /// "↑ 12 changes, ↓ 3 changes", then what else happened, a line each.
  static func lines(_ report: SyncReport, _ l10n: Localizer) -> [String] {
    var lines = [
      l10n(
        "sync.result", .string(l10n("sync.count.changes", .integer(report.pushed))),
        .string(l10n("sync.count.changes", .integer(report.pulled))))
    ]
    if report.lost > 0 { lines.append(l10n("sync.lost", .integer(report.lost))) }
    if report.usedSnapshot { lines.append(l10n("sync.usedSnapshot")) }
    if report.wroteSnapshot { lines.append(l10n("sync.wroteSnapshot")) }
    for skipped in report.skipped {
      lines.append(
        l10n(
          "sync.skipped", .string(SafeText.sanitized(skipped.path)),
          .string(problem(skipped.problem, l10n))))
    }
    for device in report.waiting { lines.append(l10n("sync.waiting", .string(device))) }
    return lines
  }

  static func problem(_ problem: SkippedProblem, _ l10n: Localizer) -> String {
    switch problem {
    case .unknownName: l10n("sync.problem.unknownName")
    case .unreadable(let reason):
      l10n("sync.problem.unreadable", .string(l10n.systemReason(reason)))
    case .package(let problem):
      switch problem {
      case .partial: l10n("sync.problem.partial")
      case .garbage(let what): l10n("sync.problem.garbage", .string(what))
      case .badChange(let error):
        l10n("sync.problem.badChange", .integer(error.line), .string(error.reason))
      case .newerVersion(let version): l10n("sync.problem.newer", .integer(version))
      case .misplaced: l10n("sync.problem.misplaced")
      }
    }
  }

  /// Why a sync stopped, naming the place.
  static func describe(_ error: any Error, _ l10n: Localizer) -> String {
    if let error = error as? RemoteError {
      let place = SafeText.sanitized(error.location)
      switch error.problem {
      case .missing: return l10n("error.remote.missing", .string(place))
      case .system(let reason):
        return l10n("error.remote.system", .string(place), .string(l10n.systemReason(reason)))
      case .newerVersion(let version):
        return l10n("error.remote.newer", .string(place), .integer(version))
      case .notARemote: return l10n("error.remote.notARemote", .string(place))
      }
    }
    if let error = error as? SkippedPackage {
      return l10n(
        "sync.skipped", .string(SafeText.sanitized(error.path)),
        .string(problem(error.problem, l10n)))
    }
    return l10n("error.sync.database", .string(SafeText.sanitized(String(describing: error))))
  }

  static func json(_ report: SyncReport) -> JSONValue {
    .object([
      ("pushed", .number(report.pushed)),
      ("pulled", .number(report.pulled)),
      ("lost", .number(report.lost)),
      ("usedSnapshot", .bool(report.usedSnapshot)),
      ("wroteSnapshot", .bool(report.wroteSnapshot)),
      (
        "skipped",
        .array(
          report.skipped.map {
            .object([("path", .string($0.path)), ("problem", .string(problemCode($0.problem)))])
          })
      ),
      ("waiting", .array(report.waiting.map { .string($0) })),
    ])
  }

  static func problemCode(_ problem: SkippedProblem) -> String {
    switch problem {
    case .unknownName: "unknownName"
    case .unreadable: "unreadable"
    case .package(.partial): "partial"
    case .package(.garbage): "garbage"
    case .package(.badChange): "badChange"
    case .package(.newerVersion): "newerVersion"
    case .package(.misplaced): "misplaced"
    }
  }

  // MARK: - History

  /// `2026-11-30 09:14  Laptop  title: “Old” → “New”`
  static func line(_ entry: HistoryEntry, _ l10n: Localizer) -> String {
    let device =
      entry.deviceName.isEmpty
      ? String(entry.deviceID.prefix(8)) : SafeText.sanitized(entry.deviceName)
    let who = entry.isThisDevice ? l10n("history.thisDevice", .string(device)) : device
    var text = ISOTime.local(entry.when) + "  " + who + "  " + describe(entry, l10n)
    if entry.lost { text += "  " + l10n("history.lost") }
    return text
  }

  static func describe(_ entry: HistoryEntry, _ l10n: Localizer) -> String {
    switch entry.what {
    case .created(let title): return l10n("history.created", .string(quoted(.text(title), l10n)))
    case .deleted: return l10n("history.deleted")
    case .tag(let name, let on):
      return l10n(on ? "history.tagOn" : "history.tagOff", .string(SafeText.sanitized(name)))
    case .title, .detail, .priority, .completed, .createdDate:
      let field = l10n("history.field." + fieldName(entry.what))
      return l10n(
        "history.change", .string(field), .string(value(entry.old, entry.what, l10n)),
        .string(value(entry.new, entry.what, l10n)))
    }
  }

  static func fieldName(_ what: HistoryEntry.What) -> String {
    switch what {
    case .title: "title"
    case .detail: "detail"
    case .priority: "priority"
    case .completed: "completed"
    case .createdDate: "created"
    case .created: "create"
    case .deleted: "delete"
    case .tag: "tag"
    }
  }

  /// A value as the field shows it: a priority's name, open or completed, a date, quoted text.
  static func value(_ value: DatabaseValue, _ what: HistoryEntry.What, _ l10n: Localizer) -> String
  {
    if value == .null { return "–" }
    switch (what, value) {
    case (.priority, .integer(let raw)):
      return l10n(["priority.low", "priority.medium", "priority.high"][Int(max(0, min(2, raw)))])
    case (.completed, .integer(let done)):
      return l10n(done == 1 ? "status.completed" : "status.open")
    case (.createdDate, .real(let seconds)):
      return ISOTime.local(Date(timeIntervalSince1970: seconds))
    default:
      return quoted(value, l10n)
    }
  }

  /// Text on one line, at most 60 characters, in the reader's quotes.
  static func quoted(_ value: DatabaseValue, _ l10n: Localizer) -> String {
    guard case .text(let text) = value else { return String(describing: value) }
    let flat = SafeText.sanitized(
      text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " "))
    let short = flat.count > 60 ? String(flat.prefix(59)) + "…" : flat
    return l10n("history.quoted", .string(short))
  }

  static func json(_ entry: HistoryEntry) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("time", .string(ISOTime.string(entry.when))),
      ("stamp", .string(String(entry.stamp))),
      (
        "device",
        .object([("id", .string(entry.deviceID)), ("name", .string(entry.deviceName))])
      ),
      ("thisDevice", .bool(entry.isThisDevice)),
    ]
    switch entry.what {
    case .created(let title):
      members.append(("change", .string("create")))
      members.append(("title", .string(title)))
    case .deleted:
      members.append(("change", .string("delete")))
    case .tag(let name, let on):
      members.append(("change", .string(on ? "tagAdded" : "tagRemoved")))
      members.append(("tag", .string(name)))
    default:
      members.append(("change", .string("field")))
      members.append(("field", .string(fieldName(entry.what))))
      members.append(("old", jsonValue(entry.old)))
      members.append(("new", jsonValue(entry.new)))
    }
    members.append(("lost", .bool(entry.lost)))
    return .object(members)
  }

  static func jsonValue(_ value: DatabaseValue) -> JSONValue {
    switch value {
    case .null: .null
    case .integer(let number): .number(Int(number))
    case .real(let seconds): .string(ISOTime.string(Date(timeIntervalSince1970: seconds)))
    case .text(let text): .string(text)
    case .blob: .null
    }
  }
}
