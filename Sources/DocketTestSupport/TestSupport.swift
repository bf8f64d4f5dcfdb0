import Foundation
import Locking

// What the test suites of several modules share; nothing in Docket itself uses this module.

/// A clock for tests that moves only when told to.
public final class TestTime: Sendable {
  private let current: Locked<Date>

  public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    current = Locked(start)
  }

  public var now: Date { current.withLock { $0 } }

  public func advance(by seconds: TimeInterval) {
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }

  public func set(_ date: Date) { current.withLock { $0 = date } }
}

/// UUIDs in order, each starting with `prefix` (eight hex digits): 00000000-0000-0000-0000-
/// 000000000001, …2, … by default.
public final class TestUUIDs: Sendable {
  private let next = Locked(1)
  private let prefix: String

  public init(prefix: String = "00000000") { self.prefix = prefix }

  public func make() -> UUID {
    let value = next.withLock { value in
      defer { value += 1 }
      return value
    }
    return UUID(uuidString: String(format: "\(prefix)-0000-0000-0000-%012x", value))!
  }
}

/// A folder of its own for one test, removed when the last reference to it goes.
public final class TemporaryDirectory: Sendable {
  public let path: String

  public init(prefix: String = "docket-tests") throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(prefix)-\(UUID().uuidString)"
      ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  public var url: URL { URL(fileURLWithPath: path) }

  public func path(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
