import Foundation

/// One value as SQLite stores it.
public enum DatabaseValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

/// A Swift type that can be bound to a statement and read back from a column.
public protocol DatabaseValueConvertible: Sendable {
  var databaseValue: DatabaseValue { get }
  /// Nil when the stored value cannot represent this type.
  init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self }
  public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension String: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(self) }
  public init?(databaseValue: DatabaseValue) {
    switch databaseValue {
    case .text(let text): self = text
    case .integer(let number): self = String(number)
    case .real(let number): self = String(number)
    case .blob(let data): self = String(decoding: data, as: UTF8.self)
    case .null: return nil
    }
  }
}

extension Int64: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self) }
  public init?(databaseValue: DatabaseValue) {
    switch databaseValue {
    case .integer(let number): self = number
    case .real(let number):
      guard let exact = Int64(exactly: number) else { return nil }
      self = exact
    default: return nil
    }
  }
}

extension Int: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }
  public init?(databaseValue: DatabaseValue) {
    guard let wide = Int64(databaseValue: databaseValue) else { return nil }
    self = Int(wide)
  }
}

extension Int32: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }
  public init?(databaseValue: DatabaseValue) {
    guard let wide = Int64(databaseValue: databaseValue), let narrow = Int32(exactly: wide) else {
      return nil
    }
    self = narrow
  }
}

extension Double: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .real(self) }
  public init?(databaseValue: DatabaseValue) {
    switch databaseValue {
    case .real(let number): self = number
    case .integer(let number): self = Double(number)
    default: return nil
    }
  }
}

extension Bool: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
  public init?(databaseValue: DatabaseValue) {
    guard let number = Int64(databaseValue: databaseValue) else { return nil }
    self = number != 0
  }
}

extension Data: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .blob(self) }
  public init?(databaseValue: DatabaseValue) {
    switch databaseValue {
    case .blob(let data): self = data
    case .text(let text): self = Data(text.utf8)
    default: return nil
    }
  }
}

/// Dates are stored as seconds since 1970 (REAL), so they compare and sort as numbers.
extension Date: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }
  public init?(databaseValue: DatabaseValue) {
    guard let seconds = Double(databaseValue: databaseValue) else { return nil }
    self = Date(timeIntervalSince1970: seconds)
  }
}

/// UUIDs are stored as lowercase canonical text, so a prefix of the text is a prefix of the id.
extension UUID: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(lowercasedText) }
  public init?(databaseValue: DatabaseValue) {
    guard case .text(let text) = databaseValue, let uuid = UUID(text: text) else {
      return nil
    }
    self = uuid
  }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
  public init?(databaseValue: DatabaseValue) {
    if case .null = databaseValue {
      self = .none
    } else if let wrapped = Wrapped(databaseValue: databaseValue) {
      self = .some(wrapped)
    } else {
      return nil
    }
  }
}
