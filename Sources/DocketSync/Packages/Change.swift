import Database
import DocketCore
import DocketTransfer
import Foundation
import JSONText

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
    /// `device` carries one kind of change: a device whose clock ran far ahead, retired by the
    /// device it became (`retire`, `SyncEngine+Clock`).
    case issue, tag, link, device
  }

  public var stamp: Stamp
  public var entity: Entity
  /// The issue's id (for an issue or a link) or the tag's.
  public var row: String
  /// `create`, `delete`, `restore`, an issue's field, `name`, (for a link) the tag's id, or
  /// (for a device) `retire`.
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

/// Why a line of a package was skipped: the change on it cannot be one Docket makes. The rest of
/// the package is applied without it.
public struct ChangeFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Reason: Error, Equatable, Sendable {
    /// The line is not a JSON object.
    case notJSON
    /// No stamp (`h`) that a clock could have given.
    case stamp
    /// No device id (`d`) that is a UUID.
    case device
    /// No kind (`e`) Docket knows.
    case kind
    /// No row id (`r`) that is a UUID.
    case row
    /// No field (`f`) its kind has.
    case field
    /// A time (`m`) that is no date Docket keeps (`Limits.isDate`).
    case modified
    /// The new value (`n`) of the field is of the wrong kind or out of its range.
    case value(field: String)
    /// The old value (`o`) is of the wrong kind.
    case oldValue(field: String)
    /// A title of more than one line.
    case notOneLine
    /// A text longer than `Limits` allows.
    case tooLong(field: String, limit: Int)
    /// In the change file of one device, a change that says another made it.
    case forged(claimed: String)
  }

  public var line: Int
  public var reason: Reason

  public init(line: Int, reason: Reason) {
    self.line = line
    self.reason = reason
  }

  public var description: String { "line \(line): \(reason)" }
}

/// A change as one line of JSON:
/// `{"h":"<stamp>","d":"<device>","e":"issue","r":"<row>","f":"title","o":…,"n":…,"m":…}`.
/// The stamp is a decimal string (it does not fit a JSON number exactly); values are JSON strings,
/// numbers or null, read back as the field's type. Everything is checked as it is read: a change
/// that no device could have made (`ChangeFormatError`) never reaches a database.
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

  /// The package format a change needs (`PackageFormat.version`): 1 for what every Docket
  /// reads, 2 for a restore or a device retired, 3 for a dismissed conflict or an issue deleted
  /// for good. An older Docket refuses a package of a newer format by name, and reads it once
  /// updated: a change skipped as unknown would leave it holding other data than the rest.
  var format: Int {
    if field == "dismiss" || field == "purge" { return 3 }
    return entity == .device || field == "restore" ? 2 : 1
  }

  /// Whether a change needs more than the first format.
  var isOfNewerFormat: Bool { format > 1 }

  /// Reads one change from a JSON object; `line` names it in an error.
  public init(json: JSON, line: Int) throws(ChangeFormatError) {
    func fail(_ reason: ChangeFormatError.Reason) -> ChangeFormatError {
      ChangeFormatError(line: line, reason: reason)
    }
    guard case .object = json else { throw fail(.notJSON) }
    guard let stampText = json["h"]?.string, let hlc = Self.stamp(stampText) else {
      throw fail(.stamp)
    }
    guard let device = json["d"]?.string, UUID(text: device) != nil else { throw fail(.device) }
    guard let entityText = json["e"]?.string, let entity = Entity(rawValue: entityText) else {
      throw fail(.kind)
    }
    guard let row = json["r"]?.string, UUID(text: row) != nil else { throw fail(.row) }
    guard let field = json["f"]?.string, Self.isKnown(field: field, of: entity) else {
      throw fail(.field)
    }
    let modified: Double?
    switch json["m"] {
    case nil, .null?: modified = nil
    case .number(let value)? where Limits.isDate(value): modified = value
    default: throw fail(.modified)
    }
    let known = field.lowercased()
    let new: DatabaseValue
    let old: DatabaseValue
    do {
      new = try Self.newValue(json["n"], field: known, of: entity)
      old = try Self.oldValue(json["o"], field: known, of: entity)
    } catch {
      throw fail(error)
    }
    // A device retires only itself, from the drift past the retirement's own stamp at most
    // (`SyncEngine+Clock`): one that names another device, or a stamp long past, would set aside
    // changes it has no say over.
    if entity == .device {
      guard row.lowercased() == device.lowercased(), case .text(let text) = new,
        let after = Int64(text), after >= hlc, after - hlc <= Self.retireReach
      else { throw fail(.value(field: known)) }
    }
    self.init(
      stamp: Stamp(hlc: hlc, device: device.lowercased()), entity: entity, row: row.lowercased(),
      field: known, old: old, new: new, modified: modified)
  }

  /// How far past its own stamp a retirement may reach: twice the drift a clock is allowed.
  static let retireReach: Int64 =
    HybridClock.stamp(Date(timeIntervalSince1970: 2 * HybridClock.maxDrift))

  /// About the year 4200: no clock gets there, and stamps that high still have room to count.
  static let latestStamp: Int64 = 1 << 62

  /// A stamp as a change writes it: decimal digits, above 0 and below `latestStamp`.
  static func stamp(_ text: String) -> Int64? {
    guard text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let value = Int64(text), value > 0, value < latestStamp
    else { return nil }
    return value
  }

  static func isKnown(field: String, of entity: Entity) -> Bool {
    switch entity {
    case .issue:
      ["create", "delete", "restore", "dismiss", "purge"].contains(field)
        || Schema.syncedIssueFields.contains(field)
    case .tag: field == "create" || field == "delete" || field == "name"
    case .link: UUID(text: field) != nil
    case .device: field == "retire"
    }
  }

  /// The new value of a change, as its field keeps it, checked: text within `Limits` (a title on
  /// one line), a priority 0 to 2, completed and a link 0 or 1, a date Docket keeps, a tag's
  /// name as names are stored, a create's or restore's every field.
  static func newValue(_ json: JSON?, field: String, of entity: Entity) throws(ChangeFormatError
    .Reason) -> DatabaseValue
  {
    let wrong = ChangeFormatError.Reason.value(field: field)
    switch (entity, field) {
    case (.issue, "delete"), (.tag, "delete"):
      guard json == nil || json == .null else { throw wrong }
      return .null
    case (.issue, "purge"):
      // For good ("delete now"), or the end of the delete stamped so (30 days after it).
      guard json != nil, json != .null else { return .null }
      guard let text = json?.string, stamp(text) != nil else { throw wrong }
      return .text(text)
    case (.issue, "create"), (.issue, "restore"):
      guard let text = json?.string else { throw wrong }
      try checkIssueJSON(text)
      return .text(text)
    case (.issue, "title"):
      guard let text = json?.string else { throw wrong }
      guard !text.unicodeScalars.contains(where: Limits.isLineBreak) else { throw .notOneLine }
      guard Limits.fits(text, Limits.titleCharacters) else {
        throw .tooLong(field: field, limit: Limits.titleCharacters)
      }
      return .text(text)
    case (.issue, "detail"):
      guard let text = json?.string else { throw wrong }
      guard Limits.fits(text, Limits.detailCharacters) else {
        throw .tooLong(field: field, limit: Limits.detailCharacters)
      }
      return .text(text)
    case (.issue, "priority"):
      guard let number = whole(json), (0...2).contains(number) else { throw wrong }
      return .integer(number)
    case (.issue, "completed"), (.link, _):
      guard let number = whole(json), number == 0 || number == 1 else { throw wrong }
      return .integer(number)
    case (.issue, "created"):
      guard let seconds = json?.number, Limits.isDate(seconds) else { throw wrong }
      return .real(seconds)
    case (.tag, "create"):
      guard let text = json?.string, let members = object(text), keysOnce(members),
        let name = members.last(where: { $0.0 == "name" })?.1.string
      else { throw wrong }
      try checkTagName(name, field: field)
      let key = members.last { $0.0 == "key" }?.1
      guard key == nil || key?.string != nil, members.count == (key == nil ? 1 : 2) else {
        throw wrong
      }
      return .text(text)
    case (.tag, "name"):
      guard let name = json?.string else { throw wrong }
      try checkTagName(name, field: field)
      return .text(name)
    case (.device, "retire"):
      guard let text = json?.string, stamp(text) != nil else { throw wrong }
      return .text(text)
    case (.issue, "dismiss"):
      // The lost change it looked at: "<stamp> <device> <field>".
      guard let text = json?.string else { throw wrong }
      let parts = text.split(separator: " ", omittingEmptySubsequences: false)
      guard parts.count == 3, stamp(String(parts[0])) != nil,
        let device = UUID(text: String(parts[1])), device.lowercasedText == parts[1],
        Schema.syncedIssueFields.contains(String(parts[2]))
      else { throw wrong }
      return .text(text)
    default:
      throw wrong
    }
  }

  /// The old value, kept for the history and to tell a conflict: of its field's kind, or none.
  /// Not held to the limits: a value an older version stored, longer or on two lines, may be
  /// edited away.
  static func oldValue(_ json: JSON?, field: String, of entity: Entity) throws(ChangeFormatError
    .Reason) -> DatabaseValue
  {
    let wrong = ChangeFormatError.Reason.oldValue(field: field)
    guard let json, json != .null else { return .null }
    switch (entity, field) {
    case (.issue, "title"), (.issue, "detail"), (.tag, "name"), (.tag, "delete"):
      guard let text = json.string else { throw wrong }
      return .text(text)
    case (.issue, "delete"):
      // The issue as it was deleted: its fields, as a create gives them.
      guard let text = json.string, object(text) != nil else { throw wrong }
      return .text(text)
    case (.issue, "priority"), (.issue, "completed"), (.link, _):
      guard let number = whole(json) else { throw wrong }
      return .integer(number)
    case (.issue, "created"):
      guard let seconds = json.number else { throw wrong }
      return .real(seconds)
    default:
      throw wrong
    }
  }

  /// A create's or restore's value: a JSON object with each field of an issue once, each as its
  /// change would carry it (the time as text, or a number), and nothing else.
  static func checkIssueJSON(_ text: String) throws(ChangeFormatError.Reason) {
    guard let members = object(text), keysOnce(members),
      members.count == Schema.syncedIssueFields.count
    else { throw .value(field: "create") }
    for (key, member) in members {
      switch key {
      case "created":
        let seconds: Double? =
          switch member {
          case .string(let text): Double(text)
          case .number(let number): number
          default: nil
          }
        guard let seconds, Limits.isDate(seconds) else { throw .value(field: key) }
      case "title", "detail", "priority", "completed":
        _ = try newValue(member, field: key, of: .issue)
      default:
        throw .value(field: "create")
      }
    }
  }

  static func checkTagName(_ name: String, field: String) throws(ChangeFormatError.Reason) {
    guard !name.isEmpty, TagName.normalized(name) == name else { throw .value(field: field) }
    guard Limits.fits(name, Limits.tagNameCharacters) else {
      throw .tooLong(field: field, limit: Limits.tagNameCharacters)
    }
  }

  /// A whole number a JSON number holds exactly.
  private static func whole(_ json: JSON?) -> Int64? {
    guard let number = json?.number, number == number.rounded(), abs(number) < 1e15 else {
      return nil
    }
    return Int64(number)
  }

  /// The members of the JSON object `text` holds, or nil.
  private static func object(_ text: String) -> [(String, JSON)]? {
    (try? JSONReader.document(Array(text.utf8)))?.members
  }

  private static func keysOnce(_ members: [(String, JSON)]) -> Bool {
    Set(members.map(\.0)).count == members.count
  }

  /// Whether a value (from a create, as stored) is one its issue field can take: for values read
  /// back from the history, which an older version may have stored unchecked.
  static func isValid(_ value: DatabaseValue, field: String, entity: Entity) -> Bool {
    switch (field, value) {
    case ("title", .text(let text)):
      !text.unicodeScalars.contains(where: Limits.isLineBreak)
        && Limits.fits(text, Limits.titleCharacters)
    case ("detail", .text(let text)): Limits.fits(text, Limits.detailCharacters)
    case ("priority", .integer(let priority)): (0...2).contains(priority)
    case ("completed", .integer(let done)): done == 0 || done == 1
    case ("created", .real(let seconds)): Limits.isDate(seconds)
    default: false
    }
  }
}
