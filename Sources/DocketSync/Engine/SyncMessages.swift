import Database
import DocketCore
import Foundation
import Localization

/// What sync says, in the reader's language, for every face: a sync's result, a line of an
/// issue's history. The words are plain text; a face that shows them on a terminal makes them
/// safe there.
public enum SyncMessages {
  /// "↑ 12 changes, ↓ 3 changes"
  public static func result(_ report: SyncReport, _ l10n: Localizer) -> String {
    l10n(
      "sync.result", .string(l10n("sync.count.changes", .integer(report.pushed))),
      .string(l10n("sync.count.changes", .integer(report.pulled))))
  }

  /// What else a sync has to say beyond its count: devices whose clocks run ahead, this
  /// device's own clock, changes set aside, a stamp sent twice, this database become a new
  /// device.
  public static func notes(_ report: SyncReport, _ l10n: Localizer) -> [String] {
    var lines: [String] = []
    switch report.newDevice {
    case .copied?: lines.append(l10n("sync.newDevice.copied"))
    case .clockRepaired?: lines.append(l10n("sync.newDevice.clock"))
    case nil: break
    }
    if report.clockLooksBehind, let nearest = report.held.map(\.ahead).min() {
      lines.append(
        l10n(
          "sync.clockBehind", .integer(report.held.count), .string(duration(nearest, l10n))))
    } else {
      for device in report.held {
        lines.append(
          l10n(
            "sync.held", .string(device.name), .string(duration(device.ahead, l10n)),
            .integer(device.changes)))
      }
    }
    if report.void > 0 { lines.append(l10n("sync.void", .integer(report.void))) }
    for device in report.twins { lines.append(l10n("sync.twins", .string(device))) }
    return lines
  }

  /// "365 days", "3 hours", "6 minutes": how far ahead a clock is, roughly.
  public static func duration(_ seconds: TimeInterval, _ l10n: Localizer) -> String {
    let minutes = max(1, Int(min(seconds, 1e12) / 60))
    if minutes < 120 { return l10n("sync.duration.minutes", .integer(minutes)) }
    if minutes < 2 * 1440 { return l10n("sync.duration.hours", .integer(minutes / 60)) }
    return l10n("sync.duration.days", .integer(minutes / 1440))
  }

  /// The device that made a change, as a person knows it.
  public static func device(_ entry: HistoryEntry, _ l10n: Localizer) -> String {
    let name = entry.deviceName.isEmpty ? String(entry.deviceID.prefix(8)) : entry.deviceName
    return entry.isThisDevice ? l10n("history.thisDevice", .string(name)) : name
  }

  /// `title: “Old” → “New”`, `tag bug added`, `created “Fix it”`, and the mark of a lost value.
  public static func change(_ entry: HistoryEntry, _ l10n: Localizer) -> String {
    var text: String
    switch entry.what {
    case .created(let title): text = l10n("history.created", .string(quoted(.text(title), l10n)))
    case .deleted: text = l10n("history.deleted")
    case .purged: text = l10n("history.purged")
    case .restored(let title):
      text = l10n("history.restored", .string(quoted(.text(title), l10n)))
    case .tag(let name, let on): text = l10n(on ? "history.tagOn" : "history.tagOff", .string(name))
    case .title, .detail, .priority, .completed, .createdDate:
      text = l10n(
        "history.change", .string(fieldLabel(entry.what, l10n)),
        .string(value(entry.old, entry.what, l10n)), .string(value(entry.new, entry.what, l10n)))
    case .dismissed(let field):
      text = l10n("history.dismissed", .string(l10n("history.field.\(field)")))
    }
    if let step = entry.step, step != .action { text += "  " + l10n("history.\(step.rawValue)") }
    if entry.lost { text += "  " + l10n("history.lost") }
    if entry.waiting { text += "  " + l10n("history.waiting") }
    return text
  }

  /// `2026-11-30 09:14  Laptop  title: “Old” → “New”`
  public static func line(_ entry: HistoryEntry, _ l10n: Localizer) -> String {
    ISOTime.local(entry.when) + "  " + device(entry, l10n) + "  " + change(entry, l10n)
  }

  /// A field's name in the reader's language: the catalog's `history.field.` and its JSON name.
  static func fieldLabel(_ what: HistoryEntry.What, _ l10n: Localizer) -> String {
    l10n("history.field.\(fieldName(what))")
  }

  /// A field's name in JSON.
  public static func fieldName(_ what: HistoryEntry.What) -> String {
    switch what {
    case .title: "title"
    case .detail: "detail"
    case .priority: "priority"
    case .completed: "completed"
    case .createdDate: "created"
    case .created: "create"
    case .deleted: "delete"
    case .purged: "purge"
    case .restored: "restore"
    case .tag: "tag"
    case .dismissed: "dismiss"
    }
  }

  /// A value as the field shows it: a priority's name, open or completed, a date, quoted text.
  public static func value(_ value: DatabaseValue, _ what: HistoryEntry.What, _ l10n: Localizer)
    -> String
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
    let flat = text.split(omittingEmptySubsequences: true) { $0.isNewline }.joined(separator: " ")
    let short = flat.count > 60 ? String(flat.prefix(59)) + "…" : flat
    return l10n("history.quoted", .string(short))
  }

  // MARK: - Problems

  public static func problem(_ problem: SkippedProblem, _ l10n: Localizer) -> String {
    switch problem {
    case .unknownName: l10n("sync.problem.unknownName")
    case .link: l10n("sync.problem.link")
    case .notAFile: l10n("sync.problem.notAFile")
    case .unreadable(let reason):
      l10n("sync.problem.unreadable", .string(l10n.systemReason(reason)))
    case .package(let problem):
      switch problem {
      case .partial: l10n("sync.problem.partial")
      case .garbage(.notJSON): l10n("sync.problem.garbage.notJSON")
      case .garbage(.notDocket): l10n("sync.problem.garbage.notDocket")
      case .garbage(.incompleteHeader): l10n("sync.problem.garbage.incompleteHeader")
      case .badChange(let error):
        l10n("sync.problem.badChange", .integer(error.line), .string(reason(error.reason, l10n)))
      case .newerVersion(let version): l10n("sync.problem.newer", .integer(version))
      case .misplaced: l10n("sync.problem.misplaced")
      case .rejected(let reason): l10n("sync.problem.rejected", .string(reason))
      case .moreBadLines(let count): l10n("sync.problem.moreBadLines", .integer(count))
      case .tooLarge(let limit):
        l10n("sync.problem.tooLarge", .integer(Int(min(limit >> 20, Int64(Int.max)))))
      case .notSealed: l10n("sync.problem.notSealed")
      case .unsealable: l10n("sync.problem.unsealable")
      }
    }
  }

  /// Why a line of a package held no change Docket could make.
  static func reason(_ reason: ChangeFormatError.Reason, _ l10n: Localizer) -> String {
    switch reason {
    case .notJSON: l10n("sync.change.notJSON")
    case .stamp: l10n("sync.change.stamp")
    case .device: l10n("sync.change.device")
    case .kind: l10n("sync.change.kind")
    case .row: l10n("sync.change.row")
    case .field: l10n("sync.change.field")
    case .modified: l10n("sync.change.modified")
    case .value(let field): l10n("sync.change.value", .string(field))
    case .oldValue(let field): l10n("sync.change.oldValue", .string(field))
    case .notOneLine: l10n("sync.change.notOneLine")
    case .tooLong(let field, let limit):
      l10n("sync.change.tooLong", .string(field), .integer(limit))
    case .forged(let claimed): l10n("sync.change.forged", .string(String(claimed.prefix(8))))
    }
  }

  /// Why a sync stopped, naming the place.
  public static func failure(_ error: any Error, _ l10n: Localizer) -> String {
    if let error = error as? RemoteError {
      let place = error.location
      switch error.problem {
      case .missing: return l10n("error.remote.missing", .string(place))
      case .spaceMissing: return l10n("error.remote.space.missing", .string(place))
      case .denied(let reason): return l10n("error.remote.denied", .string(place), .string(reason))
      case .system(let reason), .unreachable(let reason):
        return l10n("error.remote.system", .string(place), .string(l10n.systemReason(reason)))
      case .newerVersion(let version):
        return l10n("error.remote.newer", .string(place), .integer(version))
      case .notARemote: return l10n("error.remote.notARemote", .string(place))
      case .replaced: return l10n("error.remote.replaced", .string(place))
      case .numberTaken: return l10n("error.remote.numberTaken", .string(place))
      case .notOwnFolder: return l10n("error.remote.notOwnFolder", .string(place))
      case .encrypted: return l10n("error.remote.encrypted", .string(place))
      case .keyRefused: return l10n("error.remote.keyRefused", .string(place))
      case .noLongerEncrypted: return l10n("error.remote.noLongerEncrypted", .string(place))
      case .sealingUnavailable(let reason): return reason
      }
    }
    if error is SyncBusy { return l10n("error.sync.busy") }
    if let error = error as? SkippedPackage {
      return l10n(
        "sync.skipped", .string(error.path),
        .string(problem(error.problem, l10n)))
    }
    return l10n("error.sync.database", .string(describe(error, l10n)))
  }

  /// Why encryption could not be set up or used.
  public static func sealing(_ error: SealingError, _ l10n: Localizer) -> String {
    switch error {
    case .library(let reason): reason
    case .derivation: l10n("error.sealing.derivation")
    case .wrongPassphrase: l10n("error.sealing.wrongPassphrase")
    case .notEncrypted: l10n("error.sealing.notEncrypted")
    case .alreadyEncrypted: l10n("error.sealing.alreadyEncrypted")
    case .raced: l10n("error.sealing.raced")
    case .unreadableRecord: l10n("error.sealing.unreadableRecord")
    }
  }

  static func describe(_ error: any Error, _ l10n: Localizer) -> String {
    l10n.message(for: error)
  }
}
