import Foundation
import Localization
import Testing

@testable import DocketCore

/// Dates in rows, at the seed's own points, compact and spoken, in English and German.
@Suite struct RowDateTests {
  /// 2026-11-30 12:00 UTC.
  static let now = Date(timeIntervalSince1970: 1_796_040_000)

  static let points:
    [(ago: TimeInterval, en: String, enSpoken: String, de: String, deSpoken: String)] = [
      (30 * 60, "< 1 hour", "less than 1 hour ago", "< 1 Std.", "vor weniger als einer Stunde"),
      (3600, "> 1 hour", "1 hour ago", "> 1 Std.", "vor einer Stunde"),
      (2 * 3600, "> 2 hours", "2 hours ago", "> 2 Std.", "vor 2 Stunden"),
      (86_400, "> 1 day", "1 day ago", "> 1 Tag", "vor einem Tag"),
      (3 * 86_400, "> 3 days", "3 days ago", "> 3 Tage", "vor 3 Tagen"),
      (33 * 86_400, "28 Oct", "on 28 October", "28. Okt.", "am 28. Oktober"),
      (380 * 86_400, "> 1 year", "1 year ago", "> 1 Jahr", "vor einem Jahr"),
      (800 * 86_400, "> 2 years", "2 years ago", "> 2 Jahre", "vor 2 Jahren"),
    ]

  @Test func theSeedsPointsInBothLanguages() {
    let english = DocketStrings.localizer(language: "en")
    let german = DocketStrings.localizer(language: "de")
    for point in Self.points {
      let date = RowDate(
        Self.now.addingTimeInterval(-point.ago), now: Self.now, dayAndMonth: RowDate.utcDayAndMonth)
      #expect(english.compact(date) == point.en)
      #expect(english.spoken(date) == point.enSpoken)
      #expect(german.compact(date) == point.de)
      #expect(german.spoken(date) == point.deSpoken)
    }
  }

  @Test func theBoundaries() {
    func rowDate(_ ago: TimeInterval) -> RowDate {
      RowDate(Self.now.addingTimeInterval(-ago), now: Self.now, dayAndMonth: RowDate.utcDayAndMonth)
    }
    #expect(rowDate(3599) == .underAnHour)
    #expect(rowDate(-60) == .underAnHour)  // a clock a little ahead
    #expect(rowDate(23 * 3600 + 3599) == .hours(23))
    #expect(rowDate(6 * 86_400 + 86_399) == .days(6))
    #expect(rowDate(7 * 86_400) == .date(day: 23, month: 11))
    #expect(rowDate(364 * 86_400) == .date(day: 1, month: 12))
    #expect(rowDate(365 * 86_400) == .years(1))
    #expect(rowDate(-61) != .underAnHour)
  }

  /// A date after now (another device's clock ahead, a file's) is shown as its day, never as
  /// "< 1 hour": 2026-12-10 12:00 UTC, ten days ahead (the day is the same in any zone within
  /// eleven hours of UTC).
  @Test func aDateStillToComeIsShownAsItsDay() {
    let date = RowDate(Self.now.addingTimeInterval(10 * 86_400), now: Self.now)
    #expect(date == .ahead("2026-12-10"))
    let english = DocketStrings.localizer(language: "en")
    let german = DocketStrings.localizer(language: "de")
    #expect(english.compact(date) == "2026-12-10")
    #expect(english.spoken(date) == "on 2026-12-10, a date still to come")
    #expect(german.spoken(date) == "am 2026-12-10, ein Datum in der Zukunft")
  }
}
