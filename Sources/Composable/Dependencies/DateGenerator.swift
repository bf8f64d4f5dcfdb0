import Foundation

/// Tells the current date. Live: the system's. In tests: `.constant(date)`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  public var now: Date { generate() }

  public func callAsFunction() -> Date { generate() }

  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static let testValue = DateGenerator.constant(Date(timeIntervalSince1970: 0))
  static let name = "date"
}

extension DependencyValues {
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
