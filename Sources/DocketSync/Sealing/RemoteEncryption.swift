import Foundation

/// Setting up a remote's encryption, whatever the remote: what `ConfiguredSync` does with the
/// remote the settings name and the key file beside the database, and what a test does with a
/// remote and a key of its own.
public enum RemoteEncryption {
  /// Encrypts the plain `remote` with a new random key wrapped by `passphrase`; `keep` keeps the
  /// key before the remote says it is encrypted (the other way round, a failure between the two
  /// would leave a remote no passphrase this device was given opens).
  public static func encrypt(
    _ remote: any SyncRemote, passphrase: String, cost: KeyCost,
    keep: (SyncKey) throws -> Void = { _ in }
  ) throws -> SyncKey {
    try checkLibrary()
    let (id, found) = try remote.keyRecord()
    guard found == nil else { throw SealingError.alreadyEncrypted }
    let (record, key) = try RemoteKeyRecord.make(remote: id, passphrase: passphrase, cost: cost)
    try keep(key)
    try remote.setKeyRecord(record, replacing: nil)
    return key
  }

  /// The key of the encrypted `remote`, opened with `passphrase`.
  public static func unlock(_ remote: any SyncRemote, passphrase: String) throws -> SyncKey {
    try checkLibrary()
    let (id, record) = try remote.keyRecord()
    guard let record else { throw SealingError.notEncrypted }
    guard let key = try record.open(remote: id, passphrase: passphrase) else {
      throw SealingError.wrongPassphrase
    }
    return key
  }

  /// Wraps the remote's key with `new` in place of `old`; returns the key (unchanged).
  public static func changePassphrase(
    _ remote: any SyncRemote, old: String, new: String, cost: KeyCost
  ) throws -> SyncKey {
    try checkLibrary()
    let (id, record) = try remote.keyRecord()
    guard let record else { throw SealingError.notEncrypted }
    guard let key = try record.open(remote: id, passphrase: old) else {
      throw SealingError.wrongPassphrase
    }
    try remote.setKeyRecord(
      try RemoteKeyRecord.wrapping(key, passphrase: new, cost: cost), replacing: record)
    return key
  }

  /// Whether the remote is encrypted: nil when plain, else whether `key` opens it.
  public static func state(_ remote: any SyncRemote, key: SyncKey?) throws -> Bool? {
    let (id, record) = try remote.keyRecord()
    guard let record else { return nil }
    guard let key, key.remote == id else { return false }
    try checkLibrary()
    return record.opens(key)
  }

  static func checkLibrary() throws {
    if let missing = Sodium.problem { throw SealingError.library(missing) }
  }
}
