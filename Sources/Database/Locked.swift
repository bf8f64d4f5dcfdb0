import Foundation

/// A value reached only while holding a lock.
///
/// `@unchecked Sendable` is safe here because every read and write of `value` happens inside
/// `withLock`, under the lock, one thread at a time. The database connection kept in one is not
/// thread-safe itself, and this is what serialises it. (The standard library's `Mutex` would say
/// the same, but its `sending` rules refuse to hand the guarded value to a caller's closure,
/// which is the whole point of a database queue.)
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
