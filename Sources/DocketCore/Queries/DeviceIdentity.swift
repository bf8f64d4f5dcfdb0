import Database
import Foundation

/// Which device this database is: an id made once, on first use, and a name for people (the
/// host name until one is given). Both stay on the device, as the settings do; sync will record
/// the id with every change this device makes.
public struct DeviceIdentity: Equatable, Sendable {
  public var id: UUID
  public var name: String
  /// False while the name is the host name, not one given.
  public var isNamed: Bool
}

extension Connection {
  public static let deviceIDKey = "device_id"
  static let deviceNameKey = "device_name"

  /// This database's device as stored, without writing: nil while it has no id yet.
  public func storedDeviceIdentity(hostName: String) throws -> DeviceIdentity? {
    guard
      let stored = try fetchOne(
        "SELECT value FROM settings WHERE key = ?", [Self.deviceIDKey], as: String.self),
      let id = UUID(text: stored)
    else { return nil }
    let name = try fetchOne(
      "SELECT value FROM settings WHERE key = ?", [Self.deviceNameKey], as: String.self)
    return DeviceIdentity(id: id, name: name ?? hostName, isNamed: name != nil)
  }

  /// This database's device, its id made (and stored) the first time it is asked for.
  public func deviceIdentity(hostName: String, makeID: () -> UUID = { UUID() }) throws
    -> DeviceIdentity
  {
    try transaction {
      let stored = try fetchOne(
        "SELECT value FROM settings WHERE key = ?", [Self.deviceIDKey], as: String.self)
      let id: UUID
      if let stored, let known = UUID(text: stored) {
        id = known
      } else {
        id = makeID()
        try execute(
          "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
          [Self.deviceIDKey, id.lowercasedText])
      }
      let name = try fetchOne(
        "SELECT value FROM settings WHERE key = ?", [Self.deviceNameKey], as: String.self)
      return DeviceIdentity(id: id, name: name ?? hostName, isNamed: name != nil)
    }
  }

  /// Names this device. The name is trimmed, its runs of white space and controls made one
  /// space; an empty name is an error.
  public func setDeviceName(_ name: String) throws {
    guard let normalized = TagName.normalized(name) else { throw DeviceNameError.empty }
    guard Limits.fits(normalized, Limits.deviceNameCharacters) else {
      throw DeviceNameError.tooLong(limit: Limits.deviceNameCharacters)
    }
    try transaction {
      try execute(
        "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
        [Self.deviceNameKey, normalized])
      // The name the history shows for this device's changes, here and, with the next sync,
      // on the other devices.
      try execute(
        "UPDATE sync_devices SET name = ? WHERE seq = (SELECT device FROM sync_clock)",
        [normalized])
    }
  }
}

public enum DeviceNameError: Error, Equatable, Sendable {
  case empty
  case tooLong(limit: Int)
}

/// The name of this machine, as the system has it (`gethostname`), without a domain.
public enum HostName {
  public static var current: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "docket" }
    let name = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let short = name.split(separator: ".").first.map(String.init) ?? name
    return short.isEmpty ? "docket" : short
  }
}
