import Database
import DocketCore
import DocketSync
import DocketTransfer
import Foundation
import JSONText
import Localization
import Terminal

/// What sync says: a sync's result, an error naming what failed and where, an issue's history.
enum SyncText {
  /// "↑ 12 changes, ↓ 3 changes", then what else happened, a line each.
  static func lines(_ report: SyncReport, _ l10n: Localizer) -> [String] {
    var lines = [SyncMessages.result(report, l10n)]
    if report.lost > 0 { lines.append(l10n("sync.lost", .integer(report.lost))) }
    if report.usedSnapshot { lines.append(l10n("sync.usedSnapshot")) }
    if report.wroteSnapshot { lines.append(l10n("sync.wroteSnapshot")) }
    for skipped in report.skipped {
      lines.append(
        l10n(
          "sync.skipped", .string(SafeText.sanitized(skipped.path)),
          .string(SyncMessages.problem(skipped.problem, l10n))))
    }
    for device in report.waiting { lines.append(l10n("sync.waiting", .string(device))) }
    lines += SyncMessages.notes(report, l10n).map { SafeText.sanitized($0) }
    return lines
  }

  static func json(_ report: SyncReport) -> JSON {
    .object([
      ("pushed", .integer(report.pushed)),
      ("pulled", .integer(report.pulled)),
      ("lost", .integer(report.lost)),
      ("usedSnapshot", .bool(report.usedSnapshot)),
      ("usedImage", .bool(report.usedImage)),
      ("wroteSnapshot", .bool(report.wroteSnapshot)),
      (
        "skipped",
        .array(
          report.skipped.map {
            .object([("path", .string($0.path)), ("problem", .string(problemCode($0.problem)))])
          })
      ),
      ("waiting", .array(report.waiting.map { .string($0) })),
      ("pushRefused", report.pushRefused.map { .string($0) } ?? .null),
      (
        "held",
        .array(
          report.held.map {
            .object([
              ("device", .string($0.id)), ("name", .string($0.name)),
              ("changes", .integer($0.changes)), ("aheadSeconds", .integer(Int($0.ahead))),
            ])
          })
      ),
      ("clockLooksBehind", .bool(report.clockLooksBehind)),
      ("void", .integer(report.void)),
      ("twins", .array(report.twins.map { .string($0) })),
      (
        "newDevice",
        report.newDevice.map { .string($0 == .copied ? "copied" : "clockRepaired") } ?? .null
      ),
    ])
  }

  static func problemCode(_ problem: SkippedProblem) -> String {
    switch problem {
    case .unknownName: "unknownName"
    case .link: "link"
    case .notAFile: "notAFile"
    case .unreadable: "unreadable"
    case .package(.tooLarge): "tooLarge"
    case .package(.moreBadLines): "badChange"
    case .package(.partial): "partial"
    case .package(.garbage): "garbage"
    case .package(.badChange): "badChange"
    case .package(.newerVersion): "newerVersion"
    case .package(.misplaced): "misplaced"
    case .package(.rejected): "rejected"
    case .package(.notSealed): "notSealed"
    case .package(.unsealable): "unsealable"
    }
  }

  // MARK: - History

  static func json(_ entry: HistoryEntry) -> JSON {
    var members: [(String, JSON)] = [
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
    case .restored(let title):
      members.append(("change", .string("restore")))
      members.append(("title", .string(title)))
    case .tag(let name, let on):
      members.append(("change", .string(on ? "tagAdded" : "tagRemoved")))
      members.append(("tag", .string(name)))
    case .purged:
      members.append(("change", .string("purge")))
    case .dismissed(let field):
      members.append(("change", .string("dismiss")))
      members.append(("field", .string(field)))
    default:
      members.append(("change", .string("field")))
      members.append(("field", .string(SyncMessages.fieldName(entry.what))))
      members.append(("old", jsonValue(entry.old)))
      members.append(("new", jsonValue(entry.new)))
    }
    members.append(("lost", .bool(entry.lost)))
    members.append(("waiting", .bool(entry.waiting)))
    if let step = entry.step, step != .action { members.append(("step", .string(step.rawValue))) }
    return .object(members)
  }

  static func jsonValue(_ value: DatabaseValue) -> JSON {
    switch value {
    case .null: .null
    case .integer(let number): .integer(Int(number))
    case .real(let seconds): .string(ISOTime.string(Date(timeIntervalSince1970: seconds)))
    case .text(let text): .string(text)
    case .blob: .null
    }
  }
}
