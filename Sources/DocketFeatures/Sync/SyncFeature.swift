import Composable
import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// Sync in the app: `S` syncs now; with a remote set, the app syncs when it opens, a little after
/// every edit (however it was made: here, or by `docket` in another shell), and every minute.
/// One sync runs at a time; one asked for meanwhile runs when it ends.
public struct SyncFeature: Reducer {
  public struct State: Equatable, Sendable {
    /// The remote from the settings; nil: sync is off and nothing runs by itself.
    public var remote: String?
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
  }

  public enum CancelID: Hashable, Sendable, CaseIterable {
    case settings, changes, timer, debounce, run

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
      let database = self.database
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
      return .merge(CancelID.all.map { .cancel(id: $0) })

    case .loaded(let settings):
      let isNew = !state.hasLoaded || settings.remote != state.remote
      state.hasLoaded = true
      state.remote = settings.remote
      if !state.isSyncing {
        state.lastSync = settings.lastSync
        state.lastError = settings.lastError
      }
      // Opening the app with a remote set, or setting one, brings it up to date.
      return isNew && state.remote != nil ? start(&state) : .none

    case .changesRecorded(let latest):
      defer { state.latestChange = latest }
      guard let known = state.latestChange, latest > known, state.remote != nil else {
        return .none
      }
      return .run { [clock] send in
        try await clock.sleep(for: Self.debounce)
        await send(.syncTapped)
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: true)

    case .timerFired:
      guard state.remote != nil else { return .none }
      return start(&state)

    case .syncTapped:
      return .merge(.cancel(id: CancelID.debounce), start(&state))

    case .finished(let report, let at):
      state.isSyncing = false
      state.lastSync = at
      state.lastReport = report
      state.lastError = nil
      return again(&state)

    case .failed(let message):
      state.isSyncing = false
      state.lastError = message
      return again(&state)
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
