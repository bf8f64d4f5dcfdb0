import Foundation

/// Reading connections for many threads at once: each read takes a connection of its own (one
/// left idle by an earlier read, or a new one), runs in a read transaction on it, and gives it
/// back. With WAL, readers never wait for each other or for a writer. For servers whose requests
/// arrive on many threads; `DatabaseQueue.read` serves one reader at a time.
public final class ReadPool: @unchecked Sendable {
  // `idle` is only touched under `lock`; a connection taken from it is used by one thread until
  // it is given back.
  private let lock = NSLock()
  private var idle: [Connection] = []
  private let open: @Sendable () throws -> Connection
  /// At most this many idle connections are kept; more readers at once open more and close them.
  private let keep: Int

  public init(keep: Int = 16, open: @escaping @Sendable () throws -> Connection) {
    self.keep = keep
    self.open = open
  }

  /// Runs `body` with a connection of its own in a read transaction: one snapshot.
  public func read<Value>(_ body: (Connection) throws -> Value) throws -> Value {
    let connection = try take()
    defer { giveBack(connection) }
    return try connection.readTransaction { try body(connection) }
  }

  private func take() throws -> Connection {
    lock.lock()
    if let connection = idle.popLast() {
      lock.unlock()
      return connection
    }
    lock.unlock()
    return try open()
  }

  /// Keeps the connection for the next read, unless its transaction did not end (a failed
  /// COMMIT): it would go on reading that old snapshot, so it is closed instead.
  private func giveBack(_ connection: Connection) {
    if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    // A reader that reads the file as unchanging (a full disk) would never see a later write.
    guard !connection.isInTransaction, !connection.isUnchanging else { return }
    lock.lock()
    defer { lock.unlock() }
    if idle.count < keep { idle.append(connection) }
  }
}
