import Foundation
import JSONText

/// The key an encrypted remote's packages are sealed with: random, made once when the remote is
/// encrypted, and the same for every device. A device keeps it once it has opened it with the
/// passphrase (`SyncKeyFile`), so a new passphrase (the key wrapped again) leaves it syncing.
public struct SyncKey: Equatable, Sendable {
  /// The remote it opens (the id of its marker or space).
  public var remote: String
  var bytes: [UInt8]
}

/// What an Argon2id derivation costs: its passes and its memory. Kept in the remote with the
/// salt, so every device derives the same key; read from there within bounds, so a remote that
/// asks for more memory than a device should give is refused, not obeyed.
public struct KeyCost: Equatable, Sendable {
  public var operations: UInt64
  public var memory: Int

  public init(operations: UInt64, memory: Int) {
    self.operations = operations
    self.memory = memory
  }

  /// What a remote is encrypted with: about 0.7 s on a two-core machine of 2026, once per
  /// device (`docs/performance.md`).
  public static let standard = KeyCost(operations: 3, memory: 256 << 20)
  /// For tests: the least libsodium allows, so that a test derives in milliseconds.
  public static let light = KeyCost(operations: 1, memory: 8 << 10)

  /// What a remote may ask: more would let a remote someone else keeps make a device spend
  /// minutes or gigabytes on one passphrase.
  static let operationsRange: ClosedRange<UInt64> = 1...16
  static let memoryRange: ClosedRange<Int> = (8 << 10)...(1 << 30)
}

/// The record an encrypted remote keeps of its key (in its marker, in its space's row): the salt
/// and cost of the passphrase's key, the remote's key wrapped with it, and a check that a kept
/// key is this remote's. The remote's key is random, so a new passphrase wraps it again and no
/// package is sealed anew.
public struct RemoteKeyRecord: Equatable, Sendable {
  var salt: [UInt8]
  var cost: KeyCost
  /// The remote's key, sealed with the passphrase's key (bound to the remote's id).
  var wrapped: [UInt8]
  /// The remote's id, sealed with the remote's key: a kept key opens it, another does not.
  var check: [UInt8]

  /// A record for the remote `id`, with a new random key, wrapped by `passphrase`.
  static func make(remote id: String, passphrase: String, cost: KeyCost) throws -> (
    RemoteKeyRecord, SyncKey
  ) {
    guard isPlainID(id) else { throw SealingError.unreadableRecord }
    let key = SyncKey(remote: id, bytes: Sodium.random(Sodium.keyBytes))
    return (try wrapping(key, passphrase: passphrase, cost: cost), key)
  }

  /// `key` wrapped with a new salt by `passphrase`.
  static func wrapping(_ key: SyncKey, passphrase: String, cost: KeyCost) throws
    -> RemoteKeyRecord
  {
    let salt = Sodium.random(Sodium.saltBytes)
    guard
      let outer = Sodium.derive(
        passphrase, salt: salt, operations: cost.operations, memory: cost.memory)
    else { throw SealingError.derivation }
    return RemoteKeyRecord(
      salt: salt, cost: cost,
      wrapped: Sodium.seal(key.bytes, data: Self.wrapLabel(key.remote), key: outer),
      check: Sodium.seal(Array(key.remote.utf8), data: Self.checkLabel, key: key.bytes))
  }

  /// The remote's key, opened with `passphrase`; nil when the passphrase does not open it.
  func open(remote id: String, passphrase: String) throws -> SyncKey? {
    guard
      let outer = Sodium.derive(
        passphrase, salt: salt, operations: cost.operations, memory: cost.memory)
    else { throw SealingError.derivation }
    guard let bytes = Sodium.open(wrapped, data: Self.wrapLabel(id), key: outer),
      bytes.count == Sodium.keyBytes
    else { return nil }
    let key = SyncKey(remote: id, bytes: bytes)
    return opens(key) ? key : nil
  }

  /// Whether `key` is this remote's.
  func opens(_ key: SyncKey) -> Bool {
    Sodium.open(check, data: Self.checkLabel, key: key.bytes) == Array(key.remote.utf8)
  }

  /// Whether a remote's id is one Docket makes (letters, digits, `-`): only such an id goes into
  /// a key file or a marker, which are JSON written by hand.
  static func isPlainID(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 64
      && id.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D
      }
  }

  static func wrapLabel(_ id: String) -> [UInt8] { Array("docket remote key \(id)".utf8) }
  static let checkLabel = Array("docket remote check".utf8)

  // MARK: - As text

  /// One line of JSON.
  var text: String {
    "{\"kdf\":\"argon2id13\",\"operations\":\(cost.operations),\"memory\":\(cost.memory),"
      + "\"salt\":\"\(Data(salt).base64EncodedString())\","
      + "\"key\":\"\(Data(wrapped).base64EncodedString())\","
      + "\"check\":\"\(Data(check).base64EncodedString())\"}"
  }

  /// The record in `json`, checked: nil for one this Docket cannot use (another algorithm, a cost
  /// out of bounds, fields of the wrong size).
  init?(_ json: JSON) {
    guard json["kdf"]?.string == "argon2id13",
      let operations = json["operations"]?.number, let memory = json["memory"]?.number,
      operations.rounded() == operations, memory.rounded() == memory,
      operations >= Double(KeyCost.operationsRange.lowerBound),
      operations <= Double(KeyCost.operationsRange.upperBound),
      memory >= Double(KeyCost.memoryRange.lowerBound),
      memory <= Double(KeyCost.memoryRange.upperBound),
      let salt = json["salt"]?.string.flatMap({ Data(base64Encoded: $0) }),
      let wrapped = json["key"]?.string.flatMap({ Data(base64Encoded: $0) }),
      let check = json["check"]?.string.flatMap({ Data(base64Encoded: $0) }),
      salt.count == Sodium.saltBytes,
      wrapped.count == Sodium.nonceBytes + Sodium.keyBytes + Sodium.tagBytes,
      check.count >= Sodium.nonceBytes + Sodium.tagBytes, check.count <= 256
    else { return nil }
    self.salt = Array(salt)
    self.cost = KeyCost(operations: UInt64(operations), memory: Int(memory))
    self.wrapped = Array(wrapped)
    self.check = Array(check)
  }

  init?(text: String) {
    guard let json = try? JSONReader.document(Array(text.utf8)) else { return nil }
    self.init(json)
  }

  init(salt: [UInt8], cost: KeyCost, wrapped: [UInt8], check: [UInt8]) {
    self.salt = salt
    self.cost = cost
    self.wrapped = wrapped
    self.check = check
  }
}

/// Why encryption could not be set up or used.
public enum SealingError: Error, Equatable, Sendable {
  /// libsodium is missing: what to install.
  case library(String)
  /// Argon2id failed (out of memory).
  case derivation
  /// The passphrase does not open the remote's key.
  case wrongPassphrase
  /// The remote is not encrypted (a passphrase change asked of a plain remote).
  case notEncrypted
  /// The remote is encrypted already (`remote encrypt` asked again).
  case alreadyEncrypted
  /// Another device encrypted the remote at the same moment, with another key.
  case raced
  /// The remote's record of its key is one this Docket cannot read.
  case unreadableRecord
}
