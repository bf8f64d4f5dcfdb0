import Foundation
import Locking

/// Makes UUIDs. Live: random. In tests: `.incrementing`, or `.constant`.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  public func callAsFunction() -> UUID { generate() }

  public static let random = UUIDGenerator { UUID() }

  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }

  /// 00000000-0000-0000-0000-000000000000, then …0001, …0002: readable in test expectations.
  public static var incrementing: UUIDGenerator {
    let counter = Locked(0)
    return UUIDGenerator {
      let value = counter.withLock { value in
        defer { value += 1 }
        return value
      }
      return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012llx", UInt64(value)))!
    }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static let testValue = UUIDGenerator.incrementing
  static let name = "uuid"
}

extension DependencyValues {
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
