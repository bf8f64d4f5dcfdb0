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

/// SHA-1 (FIPS 180-4), only for name-based UUIDs: no secret depends on it.
enum SHA1 {
  static func digest(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bits = UInt64(message.count) * 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: padded.count, by: 64) {
      for i in 0..<16 {
        let j = chunk + i * 4
        w[i] =
          UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8
          | UInt32(padded[j + 3])
      }
      for i in 16..<80 {
        let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
        w[i] = x << 1 | x >> 31
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32) =
          switch i {
          case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          default: (b ^ c ^ d, 0xCA62_C1D6)
          }
        let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
        (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
  }
}
