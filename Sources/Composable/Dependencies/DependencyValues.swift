import Foundation

/// A dependency's key: its type of value, the value used by the app, and the value tests start
/// from.
public protocol DependencyKey {
  associatedtype Value: Sendable
  static var liveValue: Value { get }
  static var testValue: Value { get }
  /// How failures name the dependency (`uuid`, `clock`).
  static var name: String { get }
}

extension DependencyKey {
  public static var name: String { String(describing: Self.self) }
}

/// Every outside thing a feature uses: the database, the clock, the date, UUIDs, the language.
///
/// The values in force live in a task-local, so `withDependencies` overrides them for one scope
/// of work, and an effect keeps the values that were in force when it was created. In a test
/// context, reading a dependency that the test did not override is a test failure that names it.
public struct DependencyValues: Sendable {
  public enum Context: Sendable {
    case live
    case test
  }

  @TaskLocal public static var current = DependencyValues(context: .live)

  public var context: Context
  /// Where effects run: nil (the default) for Swift's concurrent pool; tests set
  /// `MainQueueExecutor.shared` for a deterministic order. Not a dependency key: reading it
  /// never fails a test.
  public var effectExecutor: (any TaskExecutor)?
  private var storage: [ObjectIdentifier: any Sendable] = [:]
  /// Where failures go in a test context (the test store records them as test issues).
  private var reporter: (@Sendable (String) -> Void)?

  public init(context: Context, reporter: (@Sendable (String) -> Void)? = nil) {
    self.context = context
    self.reporter = reporter
  }

  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = storage[ObjectIdentifier(key)] as? Key.Value { return value }
      switch context {
      case .live:
        return Key.liveValue
      case .test:
        reportIssue(
          "@Dependency(\\.\(Key.name)) was used without being overridden. "
            + "Give the test a value for it with withDependencies { $0.\(Key.name) = … }.")
        return Key.testValue
      }
    }
    set {
      storage[ObjectIdentifier(key)] = newValue
    }
  }

  /// Reports a misuse: a test failure in a test context, a message on standard error otherwise.
  public func reportIssue(_ message: String) {
    if let reporter {
      reporter(message)
    } else {
      FileHandle.standardErrorWrite("Docket: \(message)\n")
    }
  }
}

/// Runs `operation` with the current dependencies changed by `update`.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> Result
) rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs async `operation` with the current dependencies changed by `update`.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result,
  isolation: isolated (any Actor)? = #isolation
) async rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$current.withValue(
    values, operation: operation, isolation: isolation)
}

/// Reads a dependency where it is used: `@Dependency(\.uuid) var uuid`.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  let keyPath: KeyPath<DependencyValues, Value> & Sendable

  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// Read at each use, from the dependencies in force at that moment.
  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
