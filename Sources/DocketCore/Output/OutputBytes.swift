/// Output gathered as UTF-8 bytes and handed on in pieces of about 64 KiB: a list of a million
/// issues is written as it is made, and appending bytes costs a copy where appending to a string
/// costs a check of both strings.
public struct OutputBytes {
  public private(set) var bytes: [UInt8] = []
  public let pieceSize: Int
  private let write: (UnsafeRawBufferPointer) -> Void

  /// `streaming`: room for a whole piece is made at once (a list written as it is read); a
  /// single line or string grows as it needs.
  public init(pieceSize: Int = 65_536, streaming: Bool = false, write: @escaping (String) -> Void) {
    self.init(pieceSize: pieceSize, streaming: streaming) { (bytes: UnsafeRawBufferPointer) in
      write(String(decoding: bytes, as: UTF8.self))
    }
  }

  /// One record's bytes, taken whole by whoever made it: never written in pieces.
  public static func record() -> OutputBytes {
    OutputBytes { (_: UnsafeRawBufferPointer) in
      preconditionFailure("a record is taken whole, never flushed")
    }
  }

  /// Writes its pieces as bytes (standard output), not made into text first.
  public init(
    pieceSize: Int = 65_536, streaming: Bool = false,
    writeBytes: @escaping (UnsafeRawBufferPointer) -> Void
  ) {
    self.pieceSize = pieceSize
    self.write = writeBytes
    if streaming { bytes.reserveCapacity(pieceSize + 8_192) }
  }

  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  public mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  public mutating func append(byte: UInt8) { bytes.append(byte) }

  /// `count` spaces (a table's padding), without making them a string.
  public mutating func appendSpaces(_ count: Int) {
    var left = count
    while left > 0 {
      let piece = min(left, Self.spaces.count)
      Self.spaces.withUnsafeBufferPointer {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<piece]))
      }
      left -= piece
    }
  }

  private static let spaces = [UInt8](repeating: 0x20, count: 128)

  public mutating func append(_ other: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: other)
  }

  public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  /// Forgets what is gathered, keeping the room (a buffer used again for each record).
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  public mutating func append(_ other: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: other)
  }

  /// Writes what is gathered once it makes a piece.
  public mutating func flushIfFull() {
    if bytes.count >= pieceSize { flush() }
  }

  public mutating func flush() {
    guard !bytes.isEmpty else { return }
    bytes.withUnsafeBytes { write($0) }
    bytes.removeAll(keepingCapacity: true)
  }
}
