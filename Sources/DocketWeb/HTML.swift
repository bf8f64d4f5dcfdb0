/// Markup built so that text cannot become markup: a `String` interpolated into `HTML` is
/// escaped for HTML text and for quoted attribute values alike; only `HTML` goes in as it is.
/// Every attribute of the pages is quoted with `"`.
public struct HTML: Equatable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
  public private(set) var text: String

  public init(stringLiteral value: String) { text = value }

  public init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

  init(raw text: String) { self.text = text }

  public static let empty = HTML(raw: "")

  /// `markup` when `condition` holds, else nothing (for attributes such as ` selected`).
  public static func when(_ condition: Bool, _ markup: HTML) -> HTML { condition ? markup : .empty }

  public var description: String { text }

  public struct Interpolation: StringInterpolationProtocol {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + interpolationCount * 16)
    }

    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// Text: escaped.
    public mutating func appendInterpolation(_ value: String) { HTML.escape(value, into: &text) }

    public mutating func appendInterpolation(_ value: Int) { text += String(value) }

    /// Markup: as it is.
    public mutating func appendInterpolation(_ value: HTML) { text += value.text }

    public mutating func appendInterpolation(_ values: [HTML]) {
      for value in values { text += value.text }
    }
  }

  public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(raw: lhs.text + rhs.text) }

  public static func += (lhs: inout HTML, rhs: HTML) { lhs.text += rhs.text }

  /// `&`, `<`, `>`, `"` and `'` as character references; control characters other than tab,
  /// line feed and carriage return (which HTML does not allow) as U+FFFD.
  static func escape(_ value: String, into output: inout String) {
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          output += "\u{FFFD}"
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
  }

  /// `value` escaped, as a string (for tests and attribute building).
  public static func escaped(_ value: String) -> String {
    var output = ""
    escape(value, into: &output)
    return output
  }
}

/// Percent-encoding of query values and path parts: only unreserved characters stay as they are,
/// so a value can never end the parameter, start another or leave the URL.
enum URLText {
  static func encode(_ value: String) -> String {
    var output = ""
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        output.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF")
        output += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
      }
    }
    return output
  }

  /// `name=value&…`, each part encoded.
  static func query(_ parameters: [(String, String)]) -> String {
    parameters.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
  }
}
