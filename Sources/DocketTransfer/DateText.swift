import DocketCore
import Foundation

/// Dates as the formats write them, read and written exactly.
enum DateText {
  /// `2026-11-30T06:40:30Z`, `2026-11-30T06:40:30.123Z`, `2026-11-30T07:40:30+01:00` (GitHub,
  /// Docket's own), or Taskwarrior's `20261130T064030Z`. The fraction is kept to the digit: the
  /// value read is the same `Double` as the one written.
  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + digits] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += digits
      return value
    }
    func skip(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }
    guard let year = number(4) else { return nil }
    let extended = skip(UInt8(ascii: "-"))
    guard let month = number(2), !extended || skip(UInt8(ascii: "-")), let day = number(2),
      skip(UInt8(ascii: "T")) || skip(UInt8(ascii: " ")), let hour = number(2),
      !extended || skip(UInt8(ascii: ":")), let minute = number(2),
      !extended || skip(UInt8(ascii: ":")), let second = number(2)
    else { return nil }
    var fraction = ""
    if skip(UInt8(ascii: ".")) {
      let start = index
      while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
      guard index > start else { return nil }
      fraction = String(decoding: bytes[start..<index], as: UTF8.self)
    }
    var offset = 0
    if skip(UInt8(ascii: "Z")) {
    } else if index < bytes.count,
      bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
    {
      let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      index += 1
      guard let hours = number(2) else { return nil }
      _ = skip(UInt8(ascii: ":"))
      guard let minutes = number(2) else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    } else {
      return nil
    }
    guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24,
      minute < 60, second < 61
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = timegm(&parts)
    // A day that does not exist (30 February) comes back as another: refused.
    guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
    let whole = Int(seconds) - offset
    guard !fraction.isEmpty else { return Date(timeIntervalSince1970: Double(whole)) }
    // From 1970 on, the digits as written read back as the very value written; before it, the
    // fraction counts up from the whole second below.
    guard let exact = whole >= 0 ? Double("\(whole).\(fraction)") : Double("0.\(fraction)")
    else { return nil }
    return Date(timeIntervalSince1970: whole >= 0 ? exact : Double(whole) + exact)
  }

  /// `2026-11-30T06:40:30.1234567Z`: UTC, with the fraction of the second written as the shortest
  /// decimal that reads back as the same value (none when the time is whole seconds).
  static func exact(_ date: Date) -> String {
    guard date.isKept else { return ISOTime.unknown }
    let value = date.timeIntervalSince1970
    let whole = value.rounded(.down)
    var text = iso(Int(whole))
    guard value != whole else { return text }
    let shortest = value.description
    var fraction: String
    if value > 0, let dot = shortest.firstIndex(of: "."), !shortest.contains("e") {
      // Written as the integer part and the shortest round-tripping fraction of `value`: read
      // back, the digits make the same value.
      fraction = String(shortest[shortest.index(after: dot)...])
    } else {
      // Before 1970 (or a value written with an exponent), the fraction counts up from the whole
      // second below, to the tenth of a microsecond: read back within that, not to the bit.
      fraction = String(format: "%.7f", value - whole).dropFirst(2).description
      while fraction.last == "0" { fraction.removeLast() }
      if fraction.isEmpty { return text }
    }
    text.removeLast()
    return text + "." + fraction + "Z"
  }

  /// `20261130T064030Z`: Taskwarrior's form, whole seconds.
  static func compact(_ date: Date) -> String {
    guard date.isKept else { return "00000000T000000Z" }
    var text = iso(Int(date.timeIntervalSince1970.rounded(.down)))
    text.removeAll { $0 == "-" || $0 == ":" }
    return text
  }

  /// `2026-11-30 06:40:30`: for spreadsheets, UTC.
  static func spreadsheet(_ date: Date) -> String {
    guard date.isKept else { return "" }
    var bytes = Array(iso(Int(date.timeIntervalSince1970.rounded(.down))).utf8)
    bytes.removeLast()
    bytes[10] = UInt8(ascii: " ")
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `2026-11-30T06:40:30Z`: the one writer of such times (`ISOTime`, shared with the
  /// command line's JSON).
  private static func iso(_ seconds: Int) -> String {
    ISOTime.string(Date(timeIntervalSince1970: Double(seconds)))
  }
}
