import DocketTestSupport
import Foundation
import Locking
import Testing

@testable import Database

/// The writer and the readers of a file database: writes in order on their own queue, reads that
/// never wait for anyone's write lock.
@Suite struct WriterTests {
  let directory: TemporaryDirectory
  let path: String
  let queue: DatabaseQueue
  static let migrator = Migrator(
    applicationID: 7,
    migrations: [
      Migration(version: 1, name: "notes") { db in
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
      }
    ])

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.path("writer.sqlite")
    queue = try DatabaseQueue(path: path, migrator: Self.migrator)
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('first')") }
  }

  static func bodies(_ db: Connection) throws -> [String] {
    try db.fetchAll("SELECT body FROM notes ORDER BY id") { try $0.get(0, as: String.self) }
  }

  /// Another process holds the write lock: reads, and opening the database again, go on at once
  /// (each would otherwise wait out the ten-second busy timeout and fail).
  @Test func readsAndOpeningNeverWaitForAWriteLockHeldElsewhere() throws {
    let other = try Connection(path: path)
    try other.execute("BEGIN IMMEDIATE")
    try other.execute("INSERT INTO notes (body) VALUES ('not yet committed')")
    defer { try? other.execute("ROLLBACK") }
    let started = ContinuousClock.now
    #expect(try queue.read(Self.bodies) == ["first"])
    let reopened = try DatabaseQueue(path: path, migrator: Self.migrator)
    #expect(try reopened.read(Self.bodies) == ["first"])
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  /// A write waiting for another process's lock holds up neither the readers nor its caller's
  /// thread; it lands once the lock is free, and observers see it.
  @Test func aWriteWaitingForTheLockHoldsUpNoReader() async throws {
    let other = try Connection(path: path)
    try other.execute("BEGIN IMMEDIATE")
    var results = queue.observe(Self.bodies, buffering: .unbounded).makeAsyncIterator()
    #expect(try await results.next() == ["first"])
    // On the writer's queue from here on, waiting for the other process's lock.
    let landed = Locked(false)
    let write = queue.pendingWrite {
      try $0.execute("INSERT INTO notes (body) VALUES ('second')")
      landed.withLock { $0 = true }
    }
    // The reads and the release happen on a thread of their own: were they on the test's task,
    // a busy test run could keep it from running again for longer than the writer's ten-second
    // busy timeout, and the write would fail for a reason the test is not about.
    let seen = Locked<[[String]]>([])
    let waitedForTheLock = Locked(false)
    nonisolated(unsafe) let holder = other
    let queue = self.queue
    Thread.detachNewThread {
      usleep(100_000)
      for _ in 0..<5 {
        let bodies = (try? queue.read(Self.bodies)) ?? []
        seen.withLock { $0.append(bodies) }
      }
      waitedForTheLock.withLock { $0 = !landed.withLock { $0 } }
      try? holder.execute("COMMIT")
    }
    try await write.value
    // Had a read waited for the lock, the lock would never have been let go before the write
    // gave up, and the write would have failed above.
    #expect(seen.withLock { $0 } == Array(repeating: ["first"], count: 5))
    #expect(waitedForTheLock.withLock { $0 })
    #expect(try await results.next() == ["first", "second"])
    #expect(try queue.read(Self.bodies) == ["first", "second"])
  }

  /// Writes asked for one after another land in that order, though each is awaited elsewhere.
  @Test func writesLandInTheOrderTheyWereAskedFor() async throws {
    let log = Locked<[Int]>([])
    await withTaskGroup(of: Void.self) { group in
      for number in 0..<200 {
        // Each call is made here, in order; the awaiting happens in the group's tasks.
        let pending = queue.pendingWrite { db in
          try db.execute("INSERT INTO notes (body) VALUES (?)", [String(number)])
          log.withLock { $0.append(number) }
        }
        group.addTask { try? await pending.value }
      }
    }
    #expect(log.withLock { $0 } == Array(0..<200))
    #expect(try queue.read(Self.bodies) == ["first"] + (0..<200).map(String.init))
  }

  /// A failed write rolls back and leaves the writer working.
  @Test func aFailedWriteRollsBackAndTheNextOneLands() async throws {
    await #expect(throws: SQLiteError.self) {
      try await queue.asyncWrite { db in
        try db.execute("INSERT INTO notes (body) VALUES ('rolled back')")
        try db.execute("INSERT INTO missing (body) VALUES ('x')")
      }
    }
    try await queue.asyncWrite { try $0.execute("INSERT INTO notes (body) VALUES ('kept')") }
    #expect(try queue.read(Self.bodies) == ["first", "kept"])
  }

  static func logSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? -1
  }

  /// A transaction larger than the log's limit leaves the log empty after it, not as large as
  /// itself; while a reader is reading, the writer does not wait for it, and the next write after
  /// the reader cuts the log back.
  @Test func aLargeWriteDoesNotLeaveALargeLog() throws {
    let big = Connection.logSizeLimit / (1 << 20) + 4
    try queue.write { db in
      for _ in 0..<big {
        try db.execute("INSERT INTO notes (body) VALUES (hex(randomblob(524288)))")
      }
    }
    #expect(Self.logSize(path) == 0)

    // A reader in the middle of a read holds the log: the write does not wait for it.
    let reader = try Connection(path: path)
    try reader.execute("BEGIN")
    #expect(try reader.fetchOne("SELECT count(*) FROM notes", as: Int.self) == big + 1)
    try queue.write { db in
      for _ in 0..<big {
        try db.execute("INSERT INTO notes (body) VALUES (hex(randomblob(524288)))")
      }
    }
    #expect(Self.logSize(path) > Connection.logSizeLimit)
    try reader.execute("COMMIT")
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('small')") }
    #expect(Self.logSize(path) <= Connection.logSizeLimit)
    #expect(
      try queue.read { try $0.fetchOne("SELECT count(*) FROM notes", as: Int.self) } == 2 * big + 2)
  }

  /// A database opened through a link keeps its log beside the file the link leads to: that is
  /// the log emptied after a large write.
  @Test func theLogBesideTheFileALinkLeadsToIsEmptied() throws {
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let linked = try DatabaseQueue(path: link, migrator: Self.migrator)
    let big = Connection.logSizeLimit / (1 << 20) + 4
    try linked.write { db in
      for _ in 0..<big {
        try db.execute("INSERT INTO notes (body) VALUES (hex(randomblob(524288)))")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: link + "-wal"))
    #expect(Self.logSize(path) == 0)
  }

  /// However many different statements a session runs, the cache keeps a bounded number, and the
  /// ones in use stay cached.
  @Test func theStatementCacheStaysBounded() throws {
    let connection = try Connection(path: path)
    let hot = try connection.prepare("SELECT count(*) FROM notes")
    for number in 0..<500 {
      _ = try connection.fetchOne("SELECT \(number) + count(*) FROM notes", as: Int.self)
      if number % 10 == 0 { #expect(try connection.prepare("SELECT count(*) FROM notes") === hot) }
    }
    #expect(connection.cachedStatementCount <= Connection.statementCacheCapacity)
    #expect(connection.cachedStatementCount == Connection.statementCacheCapacity)
    #expect(try connection.prepare("SELECT count(*) FROM notes") === hot)
  }
}

extension DatabaseQueue {
  /// Asks for a write now and returns a task that awaits it: the call order is the order asked.
  func pendingWrite(_ body: @escaping @Sendable (Connection) throws -> Void) -> Task<
    Void, any Error
  > {
    let (stream, continuation) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
    enqueueWrite(body) {
      continuation.yield($0)
      continuation.finish()
    }
    return Task {
      for await result in stream { try result.get() }
    }
  }
}
