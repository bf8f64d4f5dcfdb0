import DocketCore
import DocketTransfer
import Foundation
import Terminal

/// JSON written with its keys in the order given, so the documented shapes read as documented.
indirect enum JSONValue: Equatable {
  case string(String)
  case number(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }

  /// Two-space indented, one value per line, as `jq` would print it.
  func rendered(indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch self {
    case .string(let text): return Self.quote(text)
    case .number(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array(let values):
      if values.isEmpty { return "[]" }
      return "[\n" + values.map { pad + $0.rendered(indent: indent + 1) }.joined(separator: ",\n")
        + "\n" + closing + "]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      return "{\n"
        + members.map { pad + Self.quote($0.0) + ": " + $0.1.rendered(indent: indent + 1) }.joined(
          separator: ",\n")
        + "\n" + closing + "}"
    }
  }

  static func quote(_ text: String) -> String {
    var output = OutputBytes(write: { _ in })
    appendQuoted(text, to: &output)
    return String(decoding: output.bytes, as: UTF8.self)
  }

  /// Appends `text` as a JSON string (the one rule for JSON text, shared with the exports).
  static func appendQuoted(_ text: String, to output: inout OutputBytes) {
    JSONWriter.appendQuoted(text, to: &output)
  }
}

/// Times in JSON: UTC, ISO 8601, whole seconds (`2026-11-29T13:15:26Z`).
enum ISOTime {
  static func string(_ date: Date) -> String {
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
  static func local(_ date: Date) -> String { LocalTime.minutes(date) }
}
