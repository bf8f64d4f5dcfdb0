import Foundation

/// Times in JSON: UTC, ISO 8601, whole seconds (`2026-11-29T13:15:26Z`).
public enum ISOTime {
  /// What a date Docket does not keep (`Date.isKept`) is written as: no date at all (month 0),
  /// which an import refuses, naming the record.
  public static let unknown = "0000-00-00T00:00:00Z"

  public static func string(_ date: Date) -> String {
    guard date.isKept else { return unknown }
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    guard (0...9999).contains(parts.tm_year + 1900) else {
      return String(
        format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900,
        Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
        Int(parts.tm_sec))
    }
    // Written digit by digit: a list of a million issues writes two million of these.
    return String(unsafeUninitializedCapacity: 20) { buffer in
      func put(_ value: Int32, digits: Int, at position: Int) {
        var rest = value
        for offset in stride(from: digits - 1, through: 0, by: -1) {
          buffer[position + offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
          rest /= 10
        }
      }
      put(parts.tm_year + 1900, digits: 4, at: 0)
      buffer[4] = UInt8(ascii: "-")
      put(parts.tm_mon + 1, digits: 2, at: 5)
      buffer[7] = UInt8(ascii: "-")
      put(parts.tm_mday, digits: 2, at: 8)
      buffer[10] = UInt8(ascii: "T")
      put(parts.tm_hour, digits: 2, at: 11)
      buffer[13] = UInt8(ascii: ":")
      put(parts.tm_min, digits: 2, at: 14)
      buffer[16] = UInt8(ascii: ":")
      put(parts.tm_sec, digits: 2, at: 17)
      buffer[19] = UInt8(ascii: "Z")
      return 20
    }
  }

  /// Local date and time for people (`2026-11-29 14:15`).
  public static func local(_ date: Date) -> String { LocalTime.minutes(date) }
}
