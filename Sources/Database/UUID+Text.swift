import Foundation

/// UUIDs as the database stores them: lowercase, with hyphens. Read and written by hand, since
/// Foundation on Linux parses with `sscanf` and lists of thousands of issues feel it.
extension UUID {
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// `8c1e0f3a-…` (36 characters, lowercase).
  public var lowercasedText: String {
    let bytes = uuid
    return withUnsafeBytes(of: bytes) { raw in
      String(unsafeUninitializedCapacity: 36) { buffer in
        var position = 0
        for (index, byte) in raw.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            buffer[position] = UInt8(ascii: "-")
            position += 1
          }
          buffer[position] = Self.hexDigits[Int(byte >> 4)]
          buffer[position + 1] = Self.hexDigits[Int(byte & 0x0F)]
          position += 2
        }
        return position
      }
    }
  }

  /// Reads the 36-character form (either case); nil for anything else.
  public init?(text: String) {
    let parsed =
      text.utf8.withContiguousStorageIfAvailable { Self.parse($0) }
      ?? Array(text.utf8).withUnsafeBufferPointer { Self.parse($0) }
    guard let parsed else { return nil }
    self.init(uuid: parsed)
  }

  /// Reads the 36 bytes of the text form (either case); nil for anything else.
  public init?(textBytes: UnsafeBufferPointer<UInt8>) {
    guard let parsed = Self.parse(textBytes) else { return nil }
    self.init(uuid: parsed)
  }

  /// Parses the 36 bytes of the text form without allocating.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> uuid_t? {
    guard bytes.count == 36 else { return nil }
    var result: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = withUnsafeMutableBytes(of: &result) { output -> Bool in
      var position = 0
      for index in 0..<16 {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          guard bytes[position] == UInt8(ascii: "-") else { return false }
          position += 1
        }
        let high = nibbles[Int(bytes[position])]
        let low = nibbles[Int(bytes[position + 1])]
        guard high != 0xFF, low != 0xFF else { return false }
        output[index] = high << 4 | low
        position += 2
      }
      return true
    }
    return valid ? result : nil
  }

  /// The first `count` hex digits (at most 32), lowercase, without hyphens.
  public func hexPrefix(_ count: Int) -> String {
    let bytes = uuid
    return withUnsafeBytes(of: bytes) { raw in
      String(unsafeUninitializedCapacity: min(count, 32)) { buffer in
        for digit in 0..<min(count, 32) {
          let byte = raw[digit / 2]
          buffer[digit] = Self.hexDigits[Int(digit % 2 == 0 ? byte >> 4 : byte & 0x0F)]
        }
        return min(count, 32)
      }
    }
  }

  /// How many hex digits this id and `other` share at their start.
  public func sharedHexDigits(with other: UUID) -> Int {
    withUnsafeBytes(of: uuid) { left in
      withUnsafeBytes(of: other.uuid) { right in
        for index in 0..<16 where left[index] != right[index] {
          return index * 2 + (left[index] >> 4 == right[index] >> 4 ? 1 : 0)
        }
        return 32
      }
    }
  }

  /// The value of each hex digit by its byte; 0xFF for bytes that are not hex digits.
  private static let nibbles: [UInt8] = (0...255).map { byte in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(byte) - UInt8(ascii: "A") + 10
    default: return 0xFF
    }
  }
}
