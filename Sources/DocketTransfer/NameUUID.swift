import DocketCore
import Foundation

/// UUIDs made from names (RFC 9562, version 5: SHA-1 of a namespace and a name): the same name
/// gives the same id on every machine, so a second import of the same source updates what the
/// first made.
enum NameUUID {
  /// Docket's namespace for ids made from other systems' keys.
  static let namespace = UUID(uuidString: "6f3c1d2a-8b7e-4c59-9a0d-2e4f6b8c1d3e")!

  static func make(_ name: String, in namespace: UUID = namespace) -> UUID {
    var data = withUnsafeBytes(of: namespace.uuid) { Array($0) }
    data += Array(name.utf8)
    var hash = SHA1.digest(data)
    hash[6] = (hash[6] & 0x0F) | 0x50
    hash[8] = (hash[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7], hash[8], hash[9],
        hash[10], hash[11], hash[12], hash[13], hash[14], hash[15]
      ))
  }
}
