import Database
import Files
import Foundation
import Localization

/// The words for Docket's values and errors, in the localizer's language.
extension Localizer {
  public func name(of priority: Priority) -> String { self("priority.\(priority.name)") }

  public func name(of status: SearchQuery.Status) -> String { self("status.\(status.rawValue)") }

  /// The name of a smart filter; a tag filter is named by its tag, which the caller knows.
  public func name(ofSmartFilter filter: IssueFilter) -> String? {
    switch filter {
    case .open: return self("filter.open")
    case .completed: return self("filter.completed")
    case .recent: return self("filter.recent")
    case .all: return self("filter.all")
    case .tag: return nil
    }
  }

  public func name(of award: Award) -> String { self(award.nameKey, .integer(award.value)) }

  public func description(of award: Award) -> String {
    self(award.descriptionKey, .integer(award.value))
  }

  /// One line that says what went wrong and, where it helps, what to do.
  public func message(for error: any Error) -> String {
    switch error {
    case let error as DatabaseOpenError:
      switch error {
      case .notADatabase(let path): return self("error.database.notADatabase", .string(path))
      case .foreignDatabase(let path): return self("error.database.foreign", .string(path))
      case .newerSchema(let path, let found, let supported):
        return self("error.database.newer", .string(path), .integer(found), .integer(supported))
      case .cannotOpen(let path, let reason):
        return self("error.database.cannotOpen", .string(path), .string(systemReason(reason)))
      case .logUnreadable(let path):
        return self("error.database.logUnreadable", .string(path))
      case .folder(let path):
        let folder = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return self("error.db.folder", .string(folder), .string(folder))
      }
    case let error as SQLiteError:
      if error.isBusy { return self("error.database.busy") }
      if error.isReadOnly { return self("error.database.readOnly") }
      if error.isFull { return self("error.database.full") }
      if error.isIOError { return self("error.database.io", .string(error.message)) }
      return self("error.database.other", .string(error.message))
    case let error as SearchSyntaxError:
      switch error.kind {
      case .badPriority(let value):
        return self("error.search.badPriority", .string(value), .string(error.token))
      case .badStatus(let value):
        return self("error.search.badStatus", .string(value), .string(error.token))
      case .emptyValue(let key): return self("error.search.emptyValue", .string(key + ":"))
      }
    case let error as IssueError:
      switch error {
      case .emptyTitle: return self("error.title.empty")
      case .titleTooLong(let limit): return self("error.issue.titleTooLong", .integer(limit))
      case .titleNotOneLine: return self("error.issue.titleNotOneLine")
      case .detailTooLong(let limit): return self("error.issue.detailTooLong", .integer(limit))
      }
    case let error as DeviceNameError:
      switch error {
      case .empty: return self("error.device.emptyName")
      case .tooLong(let limit): return self("error.device.nameTooLong", .integer(limit))
      }
    case let error as TagError:
      switch error {
      case .emptyName: return self("error.tag.emptyName")
      case .nameTaken(let name): return self("error.tag.nameTaken", .string(name))
      case .notFound: return self("error.tag.notFound")
      case .nameTooLong(let limit): return self("error.tag.nameTooLong", .integer(limit))
      }
    case let error as SortFileError:
      // The advice is for a folder without room; another failure is said as it is.
      let room = [ENOSPC, EDQUOT, EFBIG].contains(error.code)
      return self(
        room ? "error.sort.space" : "error.sort.file", .string(error.folder),
        .string(systemReason(FileWriting.reason(error.code))))
    case let error as SampleData.Failure:
      switch error {
      case .databaseNotEmpty(let issues, _): return self("error.sample.notEmpty", .integer(issues))
      }
    default:
      return self("error.unexpected", .string(String(describing: error)))
    }
  }
}

extension Localizer {
  /// How long ago `date` was, in words: "just now", "5 minutes ago", "vor 3 Tagen".
  public func relativeTime(_ date: Date, now: Date) -> String {
    let (key, count) = RelativeTime.parts(date, now: now)
    return count.map { self(key, .integer($0)) } ?? self(key)
  }
}

/// The unit and count a relative time is told in, so lists can reuse the words for equal ones.
public enum RelativeTime {
  public static func parts(_ date: Date, now: Date) -> (key: String, count: Int?) {
    guard date.isKept, now.isKept else { return ("time.unknown", nil) }
    let seconds = now.timeIntervalSince(date)
    if seconds < 60 { return ("time.justNow", nil) }
    let minutes = Int(seconds / 60)
    if minutes < 60 { return ("time.minutesAgo", minutes) }
    let hours = minutes / 60
    if hours < 24 { return ("time.hoursAgo", hours) }
    let days = hours / 24
    if days < 30 { return ("time.daysAgo", days) }
    if days < 365 { return ("time.monthsAgo", days / 30) }
    return ("time.yearsAgo", days / 365)
  }
}

extension Localizer {
  /// The system's reasons (`strerror`, always in English here) that a person meets most, in the
  /// reader's language; others as the system says them.
  public func systemReason(_ reason: String) -> String {
    let keys = [
      "Permission denied": "error.system.permission",
      "No such file or directory": "error.system.noFile",
      "Not a directory": "error.system.notFolder",
      "Is a directory": "error.system.isFolder",
      "Read-only file system": "error.system.readOnly",
      "No space left on device": "error.system.full",
      "File too large": "error.system.tooLarge",
      "Disk quota exceeded": "error.system.quota",
    ]
    return keys[reason].map { self($0) } ?? reason
  }
}
