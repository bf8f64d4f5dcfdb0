import Database
import DocketCore
import Foundation

/// Why this database took a new device id, said once by the sync that did it.
public enum DeviceSwitch: Equatable, Sendable {
  /// Another database syncs under the same id (a copied database: a cloned disk, a restored
  /// backup); this one goes on as a new device, with the changes it made since.
  case copied
  /// This device's clock had run further ahead than `HybridClock.maxDrift` (set right since, or
  /// moved ahead by an older Docket): its changes stamped ahead were retired everywhere, and what
  /// they made was made again, stamped now, as a new device.
  case clockRepaired
}

/// Thrown by a sync once it has switched this database to a new device id: the sync starts
/// again as that device.
struct DeviceSwitched: Error {
  var newID: String
  var reason: DeviceSwitch
}

extension Connection {
  static let previousDeviceKey = "sync_retired_device"

  /// Makes this database a new device: a new id, stamped on its changes from now on, under the
  /// same name. Its own changes recorded in the `relabel` ranges of rows go with the new id
  /// (those a copy made since it was copied, which the other copy does not have); what it pushed
  /// and read is forgotten but for the old id's own files up to `ownThrough`, which it holds.
  /// Returns the new id.
  func becomeNewDevice(
    relabel ranges: [(after: Int64, through: Int64?)], remote key: String?, ownThrough: Int64
  ) throws -> String {
    let old = try localDeviceID()
    let oldRow = try fetchOne("SELECT device FROM sync_clock", as: Int64.self)!
    let new = UUID().lowercasedText
    try execute(
      "INSERT INTO sync_devices (id, name) SELECT ?, name FROM sync_devices WHERE seq = ?",
      [new, oldRow])
    let newRow = try fetchOne("SELECT seq FROM sync_devices WHERE id = ?", [new], as: Int64.self)!
    try execute("UPDATE sync_clock SET device = ?", [newRow])
    try setSetting(Self.deviceIDKey, new)
    // The steps were the old id's changes: an undo here reverts only this device's own.
    try execute("DELETE FROM undo_steps")
    for (after, through) in ranges {
      try execute(
        "UPDATE changes SET device = ? WHERE device = ? AND seq > ? AND seq <= ?",
        [newRow, oldRow, after, through ?? .max])
    }
    // The new device has pushed nothing: its changes from here on (and those relabeled) go.
    try setSetting(Self.pushedKey, ranges.isEmpty ? String(try latestChangeSeq()) : "0")
    try setSetting(Self.fileNumberKey, nil)
    try setSetting(Self.compactedKey, nil)
    try execute("DELETE FROM sync_own_files")
    // The files written for the devices this database speaks for were the old device's: the
    // new one sends their changes again, in files numbered on from the last it wrote (devices
    // that read those files read only later numbers, and a snapshot may have removed them),
    // and claims in a snapshot only the files it writes from here on (first file 0: none yet).
    let cursors = try fetchAll(
      "SELECT key, value FROM settings WHERE key >= ? AND key < ?",
      [Self.relayPushedPrefix, Self.relayPushedPrefix + "\u{10FFFF}"]
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
    for (cursorKey, value) in cursors {
      let number = value.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0
      try setSetting(cursorKey, "0 \(number) 0")
    }
    if let key, ownThrough > 0 {
      try execute(
        """
        INSERT INTO sync_covered (remote, device, through) VALUES (?, ?, ?)
        ON CONFLICT (remote, device) DO UPDATE SET through = max(through, excluded.through)
        """, [key, old, ownThrough])
    }
    return new
  }

  /// The device id this database had before a clock repair, with where its pushes had got to,
  /// while its last changes (its retirement) wait to be pushed as its own.
  func retiredDevice() throws -> (id: String, pushed: Int64, fileNumber: Int64)? {
    guard let text = try setting(Self.previousDeviceKey) else { return nil }
    let parts = text.split(separator: " ")
    guard parts.count == 3, let pushed = Int64(parts[1]), let number = Int64(parts[2]) else {
      return nil
    }
    return (String(parts[0]), pushed, number)
  }
}
