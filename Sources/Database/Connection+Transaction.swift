import CSQLite

/// What a program does around each of its write transactions, inside them: `begin` before the
/// body (nil: nothing to do at the end), `end` after it, before the commit, with what `begin`
/// returned. A failure in `end` fails the transaction. Docket keeps its undo steps this way: one
/// write, one step.
public struct TransactionBracket: Sendable {
  public var begin: @Sendable (Connection) -> Int64?
  public var end: @Sendable (Connection, Int64) throws -> Void

  public init(
    begin: @escaping @Sendable (Connection) -> Int64?,
    end: @escaping @Sendable (Connection, Int64) throws -> Void
  ) {
    self.begin = begin
    self.end = end
  }
}

extension Connection {
  /// Runs `body` in a transaction: `BEGIN IMMEDIATE` at the outermost level, so a writer waits
  /// for the write lock up front instead of failing half way; a savepoint when nested. Commits
  /// when `body` returns, rolls back when it throws.
  public func transaction<Value>(_ body: () throws -> Value) throws -> Value {
    if isInTransaction {
      let name = "docket_savepoint_\(savepointDepth)"
      savepointDepth += 1
      defer { savepointDepth -= 1 }
      try execute("SAVEPOINT \(name)")
      // A write that failed inside the savepoint is rolled back with it: the transaction around
      // is as sound as when the savepoint began.
      let doomed = transactionDoomed
      do {
        let value = try body()
        try execute("RELEASE \(name)")
        return value
      } catch {
        try? execute("ROLLBACK TO \(name)")
        try? execute("RELEASE \(name)")
        transactionDoomed = doomed
        throw error
      }
    }
    try execute("BEGIN IMMEDIATE")
    transactionDoomed = false
    defer { transactionDoomed = false }
    do {
      let bracket = transactionBracket
      let mark = bracket?.begin(self)
      let value = try body()
      if transactionDoomed {
        // A failure inside was caught on the way out (see `withinTransaction`).
        throw SQLiteError(
          code: SQLITE_ABORT,
          message: "a write inside this transaction failed, so none of it was kept")
      }
      if let bracket, let mark { try bracket.end(self, mark) }
      try execute("COMMIT")
      return value
    } catch {
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Runs `body` as a part of the transaction already open, or in a transaction of its own when
  /// none is. Unlike `transaction`, it sets no savepoint inside another transaction: under a
  /// savepoint SQLite copies each page a write changes into memory, and at the end of each
  /// statement walks that copy, which makes a large import or pull slower and heavier. So a
  /// failure inside fails the whole of the caller's transaction: a caller that catches the error
  /// and goes on cannot commit half of the write, since the outermost `transaction` then rolls
  /// back and throws.
  public func withinTransaction<Value>(_ body: () throws -> Value) throws -> Value {
    guard isInTransaction else { return try transaction(body) }
    do {
      return try body()
    } catch {
      transactionDoomed = true
      throw error
    }
  }

  /// Runs `body` in a read transaction, so every statement in it sees the same snapshot.
  public func readTransaction<Value>(_ body: () throws -> Value) throws -> Value {
    if isInTransaction { return try body() }
    try execute("BEGIN DEFERRED")
    defer {
      if isInTransaction { try? execute(transactionDoomed ? "ROLLBACK" : "COMMIT") }
      transactionDoomed = false
    }
    return try body()
  }
}
