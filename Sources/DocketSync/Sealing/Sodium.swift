import CSodium
import Foundation

/// libsodium as encrypted sync uses it: random bytes, XChaCha20-Poly1305 for small records and,
/// as a secret stream, for packages and images, and Argon2id for a key from a passphrase.
enum Sodium {
  /// Why libsodium cannot be used (not installed), in a sentence that says what to install; nil
  /// when it can.
  static var problem: String? { docket_sodium_problem().map { String(cString: $0) } }

  static let keyBytes = 32
  static let nonceBytes = 24
  static let tagBytes = 16
  static let streamHeaderBytes = 24
  static let streamTagBytes = 17
  static let saltBytes = 16

  static func random(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBufferPointer { docket_sodium_random($0.baseAddress, count) }
    return bytes
  }

  /// `message` sealed under `key`, bound to `data`: a random nonce, then the sealed bytes.
  static func seal(_ message: [UInt8], data: [UInt8], key: [UInt8]) -> [UInt8] {
    precondition(key.count == keyBytes, "a key is 32 bytes")
    let nonce = random(nonceBytes)
    var sealed = [UInt8](repeating: 0, count: message.count + tagBytes)
    let result = sealed.withUnsafeMutableBufferPointer { out in
      docket_sodium_seal(
        out.baseAddress, message, message.count, data, data.count, nonce, key)
    }
    precondition(result == 0, "sealing does not fail once libsodium is loaded")
    return nonce + sealed
  }

  /// What `seal` sealed, or nil when it does not open with `key` and `data` (another key, a
  /// byte changed, cut short).
  static func open(_ box: [UInt8], data: [UInt8], key: [UInt8]) -> [UInt8]? {
    guard key.count == keyBytes, box.count >= nonceBytes + tagBytes else { return nil }
    let nonce = Array(box[..<nonceBytes])
    let sealed = Array(box[nonceBytes...])
    var message = [UInt8](repeating: 0, count: sealed.count - tagBytes)
    let result = message.withUnsafeMutableBufferPointer { out in
      docket_sodium_open(out.baseAddress, sealed, sealed.count, data, data.count, nonce, key)
    }
    return result == 0 ? message : nil
  }

  /// A key of `count` bytes from `passphrase` by Argon2id; nil when libsodium refuses (out of
  /// memory).
  static func derive(
    _ passphrase: String, salt: [UInt8], operations: UInt64, memory: Int, count: Int = keyBytes
  ) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: count)
    // One form of each accented letter: typed on macOS (decomposed) or Linux, the same key.
    let phrase = Array(passphrase.precomposedStringWithCanonicalMapping.utf8)
    let result = out.withUnsafeMutableBufferPointer { out in
      phrase.withUnsafeBufferPointer { phrase in
        phrase.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(phrase.count, 1)) {
          docket_sodium_derive(
            out.baseAddress, count, $0, phrase.count, salt, operations, memory)
        }
      }
    }
    return result == 0 ? out : nil
  }

  /// A secret stream being written: each part sealed in turn, the last marked.
  struct Pusher {
    private var state = docket_sodium_stream()
    let header: [UInt8]

    init(key: [UInt8]) {
      precondition(key.count == keyBytes, "a key is 32 bytes")
      var made = docket_sodium_stream()
      var header = [UInt8](repeating: 0, count: streamHeaderBytes)
      let result = header.withUnsafeMutableBufferPointer {
        docket_sodium_stream_start(&made, $0.baseAddress, key)
      }
      precondition(result == 0, "a stream starts once libsodium is loaded")
      state = made
      self.header = header
    }

    /// Seals `message` into `sealed` from `offset` on (room for the message and its tag).
    mutating func push(
      _ message: ArraySlice<UInt8>, into sealed: inout [UInt8], at offset: Int, data: [UInt8],
      last: Bool
    ) {
      precondition(sealed.count - offset >= message.count + streamTagBytes, "room for the part")
      let result = sealed.withUnsafeMutableBufferPointer { out in
        message.withUnsafeBufferPointer { input in
          docket_sodium_stream_push(
            &state, out.baseAddress! + offset, input.baseAddress, input.count, data, data.count,
            last ? 1 : 0)
        }
      }
      precondition(result == 0, "sealing does not fail once libsodium is loaded")
    }
  }

  /// A secret stream being read: each part opened in turn; nil for one that does not open.
  struct Puller {
    private var state = docket_sodium_stream()

    init?(header: [UInt8], key: [UInt8]) {
      var made = docket_sodium_stream()
      guard header.count == streamHeaderBytes, key.count == keyBytes,
        docket_sodium_stream_begin(&made, header, key) == 0
      else { return nil }
      state = made
    }

    /// Opens the next part into the start of `message` (at least the part's size less its tag):
    /// whether it is the last; nil when it does not open.
    mutating func pull(_ sealed: ArraySlice<UInt8>, into message: inout [UInt8], data: [UInt8])
      -> Bool?
    {
      guard sealed.count >= streamTagBytes, message.count >= sealed.count - streamTagBytes else {
        return nil
      }
      var last: Int32 = 0
      let result = message.withUnsafeMutableBufferPointer { out in
        sealed.withUnsafeBufferPointer { input in
          docket_sodium_stream_pull(
            &state, out.baseAddress, &last, input.baseAddress, input.count, data, data.count)
        }
      }
      return result == 0 ? last != 0 : nil
    }
  }
}
