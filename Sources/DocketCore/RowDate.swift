import Foundation
import Localization

/// When an issue last changed, as the seed's rows show it: compact ("< 1 hour", "> 2 hours",
/// "> 3 days", "29 Oct" from a week, "> 1 year" from a year), and read aloud ("less than 1 hour
/// ago", "2 hours ago", "3 days ago", "on 29 October", "1 year ago") for screen readers and
/// labels. The detail and `show` give the full date and time besides.
public enum RowDate: Hashable, Sendable {
  case underAnHour
  case hours(Int)
  case days(Int)
  /// Day of the month and month (1–12), in the local time zone.
  case date(day: Int, month: Int)
  case years(Int)
  /// A date more than a minute after now (another device's clock ahead, an imported file), as
  /// its day in full ("2031-10-29"): never "< 1 hour".
  case ahead(String)
  /// A date Docket does not keep (`Date.isKept`: not in years 1970 to 9999), written by an older
  /// version or by hand: shown as unknown, never counted with.
  case unknown

  /// The day and month of a moment in the local time zone (tests pass UTC).
  public typealias DayAndMonth = @Sendable (Date) -> (day: Int, month: Int)

  public static let localDayAndMonth: DayAndMonth = { date in
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var parts = tm()
    localtime_r(&seconds, &parts)
    return (Int(parts.tm_mday), Int(parts.tm_mon) + 1)
  }

  public static let utcDayAndMonth: DayAndMonth = { date in
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return (Int(parts.tm_mday), Int(parts.tm_mon) + 1)
  }

  public init(_ date: Date, now: Date, dayAndMonth: DayAndMonth = RowDate.localDayAndMonth) {
    guard date.isKept, now.isKept else {
      self = .unknown
      return
    }
    let seconds = now.timeIntervalSince(date)
    if seconds < -60 {
      self = .ahead(String(LocalTime.minutes(date).prefix(10)))
      return
    }
    let hours = Int(seconds / 3600)
    let days = Int(seconds / 86_400)
    if hours < 1 {
      self = .underAnHour
    } else if hours < 24 {
      self = .hours(hours)
    } else if days < 7 {
      self = .days(days)
    } else if days < 365 {
      let (day, month) = dayAndMonth(date)
      self = .date(day: day, month: month)
    } else {
      self = .years(days / 365)
    }
  }
}

extension Localizer {
  /// The compact form of a row's date.
  public func compact(_ rowDate: RowDate) -> String {
    switch rowDate {
    case .underAnHour: return self("time.row.underHour")
    case .hours(let hours): return self("time.row.hours", .integer(hours))
    case .days(let days): return self("time.row.days", .integer(days))
    case .date(let day, let month):
      return self("time.row.date", .integer(day), .string(self("month.short.\(month)")))
    case .years(let years): return self("time.row.years", .integer(years))
    case .ahead(let day): return day
    case .unknown: return self("time.row.unknown")
    }
  }

  /// The form of a row's date read aloud.
  public func spoken(_ rowDate: RowDate) -> String {
    switch rowDate {
    case .underAnHour: return self("time.spoken.underHour")
    case .hours(let hours): return self("time.spoken.hours", .integer(hours))
    case .days(let days): return self("time.spoken.days", .integer(days))
    case .date(let day, let month):
      return self("time.spoken.date", .integer(day), .string(self("month.long.\(month)")))
    case .years(let years): return self("time.spoken.years", .integer(years))
    case .ahead(let day): return self("time.spoken.ahead", .string(day))
    case .unknown: return self("time.spoken.unknown")
    }
  }
}

/// Moments in the local time zone, to the minute ("2026-11-28 14:03").
public enum LocalTime {
  /// What a date Docket does not keep (`Date.isKept`) is shown as, in every language.
  public static let unknown = "????-??-?? ??:??"

  public static func minutes(_ date: Date) -> String {
    guard date.isKept else { return unknown }
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
  }

  /// The time of day alone ("14:03").
  public static func clock(_ date: Date) -> String {
    String(minutes(date).suffix(5))
  }
}
