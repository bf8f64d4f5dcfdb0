import Composable
import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// How the app syncs: one run of push, pull and compaction through the remote in the settings.
public struct SyncClient: Sendable {
  public var run: @Sendable () async throws -> SyncReport
  /// What a live remote (a PostgreSQL server) says while the app is open: another device
  /// pushed, the server went away. Ends at once for a remote that cannot say (a folder).
  public var listen: @Sendable (SyncSettings) -> AsyncStream<LiveEvent>
  /// Opens an encrypted remote's key with a passphrase and keeps it (`ConfiguredSync.unlock`);
  /// fails with `SyncFailure` in words.
  public var unlock: @Sendable (String) async throws -> Void

  public init(
    run: @escaping @Sendable () async throws -> SyncReport,
    listen: @escaping @Sendable (SyncSettings) -> AsyncStream<LiveEvent> = { _ in
      AsyncStream { $0.finish() }
    },
    unlock: @escaping @Sendable (String) async throws -> Void = { _ in
      throw SyncFailure("no remote to open")
    }
  ) {
    self.run = run
    self.listen = listen
    self.unlock = unlock
  }

  /// Syncs `database` with its remote (`ConfiguredSync`) on a thread of its own: a sync reads and
  /// writes files.
  public static func live(database: DatabaseQueue, localizer: Localizer) -> SyncClient {
    SyncClient(
      run: {
        try await withCheckedThrowingContinuation { continuation in
          Thread.detachNewThread {
            continuation.resume(
              with: Result { try ConfiguredSync.run(database, at: { Date() }, localizer) })
          }
        }
      },
      listen: { settings in
        guard case .postgres(let address)? = settings.address,
          let device = try? database.read({ try $0.localDeviceID() })
        else { return AsyncStream { $0.finish() } }
        return PostgresListener.events(
          address: address, space: settings.space ?? PostgresRemote.defaultSpace, device: device)
      },
      unlock: { passphrase in
        // Argon2id takes about half a second: on a thread of its own.
        try await withCheckedThrowingContinuation { continuation in
          Thread.detachNewThread {
            continuation.resume(
              with: Result {
                try ConfiguredSync.unlock(database, passphrase: passphrase, localizer)
              })
          }
        }
      })
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
