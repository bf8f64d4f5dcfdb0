import Composable
import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// Sync in the app: `S` syncs now; with a remote set, the app syncs when it opens, a little after
/// every edit (however it was made: here, or by `docket` in another shell), and every minute.
/// With a PostgreSQL remote it listens instead of looking every minute: it syncs when another
/// device pushes, and when the server is back after it went away. One sync runs at a time; one
/// asked for meanwhile runs when it ends.
public struct SyncFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// The remote from the settings; nil: sync is off and nothing runs by itself.
    public var remote: String?
    /// Its space, for a PostgreSQL remote.
    public var space: String?
    public var isSyncing = false
    /// A sync was asked for while one ran.
    public var isQueued = false
    public var lastSync: Date?
    public var lastReport: SyncReport?
    /// Why the last sync failed (cleared by one that succeeds).
    public var lastError: String?
    /// This device's latest recorded change: a later one is an edit to sync.
    public var latestChange: Int64?
    /// The settings have been read once.
    public var hasLoaded = false
    /// Listening to a live remote: another device's push is heard at once, and the minute's
    /// sync is not needed.
    public var isLive = false
    /// Why the live remote cannot be heard (the server gone), while it is tried again.
    public var liveProblem: String?
    /// The remote is encrypted (this device has seen it so).
    public var isEncrypted = false
    /// The remote is encrypted and this device has no key for it: its passphrase is asked for.
    public var needsPassphrase = false
    /// The passphrase is being tried (Argon2id, about half a second).
    public var isUnlocking = false
    /// Why the passphrase given did not open the remote.
    public var passphraseError: String?

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    /// Reads the settings and starts watching for edits and the minute timer.
    case task
    /// Stops watching, the timer and a sync that runs (the app is closing).
    case stop
    case loaded(SyncSettings)
    /// This device's latest recorded change, as the database now has it.
    case changesRecorded(Int64)
    /// `S`: sync now (also what the debounce and the timer send).
    case syncTapped
    case timerFired
    case finished(SyncReport, at: Date)
    case failed(String)
    /// What the live remote said.
    case live(LiveEvent)
    /// The sync stopped: the remote is encrypted, and this device has no key yet.
    case passphraseNeeded(String)
    /// A passphrase given for the encrypted remote.
    case passphraseSubmitted(String)
    case unlocked
    case unlockFailed(String)
  }

  public enum CancelID: Hashable, Sendable, CaseIterable {
    case settings, changes, timer, debounce, run, listen, unlock

    static var all: [CancelID] { allCases }
  }

  /// How long after an edit the sync waits for more edits.
  public static let debounce: Duration = .seconds(2)
  /// How often the app syncs while nothing else makes it.
  public static let interval: Duration = .seconds(60)

  @Dependency(\.database) var database
  @Dependency(\.sync) var sync
  @Dependency(\.clock) var clock
  @Dependency(\.date) var date
  @Dependency(\.localizer) var localizer

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .merge(
        // The settings, kept live: `docket remote set` or `remove` in a shell, or a sync there,
        // show here.
        .observe(database, localizer, id: CancelID.settings, failed: Action.failed) { db in
          try db.syncSettings()
        } send: {
          .loaded($0)
        },
        .observe(database, localizer, id: CancelID.changes, failed: Action.failed) { db in
          try db.latestLocalChangeSeq()
        } send: {
          .changesRecorded($0)
        },
        .run { [clock] send in
          while true {
            try await clock.sleep(for: Self.interval)
            await send(.timerFired)
          }
        }
        .cancellable(id: CancelID.timer))

    case .stop:
      state.isSyncing = false
      state.isQueued = false
      state.isLive = false
      state.liveProblem = nil
      return .merge(CancelID.all.map { .cancel(id: $0) })

    case .loaded(let settings):
      let isNew =
        !state.hasLoaded || settings.remote != state.remote || settings.space != state.space
      state.hasLoaded = true
      state.remote = settings.remote
      state.space = settings.space
      state.isEncrypted = settings.encrypted
      if !state.isSyncing {
        state.lastSync = settings.lastSync
        state.lastError = settings.lastError
      }
      // Waiting for the passphrase, and the error gone from the database: it was given
      // elsewhere (`docket sync`, the web page), or a sync there got through. The wait ends,
      // and a sync here says whether it holds.
      if !isNew, state.needsPassphrase, !state.isSyncing, !state.isUnlocking,
        settings.lastError == nil
      {
        state.needsPassphrase = false
        state.passphraseError = nil
        return start(&state)
      }
      guard isNew else { return .none }
      // Another remote, or none: what the last one asked for no longer holds.
      state.needsPassphrase = false
      state.passphraseError = nil
      state.isLive = false
      state.liveProblem = nil
      guard state.remote != nil else { return .cancel(id: CancelID.listen) }
      // Opening the app with a remote set, or setting one, brings it up to date; a live remote
      // is listened to from then on.
      return .merge(
        start(&state),
        .run { [sync] send in
          for await event in sync.listen(settings) { await send(.live(event)) }
        }
        .cancellable(id: CancelID.listen, cancelInFlight: true))

    case .live(.connected):
      state.isLive = true
      state.liveProblem = nil
      // What was pushed while nobody listened.
      return start(&state)

    case .live(.changed):
      // Waiting for the passphrase: only `S` (or the passphrase) syncs.
      guard !state.needsPassphrase else { return .none }
      return start(&state)

    case .live(.lost(let reason, _)):
      state.isLive = false
      state.liveProblem = reason
      return .none

    case .live(.failed(let reason)):
      // Not an outage: said as a sync's failure, and the minute's sync goes on.
      state.isLive = false
      state.liveProblem = nil
      state.lastError = reason
      return .none

    case .changesRecorded(let latest):
      defer { state.latestChange = latest }
      guard let known = state.latestChange, latest > known, state.remote != nil,
        !state.needsPassphrase
      else {
        return .none
      }
      return .run { [clock] send in
        try await clock.sleep(for: Self.debounce)
        await send(.syncTapped)
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: true)

    case .timerFired:
      // A live remote says when there is something: the server is not asked every minute.
      guard state.remote != nil, !state.isLive, !state.needsPassphrase else { return .none }
      return start(&state)

    case .syncTapped:
      return .merge(.cancel(id: CancelID.debounce), start(&state))

    case .finished(let report, let at):
      state.isSyncing = false
      state.needsPassphrase = false
      state.lastSync = at
      state.lastReport = report
      // Pulled, but the server refused this device's changes: they wait, and the status says why.
      state.lastError = report.pushRefused.map { localizer("sync.pushRefused", .string($0)) }
      return again(&state)

    case .failed(let message):
      state.isSyncing = false
      state.lastError = message
      state.needsPassphrase = false
      return again(&state)

    case .passphraseNeeded(let message):
      state.isSyncing = false
      state.isQueued = false
      state.lastError = message
      state.needsPassphrase = true
      state.isEncrypted = true
      return .none

    case .passphraseSubmitted(let passphrase):
      guard !state.isUnlocking, !passphrase.isEmpty else { return .none }
      state.isUnlocking = true
      state.passphraseError = nil
      return .run { [sync] send in
        try await sync.unlock(passphrase)
        await send(.unlocked)
      } catch: { [localizer] error, send in
        await send(.unlockFailed((error as? SyncFailure)?.message ?? localizer.message(for: error)))
      }
      .cancellable(id: CancelID.unlock)

    case .unlocked:
      state.isUnlocking = false
      state.needsPassphrase = false
      state.passphraseError = nil
      state.lastError = nil
      return start(&state)

    case .unlockFailed(let message):
      state.isUnlocking = false
      state.passphraseError = message
      return .none
    }
  }

  private func start(_ state: inout State) -> Effect<Action> {
    guard !state.isSyncing else {
      state.isQueued = true
      return .none
    }
    state.isSyncing = true
    let database = self.database
    return .run { [sync, date, localizer] send in
      // The remote may have been set or removed by `docket` since the app read it.
      let settings = try database.read { try $0.syncSettings() }
      guard settings.remote != nil else {
        throw SyncFailure(localizer("remote.none"))
      }
      let report = try await sync.run()
      await send(.finished(report, at: date.now))
    } catch: { [localizer] error, send in
      if let failure = error as? SyncFailure, failure.needsPassphrase {
        await send(.passphraseNeeded(failure.message))
        return
      }
      await send(.failed((error as? SyncFailure)?.message ?? localizer.message(for: error)))
    }
    .cancellable(id: CancelID.run)
  }

  private func again(_ state: inout State) -> Effect<Action> {
    guard state.isQueued else { return .none }
    state.isQueued = false
    return start(&state)
  }
}
