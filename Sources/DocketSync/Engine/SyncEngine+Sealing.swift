import Database
import DocketCore
import Foundation

extension SyncEngine {
  /// Prepares the remote, and notes that it is encrypted when it is. A device that has seen the
  /// remote encrypted and holds no key for it writes nothing, and makes nothing: a marker or
  /// space made plain again, or gone and made anew under another id, is refused
  /// (`noLongerEncrypted`) until a person sets the remote again on purpose.
  func prepareRemote() throws -> String {
    let seen = try database.read { try $0.setting(Connection.encryptedKey) }
    guard !remote.isSealed, let seen else {
      let id = try remote.prepare(expecting: nil)
      if remote.isSealed, seen != id { try database.write { try $0.noteEncrypted(id) } }
      return id
    }
    do {
      // Makes nothing, and fails unless the remote is still the one seen.
      _ = try remote.prepare(expecting: seen)
    } catch let error as RemoteError {
      switch error.problem {
      case .replaced, .spaceMissing:
        throw RemoteError(location: remote.location, problem: .noLongerEncrypted)
      default: throw error
      }
    }
    // The same remote, and it let a device without a key through: it says it is plain now.
    throw RemoteError(location: remote.location, problem: .noLongerEncrypted)
  }

  /// In an encrypted remote, seals this device's packages and images that it wrote plain before
  /// the remote was encrypted (or while another device was encrypting it), once: readers skip
  /// plain packages there, and nothing of this device's stays readable in the remote.
  func resealOwn(_ listing: RemoteListing, remote id: String) throws {
    guard remote.isSealed,
      try database.read({ try $0.setting(Connection.resealedKey) }) != id
    else { return }
    // This device's packages, and those it wrote for the devices it speaks for and for the id
    // it had before its clock was repaired.
    var mine: Set<String> = [device]
    try database.read { db in
      for (id, _) in try db.relayedDevices() { mine.insert(id) }
      if let retired = try db.retiredDevice() { mine.insert(retired.id) }
    }
    for name in listing.packages where mine.contains(name.device) {
      try (name.device == device ? remote : remote.forDevice(name.device)).reseal(name)
    }
    // The sizes noted of this device's files were their plain ones: not known now, so not
    // taken for a copy's (`foreignPackages`).
    try database.write { db in
      try db.execute("UPDATE sync_own_files SET size = -1 WHERE remote = ?", [id])
    }
    try database.write { try $0.setSetting(Connection.resealedKey, id) }
  }
}
