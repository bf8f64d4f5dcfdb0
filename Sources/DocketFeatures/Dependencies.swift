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

extension Effect where Action: Sendable {
  /// Writes to the database in the background. The feature has already shown the change; the
  /// live observation brings the stored result, and a failure comes back as `failed(message)`.
  static func write(
    _ database: DatabaseQueue, _ localizer: Localizer,
    failed: @escaping @Sendable (String) -> Action,
    _ body: @escaping @Sendable (Connection) throws -> Void
  ) -> Effect {
    .run { send in
      do {
        try database.write(body)
      } catch {
        await send(failed(localizer.message(for: error)))
      }
    }
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
