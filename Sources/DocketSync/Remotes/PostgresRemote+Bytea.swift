import Foundation

/// `bytea` values as PostgreSQL writes them in text: `\x` and two hex digits a byte.
extension PostgresRemote {
  static func hex(_ data: Data) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var text = [UInt8](repeating: 0, count: 2 + data.count * 2)
    text[0] = 0x5C  // \x
    text[1] = 0x78
    data.withUnsafeBytes { raw in
      for (index, byte) in raw.enumerated() {
        text[2 + index * 2] = digits[Int(byte >> 4)]
        text[3 + index * 2] = digits[Int(byte & 0x0F)]
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  static func bytes(fromHex text: String) -> [UInt8]? {
    var utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8[0] == 0x5C, utf8[1] == 0x78, utf8.count % 2 == 0 else {
      return nil
    }
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case 0x30...0x39: digit - 0x30
      case 0x61...0x66: digit - 0x61 + 10
      case 0x41...0x46: digit - 0x41 + 10
      default: nil
      }
    }
    var bytes = [UInt8](repeating: 0, count: (utf8.count - 2) / 2)
    for index in bytes.indices {
      guard let high = value(utf8[2 + index * 2]), let low = value(utf8[3 + index * 2]) else {
        return nil
      }
      bytes[index] = high << 4 | low
    }
    utf8.removeAll()
    return bytes
  }
}
