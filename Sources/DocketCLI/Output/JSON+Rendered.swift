import DocketCore
import DocketTransfer
import Foundation
import JSONText
import Terminal

/// JSON written for reading: with its keys in the order given, so the documented shapes read as
/// documented.
extension JSON {
  /// A whole number (a count, seconds): written without a fraction.
  static func integer(_ value: Int) -> JSON { .number(Double(value)) }

  /// Two-space indented, one value per line, as `jq` would print it.
  func rendered(indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch self {
    case .string(let text): return Self.quote(text)
    case .number: return JSONWriter.text(self)
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
