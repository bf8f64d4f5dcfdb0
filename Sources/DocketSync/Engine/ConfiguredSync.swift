import Database
import DocketCore
import Foundation
import Localization
import Postgres

/// Why a sync did not run or did not finish, in the reader's words.
public struct SyncFailure: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

/// One sync of a database with the remote its settings name, as this device, for every face
/// (`docket sync`, the app): its outcome (the time, or the error in words) kept with the
/// settings for `docket remote show` and the status line.
public enum ConfiguredSync {
  /// Runs the sync; fails with `SyncFailure`, whose message names what failed and where.
  public static func run(_ database: DatabaseQueue, at now: () -> Date, _ l10n: Localizer) throws
    -> SyncReport
  {
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
    let engine = SyncEngine(
      database: database,
      remote: Self.remote(address, space: settings.space, device: id),
      device: id, deviceName: name)
    do {
      let report = try engine.run()
      // Pulled, but the push was refused: the sync did not finish, and says why.
      let refused = report.pushRefused.map { l10n("sync.pushRefused", .string($0)) }
      try database.write { db in
        try db.recordSyncOutcome(at: now(), error: nil)
        if let refused { try db.recordSyncOutcome(at: now(), error: refused) }
      }
      return report
    } catch {
      let message = SyncMessages.failure(error, l10n)
      try? database.write { try $0.recordSyncOutcome(at: now(), error: message) }
      throw SyncFailure(message)
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
