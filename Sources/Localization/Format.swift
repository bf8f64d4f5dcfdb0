import Foundation

/// A value to put into a localised template.
public enum FormatArgument: Sendable, Equatable {
  case string(String)
  case integer(Int)
  case double(Double)

  var text: String {
    switch self {
    case .string(let string): return string
    case .integer(let number): return String(number)
    case .double(let number): return String(number)
    }
  }
}

extension FormatArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .integer(value) }
}

/// Fills a printf-style template as String Catalogs write them: `%@`, `%lld`, `%ld`, `%d`, `%f`
/// and `%.2f`, positional forms such as `%2$@`, and `%%`. Arguments missing for a placeholder
/// leave it empty rather than crash.
public enum TemplateFormatter {
  public static func format(_ template: String, _ arguments: [FormatArgument]) -> String {
    var result = ""
    var nextArgument = 0
    var index = template.startIndex
    while index < template.endIndex {
      let character = template[index]
      guard character == "%" else {
        result.append(character)
        index = template.index(after: index)
        continue
      }
      var cursor = template.index(after: index)
      guard cursor < template.endIndex else {
        result.append("%")
        break
      }
      if template[cursor] == "%" {
        result.append("%")
        index = template.index(after: cursor)
        continue
      }
      // Optional position: digits followed by `$`.
      var digits = ""
      var scan = cursor
      while scan < template.endIndex, template[scan].isASCII, template[scan].isNumber {
        digits.append(template[scan])
        scan = template.index(after: scan)
      }
      var position: Int?
      if !digits.isEmpty, scan < template.endIndex, template[scan] == "$" {
        position = Int(digits).map { $0 - 1 }
        cursor = template.index(after: scan)
      }
      // Optional precision, then length modifiers, then the conversion.
      var precision: Int?
      if cursor < template.endIndex, template[cursor] == "." {
        cursor = template.index(after: cursor)
        var precisionDigits = ""
        while cursor < template.endIndex, template[cursor].isASCII, template[cursor].isNumber {
          precisionDigits.append(template[cursor])
          cursor = template.index(after: cursor)
        }
        precision = Int(precisionDigits)
      }
      while cursor < template.endIndex, "lhqzjt".contains(template[cursor]) {
        cursor = template.index(after: cursor)
      }
      guard cursor < template.endIndex else {
        result += template[index...]
        break
      }
      let conversion = template[cursor]
      guard "@diufsc".contains(conversion) else {
        // Not a placeholder this formatter knows: keep the text as written.
        result += template[index...cursor]
        index = template.index(after: cursor)
        continue
      }
      let argumentIndex = position ?? nextArgument
      if position == nil { nextArgument += 1 }
      if arguments.indices.contains(argumentIndex) {
        let argument = arguments[argumentIndex]
        if conversion == "f", let precision {
          let number: Double
          switch argument {
          case .double(let value): number = value
          case .integer(let value): number = Double(value)
          case .string(let value): number = Double(value) ?? 0
          }
          result += String(format: "%.\(precision)f", number)
        } else {
          result += argument.text
        }
      }
      index = template.index(after: cursor)
    }
    return result
  }
}
