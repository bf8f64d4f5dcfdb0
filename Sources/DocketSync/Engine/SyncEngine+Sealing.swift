import Database
import DocketCore
import Foundation

extension SyncEngine {
  /// In an encrypted remote, seals this device's packages and images that it wrote plain before
  /// the remote was encrypted (or while another device was encrypting it), once: readers skip
  /// plain packages there, and nothing of this device's stays readable in the remote.
  func resealOwn(_ listing: RemoteListing, remote id: String) throws {
    guard remote.isSealed,
      try database.read({ try $0.setting(Connection.resealedKey) }) != id
    else { return }
    for name in listing.packages where name.device == device {
      try remote.reseal(name)
    }
    try database.write { try $0.setSetting(Connection.resealedKey, id) }
  }
}
