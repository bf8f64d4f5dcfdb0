import Composable
import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// Why a sync did not run or did not finish, in the reader's words.
public struct SyncFailure: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

/// How the app syncs: one run of push, pull and compaction through the remote in the settings.
public struct SyncClient: Sendable {
  public var run: @Sendable () async throws -> SyncReport

  public init(run: @escaping @Sendable () async throws -> SyncReport) {
    self.run = run
  }

  /// Syncs `database` with its remote on a thread of its own (a sync reads and writes files),
  /// as this device (its name the host name until one is given). Failures come back in words.
  public static func live(database: DatabaseQueue, localizer: Localizer) -> SyncClient {
    SyncClient {
      try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
          continuation.resume(
            with: Result {
              guard let remote = try database.read({ try $0.syncSettings().remote }) else {
                throw SyncFailure(localizer("remote.none"))
              }
              let device =
                try database.read { try $0.storedDeviceIdentity(hostName: HostName.current) }
                ?? database.write { try $0.deviceIdentity(hostName: HostName.current) }
              let id = device.id.lowercasedText
              let engine = SyncEngine(
                database: database, remote: FolderRemote(path: remote, device: id), device: id,
                deviceName: device.name)
              do {
                let report = try engine.run()
                try database.write { try $0.recordSyncOutcome(at: Date(), error: nil) }
                return report
              } catch {
                let message = SyncWords.failure(error, localizer)
                try? database.write { try $0.recordSyncOutcome(at: Date(), error: message) }
                throw SyncFailure(message)
              }
            })
        }
      }
    }
  }
}

private enum SyncClientKey: DependencyKey {
  static var liveValue: SyncClient {
    SyncClient { throw SyncFailure("No sync client: the app sets \\.sync when it starts.") }
  }
  static var testValue: SyncClient {
    SyncClient { throw SyncFailure("sync was not given to this test") }
  }
  static let name = "sync"
}

extension DependencyValues {
  /// Runs a sync with the remote.
  public var sync: SyncClient {
    get { self[SyncClientKey.self] }
    set { self[SyncClientKey.self] = newValue }
  }
}
