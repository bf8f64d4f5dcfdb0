import Database
import DocketCore
import Foundation

/// What this device keeps about sync, with its other settings (never synced): the remote, how
/// far its changes were pushed, what was read, and how the last sync went.
public struct SyncSettings: Equatable, Sendable {
  /// The remote as the user gave it (a folder's absolute path, or a PostgreSQL address), nil
  /// when none is set.
  public var remote: String?
  /// What kind of remote `remote` names: the one place that is worked out.
  public var address: RemoteAddress? { remote.map(RemoteAddress.init) }
  /// The space on a PostgreSQL server (nil for a folder).
  public var space: String?
  /// When the last sync that finished did.
  public var lastSync: Date?
  /// Why the last sync failed, when it did (cleared by one that succeeds).
  public var lastError: String?
  /// This device has seen the remote encrypted (and syncs with it sealed once it has its key).
  public var encrypted = false

  public init(
    remote: String? = nil, space: String? = nil, lastSync: Date? = nil, lastError: String? = nil,
    encrypted: Bool = false
  ) {
    self.remote = remote
    self.space = space
    self.lastSync = lastSync
    self.lastError = lastError
    self.encrypted = encrypted
  }
}

extension Connection {
  static let remoteKey = "sync_remote"
  static let spaceKey = "sync_space"
  static let remoteIDKey = "sync_remote_id"
  static let pushedKey = "sync_pushed"
  static let fileNumberKey = "sync_file_number"
  static let compactedKey = "sync_compacted_through"
  static let snapshotCoversKey = "sync_snapshot_covers"
  static let lastSyncKey = "sync_last"
  static let lastErrorKey = "sync_last_error"
  /// The encrypted remote (its id) this device has sealed its own plain packages in.
  static let resealedKey = "sync_resealed"
  /// Set when this device encrypted the remote: its next sync writes a snapshot, sealed, of all
  /// it holds (what other devices wrote plain included), however few files there are.
  static let snapshotOwedKey = "sync_snapshot_owed"
  /// The remote (its id) this device has seen encrypted: it is never written plain again, even
  /// by a device that has no key for it yet, unless a person sets it again on purpose.
  static let encryptedKey = "sync_encrypted"

  /// Forgets that the remote was seen encrypted (a person set it again, plain, on purpose; or
  /// removed it).
  public func forgetEncryption() throws {
    try setSetting(Self.encryptedKey, nil)
    try setSetting(Self.resealedKey, nil)
    try setSetting(Self.snapshotOwedKey, nil)
  }

  /// What this device holds of the remote's encryption, to be put back as it was
  /// (`restoreEncryption`) when setting another remote fails.
  public func encryptionState() throws -> [String?] {
    try [Self.encryptedKey, Self.resealedKey, Self.snapshotOwedKey].map { try setting($0) }
  }

  public func restoreEncryption(_ state: [String?]) throws {
    for (key, value) in zip([Self.encryptedKey, Self.resealedKey, Self.snapshotOwedKey], state) {
      try setSetting(key, value)
    }
  }

  /// Notes that the remote `id` is encrypted.
  public func noteEncrypted(_ id: String) throws {
    if try setting(Self.encryptedKey) != id { try setSetting(Self.encryptedKey, id) }
  }

  /// Whether this device has seen the remote that the settings name encrypted.
  public func remoteSeenEncrypted() throws -> Bool { try setting(Self.encryptedKey) != nil }

  /// The devices this database speaks for in sync: `<prefix><device id>`.
  static let relayPrefix = "sync_relay:"
  /// How far each one's changes were pushed to a remote: `<prefix><remote> <device id>`, the
  /// value `<change row> <file number> <first file number>` (the last and the first file this
  /// database wrote for it since it became the device it is).
  static let relayPushedPrefix = "sync_relay_pushed:"

  /// Notes that this database speaks for the device `id` in sync (a browser that reaches no
  /// remote itself): its changes go out with this device's push.
  public func noteRelayed(device id: String) throws {
    try setSetting(Self.relayPrefix + id.lowercased(), "1")
  }

  /// For each device this database speaks for, the first and the last file it wrote for it to
  /// `remote`.
  func relayedFiles(remote: String) throws -> [(id: String, first: Int64, last: Int64)] {
    try relayedDevices().compactMap { device in
      guard let kept = try setting(Self.relayPushedPrefix + remote + " " + device.id)
      else { return nil }
      // Without a first file (none written since this database became the device it is, or a
      // cursor from before first files were kept) it claims none: a copy may have written some.
      let parts = kept.split(separator: " ").compactMap { Int64($0) }
      guard parts.count >= 3, parts[2] > 0 else { return nil }
      return (device.id, parts[2], parts[1])
    }
  }

  /// The devices this database speaks for, each with its name.
  func relayedDevices() throws -> [(id: String, name: String)] {
    try fetchAll(
      """
      SELECT d.id, d.name FROM settings s JOIN sync_devices d ON d.id = substr(s.key, ?)
      WHERE s.key >= ? AND s.key < ? ORDER BY d.id
      """, [Self.relayPrefix.count + 1, Self.relayPrefix, Self.relayPrefix + "\u{10FFFF}"]
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
  }

  func setting(_ key: String) throws -> String? {
    try fetchOne("SELECT value FROM settings WHERE key = ?", [key], as: String.self)
  }

  func setSetting(_ key: String, _ value: String?) throws {
    if let value {
      try execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [key, value])
    } else {
      try execute("DELETE FROM settings WHERE key = ?", [key])
    }
  }

  public func syncSettings() throws -> SyncSettings {
    SyncSettings(
      remote: try setting(Self.remoteKey),
      space: try setting(Self.spaceKey),
      lastSync: try setting(Self.lastSyncKey).flatMap(Double.init).map {
        Date(timeIntervalSince1970: $0)
      },
      lastError: try setting(Self.lastErrorKey), encrypted: try remoteSeenEncrypted())
  }

  /// Sets the remote (nil removes it). What was pushed to and read from a remote is kept with
  /// the remote's id: set again to the same remote (by another path, too), sync goes on where it
  /// was; another remote starts afresh (`adoptRemote`).
  public func setRemote(_ remote: String?, space: String? = nil) throws {
    try transaction {
      guard try setting(Self.remoteKey) != remote || setting(Self.spaceKey) != space else { return }
      try setSetting(Self.remoteKey, remote)
      try setSetting(Self.spaceKey, space)
      try setSetting(Self.lastSyncKey, nil)
      try setSetting(Self.lastErrorKey, nil)
    }
  }

  /// Makes `id` the remote this database syncs with. Another remote than the last starts afresh:
  /// everything this device knows is pushed to it, and everything there is read.
  func adoptRemote(_ id: String) throws {
    guard try setting(Self.remoteIDKey) != id else { return }
    for key in [
      Self.pushedKey, Self.fileNumberKey, Self.compactedKey, Self.snapshotCoversKey,
    ] {
      try setSetting(key, nil)
    }
    try execute("DELETE FROM sync_covered")
    try execute("DELETE FROM sync_pulled")
    try setSetting(Self.remoteIDKey, id)
  }

  /// Forgets the last sync's error (what it asked for was given).
  public func clearLastSyncError() throws { try setSetting(Self.lastErrorKey, nil) }

  /// Records how a sync ended: its time, or its error.
  public func recordSyncOutcome(at date: Date, error: String?) throws {
    if let error {
      try setSetting(Self.lastErrorKey, error)
    } else {
      try setSetting(Self.lastSyncKey, String(date.timeIntervalSince1970))
      try setSetting(Self.lastErrorKey, nil)
    }
  }

  /// This device's own changes not yet pushed: what it pulled is not waiting, nor (on a remote
  /// that refuses its pushes) counted as its own.
  public func unpushedChangeCount() throws -> Int {
    try localChangeCount(after: try setting(Self.pushedKey).flatMap(Int64.init) ?? 0)
  }
}

extension Connection {
  /// For each device, the highest change file a snapshot known here holds (`device=number,…`).
  func snapshotCovers() throws -> [String: Int64] {
    var covers: [String: Int64] = [:]
    for pair in (try setting(Self.snapshotCoversKey) ?? "").split(separator: ",") {
      let parts = pair.split(separator: "=")
      if parts.count == 2, let number = Int64(parts[1]) { covers[String(parts[0])] = number }
    }
    return covers
  }

  func recordSnapshotCovers(_ covers: [String: Int64]) throws {
    var merged = try snapshotCovers()
    for (device, number) in covers { merged[device] = max(merged[device] ?? 0, number) }
    try setSetting(
      Self.snapshotCoversKey,
      merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
  }
}
