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
