import Foundation

/// A value reached only while holding a lock.
///
/// `@unchecked Sendable` is safe here because every read and write of `value` happens inside
/// `withLock`, under the lock, one thread at a time. The lock is a pthread mutex (`NSLock`), so
/// the thread sanitizer sees it: the standard library's `Mutex` locks through futexes on Linux,
/// which the sanitizer cannot see, and every value behind one is reported as raced
/// (`make stress` runs the whole suite under the sanitizer). `Mutex`'s `sending` rules would
/// also refuse to hand the guarded value to a caller's closure, which a database queue needs.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
