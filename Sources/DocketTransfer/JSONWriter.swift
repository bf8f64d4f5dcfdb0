import DocketCore
import Foundation
import JSONText

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
    text.withUTF8 { bytes in
      // Runs that need nothing are copied whole; the bytes that start something to escape end a
      // run. C1 controls (C2 80–9F) and the direction overrides (E2 80 AA–AE, E2 81 A6–A9) are
      // found by their UTF-8 bytes.
      var start = 0
      var index = 0
      func flush() {
        if index > start { output.append(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
      }
      while index < bytes.count {
        let byte = bytes[index]
        var width = 0
        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
          width = 1
        } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
          width = 2
        } else if byte == 0xE2, index + 2 < bytes.count,
          (bytes[index + 1] == 0x80 && (0xAA...0xAE).contains(bytes[index + 2]))
            || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2]))
        {
          width = 3
        }
        guard width > 0 else {
          index += 1
          continue
        }
        flush()
        switch byte {
        case 0x22: output.append("\\\"")
        case 0x5C: output.append("\\\\")
        case 0x0A: output.append("\\n")
        case 0x0D: output.append("\\r")
        case 0x09: output.append("\\t")
        default:
          let scalar = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + width]), as: UTF8.self
          )
          .unicodeScalars.first!.value
          let hex = String(scalar, radix: 16)
          output.append("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
        }
        index += width
        start = index
      }
      flush()
    }
    output.append(byte: 0x22)
  }
}
