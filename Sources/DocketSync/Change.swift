import Database
import DocketCore
import DocketTransfer
import Foundation

/// When a change was made: a hybrid-logical-clock stamp and the device, whose id breaks a tie.
public struct Stamp: Comparable, Hashable, Sendable, CustomStringConvertible {
  public var hlc: Int64
  public var device: String

  public init(hlc: Int64, device: String) {
    self.hlc = hlc
    self.device = device
  }

  public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
    lhs.hlc != rhs.hlc ? lhs.hlc < rhs.hlc : lhs.device < rhs.device
  }

  public var description: String { "\(hlc)@\(device)" }
}

/// One change to one field of one row, as it travels between devices.
public struct Change: Equatable, Sendable {
  public enum Entity: String, Sendable, CaseIterable {
    case issue, tag, link
  }

  public var stamp: Stamp
  public var entity: Entity
  /// The issue's id (for an issue or a link) or the tag's.
  public var row: String
  /// `create`, `delete`, an issue's field, `name`, or (for a link) the tag's id.
  public var field: String
  public var old: DatabaseValue
  public var new: DatabaseValue
  /// The issue's `modified` after the change (seconds since 1970), kept by whoever applies it.
  public var modified: Double?

  public init(
    stamp: Stamp, entity: Entity, row: String, field: String, old: DatabaseValue = .null,
    new: DatabaseValue = .null, modified: Double? = nil
  ) {
    self.stamp = stamp
    self.entity = entity
    self.row = row
    self.field = field
    self.old = old
    self.new = new
    self.modified = modified
  }
}

/// Why a line of a change file could not be read.
public struct ChangeFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  public var line: Int
  public var reason: String
  public var description: String { "line \(line): \(reason)" }

  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }
}

/// A change as one line of JSON:
/// `{"h":"<stamp>","d":"<device>","e":"issue","r":"<row>","f":"title","o":…,"n":…,"m":…}`.
/// The stamp is a decimal string (it does not fit a JSON number exactly); values are JSON strings,
/// numbers or null, read back as the field's type.
extension Change {
  public func appendJSON(to output: inout OutputBytes) {
    var members: [(String, JSON)] = [
      ("h", .string(String(stamp.hlc))), ("d", .string(stamp.device)),
      ("e", .string(entity.rawValue)), ("r", .string(row)), ("f", .string(field)),
    ]
    if old != .null { members.append(("o", Self.json(old))) }
    if new != .null { members.append(("n", Self.json(new))) }
    if let modified { members.append(("m", .number(modified))) }
    JSONWriter.append(.object(members), to: &output)
  }

  static func json(_ value: DatabaseValue) -> JSON {
    switch value {
    case .null: .null
    case .integer(let number): .number(Double(number))
    case .real(let number): .number(number)
    case .text(let text): .string(text)
    case .blob(let data): .string(String(decoding: data, as: UTF8.self))
    }
  }

  /// Reads one change from a JSON object; `line` names it in an error.
  public init(json: JSON, line: Int) throws(ChangeFormatError) {
    func fail(_ reason: String) -> ChangeFormatError {
      ChangeFormatError(line: line, reason: reason)
    }
    guard case .object = json else { throw fail("not a JSON object") }
    // A stamp is milliseconds since 1970 shifted 16 bits: anything past the year 4200 is not
    // one, and would push every clock that saw it beyond reach.
    guard let stampText = json["h"]?.string, let hlc = Int64(stampText), hlc > 0,
      hlc < Self.latestStamp
    else {
      throw fail("no valid stamp (h)")
    }
    guard let device = json["d"]?.string, UUID(text: device) != nil else {
      throw fail("no valid device id (d)")
    }
    guard let entityText = json["e"]?.string, let entity = Entity(rawValue: entityText) else {
      throw fail("no valid kind (e)")
    }
    guard let row = json["r"]?.string, UUID(text: row) != nil else {
      throw fail("no valid row id (r)")
    }
    guard let field = json["f"]?.string, Self.isKnown(field: field, of: entity) else {
      throw fail("no valid field (f)")
    }
    let modified: Double?
    switch json["m"] {
    case nil, .null?: modified = nil
    case .number(let value)?: modified = value
    default: throw fail("modified (m) is not a number")
    }
    self.init(
      stamp: Stamp(hlc: hlc, device: device.lowercased()), entity: entity, row: row.lowercased(),
      field: field.lowercased(), modified: modified)
    self.old = try Self.value(json["o"], field: self.field, entity: entity, line: line)
    self.new = try Self.value(json["n"], field: self.field, entity: entity, line: line)
    guard Self.isValid(self.new, field: self.field, entity: entity) else {
      throw fail("\(self.field) has no valid new value (n)")
    }
  }

  /// About the year 4200: no clock gets there, and stamps that high still have room to count.
  static let latestStamp: Int64 = 1 << 62

  /// Whether a change's new value is one its field can take: text for a title or detail, 0 to 2
  /// for a priority, 0 or 1 for completed and for a link, a time for created, a name for a tag, a
  /// JSON object for a create.
  static func isValid(_ value: DatabaseValue, field: String, entity: Entity) -> Bool {
    switch (entity, field, value) {
    case (.link, _, .integer(let on)): return on == 0 || on == 1
    case (.link, _, _): return false
    case (_, "delete", _): return true
    case (_, "create", .text(let json)):
      return (try? JSONReader.document(Array(json.utf8)))?.members != nil
    case (_, "create", _): return false
    case (.tag, "name", .text(let name)): return TagName.normalized(name) != nil
    case (.issue, "title", .text), (.issue, "detail", .text): return true
    case (.issue, "priority", .integer(let priority)): return (0...2).contains(priority)
    case (.issue, "completed", .integer(let done)): return done == 0 || done == 1
    case (.issue, "created", .real(let seconds)): return seconds.isFinite
    default: return false
    }
  }

  static func isKnown(field: String, of entity: Entity) -> Bool {
    switch entity {
    case .issue: field == "create" || field == "delete" || Schema.syncedIssueFields.contains(field)
    case .tag: field == "create" || field == "delete" || field == "name"
    case .link: UUID(text: field) != nil
    }
  }

  /// A value as the field keeps it: whole numbers for priority, completed and links, a real for
  /// `created`, text for the rest.
  static func value(_ json: JSON?, field: String, entity: Entity, line: Int)
    throws(ChangeFormatError) -> DatabaseValue
  {
    switch json {
    case nil, .null?: return .null
    case .string(let text)?:
      guard !(entity == .link || field == "priority" || field == "completed" || field == "created")
      else { throw ChangeFormatError(line: line, reason: "\(field) is not a number") }
      return .text(text)
    case .number(let number)?:
      if field == "created" { return .real(number) }
      guard entity == .link || field == "priority" || field == "completed",
        number == number.rounded(), abs(number) < 1e15
      else { throw ChangeFormatError(line: line, reason: "\(field) is not text") }
      return .integer(Int64(number))
    default:
      throw ChangeFormatError(line: line, reason: "\(field) has a value of the wrong kind")
    }
  }
}
