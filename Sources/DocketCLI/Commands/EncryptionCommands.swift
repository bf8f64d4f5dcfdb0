import Database
import DocketCore
import DocketSync
import Files
import Foundation
import Localization
import Terminal

/// `docket remote encrypt`, `docket remote passphrase`, and the passphrase every command that
/// opens an encrypted remote asks for: from a file (`--passphrase-file`), from the environment
/// (`DOCKET_SYNC_PASSPHRASE`, `DOCKET_SYNC_NEW_PASSPHRASE`), or typed on the terminal unseen.
struct EncryptionCommands {
  let context: CommandContext

  private var l10n: Localizer { context.l10n }

  /// The environment's passphrase, and the new one of a change.
  static let passphraseVariable = "DOCKET_SYNC_PASSPHRASE"
  static let newPassphraseVariable = "DOCKET_SYNC_NEW_PASSPHRASE"
  /// The shortest new passphrase taken.
  static let shortest = 8

  /// What a new key costs: `KeyCost.standard`; for the tests of a debug build, the least
  /// libsodium allows (a release build never makes a key that cheap to guess).
  var cost: KeyCost {
    #if DEBUG
      if context.environment["DOCKET_TEST_LIGHT_KEYS"] == "1" { return .light }
    #endif
    return .standard
  }

  /// `docket remote encrypt`: the remote the settings name, encrypted with a new passphrase;
  /// then a sync seals this device's packages and writes a snapshot, sealed, of all it holds.
  func encrypt() throws {
    let database = try context.database()
    guard try database.read({ try $0.syncSettings() }).remote != nil else {
      throw CommandFailure.failed(l10n("remote.none"))
    }
    try encrypt(database, syncing: true)
    if context.json {
      context.printJSON(.object([("encrypted", .bool(true))]))
    } else {
      context.console.line(l10n("remote.encrypted"))
    }
  }

  /// Encrypts the remote set (said before: what a lost passphrase means); with `syncing`, syncs
  /// at once, which seals this device's files and writes a sealed snapshot of all it holds
  /// (else the next sync does).
  func encrypt(_ database: DatabaseQueue, syncing: Bool) throws {
    if try failing({ try ConfiguredSync.encryption(database, l10n) }) != nil {
      throw CommandFailure.failed(l10n("error.sealing.alreadyEncrypted"))
    }
    if !context.json { context.console.line(l10n("remote.encrypt.warning")) }
    let passphrase = try newPassphrase(variable: Self.passphraseVariable, file: "passphrase-file")
    try failing {
      try ConfiguredSync.encrypt(database, passphrase: passphrase, cost: cost, l10n)
      if syncing { _ = try ConfiguredSync.run(database, at: { context.now }, l10n) }
    }
  }

  /// `docket remote passphrase`: the remote's key wrapped with a new passphrase, given the one
  /// it has now.
  func changePassphrase() throws {
    let database = try context.database()
    guard try database.read({ try $0.syncSettings() }).remote != nil else {
      throw CommandFailure.failed(l10n("remote.none"))
    }
    let old = try passphrase(
      variable: Self.passphraseVariable, file: "passphrase-file",
      prompt: l10n("passphrase.prompt.current"))
    let new = try newPassphrase(
      variable: Self.newPassphraseVariable, file: "new-passphrase-file")
    try failing {
      try ConfiguredSync.changePassphrase(database, old: old, new: new, cost: cost, l10n)
    }
    if context.json {
      context.printJSON(.object([("passphraseChanged", .bool(true))]))
    } else {
      context.console.line(l10n("remote.passphrase.changed"))
    }
  }

  /// Opens an encrypted remote's key for this device, asking once; told first that the remote
  /// is encrypted.
  func unlock(_ database: DatabaseQueue) throws {
    let given = try joiningPassphrase()
    try failing { try ConfiguredSync.unlock(database, passphrase: given, l10n) }
  }

  /// The passphrase of an encrypted remote this device joins (or that was encrypted since its
  /// last sync): said that it is encrypted, and asked once.
  func joiningPassphrase() throws -> String {
    if !context.json { context.console.line(l10n("remote.isEncrypted")) }
    return try passphrase(
      variable: Self.passphraseVariable, file: "passphrase-file",
      prompt: l10n("passphrase.prompt"))
  }

  /// A passphrase given to open a remote: from the file option, the environment, or the
  /// terminal.
  func passphrase(variable: String, file option: String, prompt: String) throws -> String {
    if let given = try given(variable: variable, file: option) { return given }
    guard let read = context.console.readSecret else {
      throw CommandFailure.failed(
        l10n("error.passphrase.none", .string(variable), .string("--" + option)))
    }
    guard let typed = read(prompt), !typed.isEmpty else {
      throw CommandFailure.failed(l10n("error.passphrase.empty"))
    }
    return typed
  }

  /// A new passphrase: from the file option or the environment, or typed twice alike; at least
  /// `shortest` characters.
  func newPassphrase(variable: String, file option: String) throws -> String {
    let chosen: String
    if let given = try given(variable: variable, file: option) {
      chosen = given
    } else {
      guard let read = context.console.readSecret else {
        throw CommandFailure.failed(
          l10n("error.passphrase.none", .string(variable), .string("--" + option)))
      }
      guard let first = read(l10n("passphrase.prompt.new")), !first.isEmpty else {
        throw CommandFailure.failed(l10n("error.passphrase.empty"))
      }
      guard read(l10n("passphrase.prompt.again")) == first else {
        throw CommandFailure.failed(l10n("error.passphrase.mismatch"))
      }
      chosen = first
    }
    guard chosen.count >= Self.shortest else {
      throw CommandFailure.usage(l10n("error.passphrase.short", .integer(Self.shortest)))
    }
    return chosen
  }

  /// The passphrase the file option or the environment gives, if any: a file's first line.
  private func given(variable: String, file option: String) throws -> String? {
    if let file = context.arguments.value(option) {
      let path = SyncCommands.absolute(file, environment: context.environment)
      let bytes: [UInt8]
      do { bytes = try FileReading.contents(of: path, limit: 1 << 16) } catch {
        throw CommandFailure.failed(
          l10n("error.passphrase.file", .string(SafeText.sanitized(path))))
      }
      let line =
        String(decoding: bytes, as: UTF8.self).split(
          separator: "\n", maxSplits: 1, omittingEmptySubsequences: false
        ).first.map(String.init) ?? ""
      let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
      guard !trimmed.isEmpty else { throw CommandFailure.failed(l10n("error.passphrase.empty")) }
      return trimmed
    }
    if let value = context.environment[variable], !value.isEmpty { return value }
    return nil
  }

  /// Runs `body`; a sync's failure is the command's.
  @discardableResult
  func failing<Value>(_ body: () throws -> Value) throws -> Value {
    do { return try body() } catch let failure as SyncFailure {
      throw CommandFailure.failed(SafeText.sanitized(failure.message))
    }
  }
}
