import Database
import DocketCore
import Foundation

extension SyncEngine {
  /// Notes that the remote `id` is encrypted when it is; refuses to write a remote seen
  /// encrypted before without a key (its marker or space made plain by someone else).
  func checkEncryption(remote id: String) throws {
    let seen = try database.read { try $0.setting(Connection.encryptedKey) }
    if remote.isSealed {
      if seen != id { try database.write { try $0.noteEncrypted(id) } }
    } else if seen == id {
      throw RemoteError(location: remote.location, problem: .noLongerEncrypted)
    }
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
    try database.write { try $0.setSetting(Connection.resealedKey, id) }
  }
}
