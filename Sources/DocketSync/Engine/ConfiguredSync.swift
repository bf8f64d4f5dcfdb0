import Database
import DocketCore
import Foundation
import Localization
import Postgres

/// Why a sync did not run or did not finish, in the reader's words.
public struct SyncFailure: Error, Equatable, Sendable {
  public var message: String
  /// The remote is encrypted and this device needs its passphrase (a face asks for it and
  /// calls `ConfiguredSync.unlock`).
  public var needsPassphrase = false
  /// What went wrong in setting up encryption, when that is what failed.
  public var sealing: SealingError?
  public init(_ message: String, needsPassphrase: Bool = false, sealing: SealingError? = nil) {
    self.message = message
    self.needsPassphrase = needsPassphrase
    self.sealing = sealing
  }
}

/// One sync of a database with the remote its settings name, as this device, for every face
/// (`docket sync`, the app): its outcome (the time, or the error in words) kept with the
/// settings for `docket remote show` and the status line.
public enum ConfiguredSync {
  /// Runs the sync; fails with `SyncFailure`, whose message names what failed and where. When
  /// the remote is encrypted and this device holds no key for it, `passphrase` is asked for
  /// one (nil: the sync fails, `needsPassphrase`).
  public static func run(
    _ database: DatabaseQueue, at now: () -> Date, _ l10n: Localizer,
    passphrase: (() throws -> String?)? = nil
  ) throws -> SyncReport {
    let settings = try database.read { try $0.syncSettings() }
    guard let address = settings.address else {
      throw SyncFailure(l10n("remote.none"))
    }
    if case .postgres = address { PostgresConnection.loadLibraryInBackground() }
    // The id the triggers stamp changes with, and the name people know the device by.
    let (id, name) = try database.read { db in
      (
        try db.localDeviceID(),
        try db.storedDeviceIdentity(hostName: HostName.current)?.name ?? HostName.current
      )
    }
    var engine = SyncEngine(
      database: database,
      remote: Self.remote(address, space: settings.space, device: id)
        .withKey(SyncKeyFile.read(database: database.path)),
      device: id, deviceName: name)
    // Seen encrypted (with no key here, a key that does not open it, no library to open it):
    // from now on never written plain, whatever its marker says later.
    func noteSeen(_ error: RemoteError) {
      switch error.problem {
      case .encrypted, .keyRefused, .sealingUnavailable:
        if let (id, record) = try? engine.remote.withKey(nil).keyRecord(), record != nil {
          try? database.write { try $0.noteEncrypted(id) }
        }
      default: break
      }
    }
    // What the faces show as the last sync's error, where it is not the failure itself: why
    // this command had no passphrase says nothing to the terminal app or the web page, which
    // ask for it themselves.
    var recorded: String?
    do {
      let report: SyncReport
      do { report = try engine.run() } catch let error as RemoteError
        where error.problem == .encrypted
      {
        // Told now that the remote is encrypted: the passphrase opens its key, kept from now on.
        // None asked for: said as the remote encrypted; none to be had: why not.
        noteSeen(error)
        let asked: String?
        do { asked = try passphrase?() } catch var failure as SyncFailure {
          failure.needsPassphrase = true
          recorded = SyncMessages.failure(error, l10n)
          throw failure
        }
        guard let given = asked else { throw error }
        try unlock(database, passphrase: given, l10n)
        engine.remote = engine.remote.withKey(SyncKeyFile.read(database: database.path))
        report = try engine.run()
      }
      // Pulled, but the push was refused: the sync did not finish, and says why.
      let refused = report.pushRefused.map { l10n("sync.pushRefused", .string($0)) }
      try database.write { db in
        try db.recordSyncOutcome(at: now(), error: nil)
        if let refused { try db.recordSyncOutcome(at: now(), error: refused) }
      }
      return report
    } catch {
      var failure = error as? SyncFailure ?? SyncFailure(SyncMessages.failure(error, l10n))
      if let error = error as? RemoteError {
        if error.problem == .encrypted { failure.needsPassphrase = true }
        // A remote found encrypted was noted as it was found.
        if error.problem != .encrypted { noteSeen(error) }
      }
      try? database.write {
        try $0.recordSyncOutcome(at: now(), error: recorded ?? failure.message)
      }
      throw failure
    }
  }

  /// The remote the settings name, plain, as this device: nil when none is set.
  static func plainRemote(_ database: DatabaseQueue) throws -> (any SyncRemote)? {
    let settings = try database.read { try $0.syncSettings() }
    guard let address = settings.address else { return nil }
    let id = try database.read { try $0.localDeviceID() }
    return remote(address, space: settings.space, device: id)
  }

  /// What the remote says of its encryption: nil when it is plain, else whether this device
  /// holds its key. Asks the remote (making it, as a first sync would, when it is not there).
  public static func encryption(_ database: DatabaseQueue, _ l10n: Localizer) throws -> Bool? {
    guard let remote = try plainRemote(database) else { throw SyncFailure(l10n("remote.none")) }
    return try sealingStep(l10n) {
      try RemoteEncryption.state(remote, key: SyncKeyFile.read(database: database.path))
    }
  }

  /// Opens the remote's key with `passphrase` and keeps it beside the database; fails, keeping
  /// nothing, when the passphrase does not open it.
  public static func unlock(_ database: DatabaseQueue, passphrase: String, _ l10n: Localizer)
    throws
  {
    guard let remote = try plainRemote(database) else { throw SyncFailure(l10n("remote.none")) }
    try sealingStep(l10n) {
      let key = try RemoteEncryption.unlock(remote, passphrase: passphrase)
      try SyncKeyFile.write(key, database: database.path)
      // "It needs its passphrase" is answered; the next sync says how it goes.
      try database.write { try $0.clearLastSyncError() }
    }
  }

  /// Encrypts the plain remote the settings name with a new key wrapped by `passphrase`, kept
  /// beside the database. Its packages are sealed by the syncs that follow: this device's by
  /// its next, each other device's by its first after it is given the passphrase.
  public static func encrypt(
    _ database: DatabaseQueue, passphrase: String, cost: KeyCost, _ l10n: Localizer
  ) throws {
    guard let remote = try plainRemote(database) else { throw SyncFailure(l10n("remote.none")) }
    try sealingStep(l10n) {
      let key: SyncKey
      do {
        key = try RemoteEncryption.encrypt(remote, passphrase: passphrase, cost: cost) {
          try SyncKeyFile.write($0, database: database.path)
        }
      } catch {
        // Kept before the remote said it is encrypted: gone again when it did not.
        if !(error is SealingError) || error as? SealingError == .raced {
          SyncKeyFile.remove(database: database.path)
        }
        throw error
      }
      // A remote in use owes a snapshot, sealed, of all this device holds: what other devices
      // wrote plain is then there for a new device to read. A new remote owes nothing.
      let inUse = (try? remote.list().packages.isEmpty == false) ?? true
      try database.write { db in
        if inUse { try db.setSetting(Connection.snapshotOwedKey, "1") }
        try db.noteEncrypted(key.remote)
      }
    }
  }

  /// Wraps the remote's key with `new` in place of `old`: devices that keep the key go on
  /// syncing; a device that joins needs `new`.
  public static func changePassphrase(
    _ database: DatabaseQueue, old: String, new: String, cost: KeyCost, _ l10n: Localizer
  ) throws {
    guard let remote = try plainRemote(database) else { throw SyncFailure(l10n("remote.none")) }
    try sealingStep(l10n) {
      let key = try RemoteEncryption.changePassphrase(remote, old: old, new: new, cost: cost)
      try SyncKeyFile.write(key, database: database.path)
    }
  }

  /// Runs `body`, a step of setting up encryption: what fails is said in the reader's words.
  @discardableResult
  static func sealingStep<Value>(_ l10n: Localizer, _ body: () throws -> Value) throws -> Value {
    if let missing = Sodium.problem { throw SyncFailure(missing) }
    do { return try body() } catch let error as SealingError {
      throw SyncFailure(SyncMessages.sealing(error, l10n), sealing: error)
    } catch let error as SyncFailure {
      throw error
    } catch {
      throw SyncFailure(SyncMessages.failure(error, l10n))
    }
  }

  /// The remote an address names: a folder, or a space on a PostgreSQL server.
  static func remote(_ address: RemoteAddress, space: String?, device: String) -> any SyncRemote {
    switch address {
    case .folder(let path): FolderRemote(path: path, device: device)
    case .postgres(let server):
      PostgresRemote(
        address: server, space: space ?? PostgresRemote.defaultSpace, device: device)
    }
  }
}
