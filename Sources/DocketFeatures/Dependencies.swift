import Composable
import Database
import DocketCore
import Foundation
import Localization

private enum DatabaseKey: DependencyKey {
  static var liveValue: DatabaseQueue {
    fatalError("No database: the app sets \\.database when it starts, before any feature runs.")
  }
  /// A test that forgets to give a database fails naming it (as every un-set dependency does)
  /// and gets an empty one, instead of taking the test run down.
  static var testValue: DatabaseQueue {
    // An in-memory database of the app's schema cannot fail to open but for lack of memory.
    try! DocketDatabase.inMemory { Date(timeIntervalSince1970: 0) }
  }
  static let name = "database"
}

extension DependencyValues {
  /// Docket's database. Features reach it only in effects.
  public var database: DatabaseQueue {
    get { self[DatabaseKey.self] }
    set { self[DatabaseKey.self] = newValue }
  }

  /// The texts of the run's language.
  public var localizer: Localizer { DocketStrings.localizer(language: locale.code) }
}

/// The lane every write of Docket's features goes through: writes land in the order the actions
/// that asked for them were sent, and a program waits for it to drain before it quits.
public enum WriteLane: Hashable, Sendable {
  case database
}

extension Effect where Action: Sendable {
  /// Writes to the database in the background, after every write asked for before it, on the
  /// database's writer (never blocking Swift's shared threads). The feature has already shown the
  /// change; the live observation brings the stored result, and a failure comes back as
  /// `failed(message)`.
  static func write(
    _ database: DatabaseQueue, _ localizer: Localizer,
    failed: @escaping @Sendable (String) -> Action,
    _ body: @escaping @Sendable (Connection) throws -> Void
  ) -> Effect {
    write(database, { try body($0) }, failed: { error in failed(localizer.message(for: error)) })
  }

  /// A write whose failure, and perhaps result, the feature wants back as an action (`done`
  /// returns nil when the result needs no action).
  static func write<Value: Sendable>(
    _ database: DatabaseQueue, _ body: @escaping @Sendable (Connection) throws -> Value,
    failed: @escaping @Sendable (any Error) -> Action,
    done: @escaping @Sendable (Value) -> Action? = { _ in nil }
  ) -> Effect {
    Effect.run { send in
      do {
        let value = try await database.asyncWrite(body)
        if let action = done(value) { await send(action) }
      } catch {
        await send(failed(error))
      }
    }
    .serial(in: WriteLane.database)
  }
}

extension Effect where Action: Sendable {
  /// Observes a query for as long as the effect runs, sending an action for each new result; a
  /// failure comes back as `failed(message)`. Marked with `id`: starting it again replaces the
  /// running observation, and `.cancel(id:)` stops it.
  static func observe<Value: Sendable & Equatable, ID: Hashable & Sendable>(
    _ database: DatabaseQueue, _ localizer: Localizer, id: ID,
    failed: @escaping @Sendable (String) -> Action,
    _ fetch: @escaping @Sendable (Connection) throws -> Value,
    send action: @escaping @Sendable (Value) -> Action
  ) -> Effect {
    Effect.run { send in
      for try await value in database.observe(fetch) {
        await send(action(value))
      }
    } catch: { error, send in
      await send(failed(localizer.message(for: error)))
    }
    .cancellable(id: id, cancelInFlight: true)
  }
}
