/// A JSON value as read from an imported file. Objects keep their members in file order.
public indirect enum JSON: Equatable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The member `key` of an object (the last one, where a file repeats a key).
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  public var string: String? { if case .string(let text) = self { text } else { nil } }
  public var number: Double? { if case .number(let value) = self { value } else { nil } }
  public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  public var array: [JSON]? { if case .array(let values) = self { values } else { nil } }
  public var members: [(String, JSON)]? {
    if case .object(let members) = self { members } else { nil }
  }
}

/// Where in a file something is: a line (from 1) and a column (in characters, from 1).
public struct TextPosition: Equatable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public var description: String { "\(line):\(column)" }
}

/// Why a file is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Problem: Equatable, Sendable {
    case unexpectedEnd
    case unexpected(character: String, expected: String)
    case invalidUTF8
    case badEscape
    case badNumber
    case controlCharacterInString
    case tooDeep
  }

  public var problem: Problem
  public var position: TextPosition

  /// In English, for a developer's file (a program's own catalog); what users read is localised
  /// by the program from `problem`.
  public var description: String {
    let what =
      switch problem {
      case .unexpectedEnd: "the text ends too soon"
      case .unexpected(let character, let expected): "expected \(expected), found “\(character)”"
      case .invalidUTF8: "bytes that are not UTF-8"
      case .badEscape: "an unknown escape or a lone surrogate"
      case .badNumber: "a malformed number"
      case .controlCharacterInString: "a control character inside a string"
      case .tooDeep: "nested too deeply"
      }
    return "\(what) at line \(position.line), column \(position.column)"
  }
}
