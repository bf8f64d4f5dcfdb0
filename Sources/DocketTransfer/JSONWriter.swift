import DocketCore
import Foundation

/// JSON written as bytes: compact, members in the order given.
public enum JSONWriter {
  public static func append(_ value: JSON, to output: inout OutputBytes) {
    switch value {
    case .string(let text): appendQuoted(text, to: &output)
    case .number(let number):
      if number == number.rounded(), abs(number) < 1e15 {
        output.append(String(Int64(number)))
      } else {
        output.append(number.description)
      }
    case .bool(let flag): output.append(flag ? "true" : "false")
    case .null: output.append("null")
    case .array(let values):
      output.append(byte: UInt8(ascii: "["))
      for (index, element) in values.enumerated() {
        if index > 0 { output.append(byte: UInt8(ascii: ",")) }
        append(element, to: &output)
      }
      output.append(byte: UInt8(ascii: "]"))
    case .object(let members):
      output.append(byte: UInt8(ascii: "{"))
      for (index, (key, element)) in members.enumerated() {
        if index > 0 { output.append(byte: UInt8(ascii: ",")) }
        appendQuoted(key, to: &output)
        output.append(byte: UInt8(ascii: ":"))
        append(element, to: &output)
      }
      output.append(byte: UInt8(ascii: "}"))
    }
  }

  /// The value as compact JSON text.
  public static func text(_ value: JSON) -> String {
    var output = OutputBytes(write: { _ in })
    append(value, to: &output)
    return String(decoding: output.bytes, as: UTF8.self)
  }

  /// Appends `text` as a JSON string. Text of printable ASCII without quotes or backslashes (most
  /// titles) is copied whole; the rest is escaped a character at a time. Controls (C0, DEL, C1)
  /// and the direction overrides are written as escapes: the text stays exact for a program that
  /// reads it, and nothing in it is obeyed by a terminal that shows it.
  public static func appendQuoted(_ text: String, to output: inout OutputBytes) {
    output.append(byte: 0x22)
    var text = text
    let plain = text.withUTF8 { bytes in
      guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else {
        return false
      }
      output.append(bytes)
      return true
    }
    if !plain {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output.append("\\\"")
        case "\\": output.append("\\\\")
        case "\n": output.append("\\n")
        case "\r": output.append("\\r")
        case "\t": output.append("\\t")
        case _ where isControl(scalar):
          let hex = String(scalar.value, radix: 16)
          output.append("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
        default:
          output.append(String(scalar))
        }
      }
    }
    output.append(byte: 0x22)
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
