import DocketTestSupport
import Foundation
import Testing

@testable import Database

@Suite struct ObservationTests {
  let directory: TemporaryDirectory
  let queue: DatabaseQueue

  init() throws {
    directory = try TemporaryDirectory()
    let migrator = Migrator(
      applicationID: 1,
      migrations: [
        Migration(version: 1, name: "tables") { db in
          try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
          try db.execute("CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
      ])
    queue = try DatabaseQueue(path: directory.path("live.sqlite"), migrator: migrator)
  }

  static func bodies(_ db: Connection) throws -> [String] {
    try db.fetchAll("SELECT body FROM notes ORDER BY id") { try $0.get(0, as: String.self) }
  }

  @Test func deliversTheCurrentResultThenOneResultPerCommittedChange() async throws {
    var results = queue.observe(Self.bodies, buffering: .unbounded).makeAsyncIterator()
    #expect(try await results.next() == [])

    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('a')") }
    #expect(try await results.next() == ["a"])

    try queue.write { try $0.execute("UPDATE notes SET body = 'b'") }
    #expect(try await results.next() == ["b"])

    try queue.write { try $0.execute("DELETE FROM notes") }
    #expect(try await results.next() == [])
  }

  @Test func unrelatedTablesAndUnchangedResultsDeliverNothing() async throws {
    var results = queue.observe(Self.bodies, buffering: .unbounded).makeAsyncIterator()
    #expect(try await results.next() == [])
    try queue.write { try $0.execute("INSERT INTO other (id) VALUES (1)") }
    // Touches notes but leaves the result as it was.
    try queue.write { try $0.execute("UPDATE notes SET body = body") }
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('seen')") }
    // Had either of the first two writes delivered, this would be [] rather than ["seen"].
    #expect(try await results.next() == ["seen"])
  }

  @Test func aRolledBackWriteDeliversNothing() async throws {
    var results = queue.observe(Self.bodies, buffering: .unbounded).makeAsyncIterator()
    #expect(try await results.next() == [])
    try? queue.write { db in
      try db.execute("INSERT INTO notes (body) VALUES ('gone')")
      throw CancellationError()
    }
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('kept')") }
    #expect(try await results.next() == ["kept"])
  }

  @Test func seesChangesFromAnotherConnection() async throws {
    var results = queue.observe(Self.bodies, buffering: .unbounded).makeAsyncIterator()
    #expect(try await results.next() == [])
    let other = try Connection(path: directory.path("live.sqlite"))
    try other.execute("INSERT INTO notes (body) VALUES ('from elsewhere')")
    queue.checkForExternalChanges()
    #expect(try await results.next() == ["from elsewhere"])
    try other.execute("INSERT INTO other (id) VALUES (5)")
    queue.checkForExternalChanges()
    try other.execute("UPDATE notes SET body = 'edited elsewhere'")
    queue.checkForExternalChanges()
    #expect(try await results.next() == ["edited elsewhere"])
  }

  /// Without anyone calling `checkForExternalChanges`, the poller finds the other process's
  /// commit. Its interval (well under a second) is what bounds the delay; the wait here is
  /// bounded only so that a broken poller fails the test instead of hanging it.
  @Test func pollingNoticesAnotherProcessByItself() async throws {
    #expect(queue.pollInterval < .seconds(1))
    let stream = queue.observe(Self.bodies, buffering: .unbounded)
    let other = try Connection(path: directory.path("live.sqlite"))
    try other.execute("INSERT INTO notes (body) VALUES ('polled')")
    let seen = try await withThrowingTaskGroup(of: [String]?.self) { group in
      group.addTask {
        for try await bodies in stream where bodies == ["polled"] { return bodies }
        return nil
      }
      group.addTask {
        try await Task.sleep(for: .seconds(10))
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      return first
    }
    #expect(seen == ["polled"])
  }

  /// Every delivery counted: a write through this queue delivers once, and the poller, which then
  /// sees the file changed, delivers nothing more for it.
  @Test func eachChangeIsDeliveredExactlyOnce() async throws {
    let stream = queue.observe(Self.bodies, buffering: .unbounded)
    var results = stream.makeAsyncIterator()
    #expect(try await results.next() == [])
    try await queue.asyncWrite { try $0.execute("INSERT INTO notes (body) VALUES ('one')") }
    try queue.write { try $0.execute("INSERT INTO other (id) VALUES (1)") }
    // Long enough for the poller to look twice.
    try await Task.sleep(for: queue.pollInterval * 3)
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('sentinel')") }
    var delivered: [[String]] = []
    while let next = try await results.next() {
      delivered.append(next)
      if next.last == "sentinel" { break }
    }
    #expect(delivered == [["one"], ["one", "sentinel"]])
  }

  @Test func cancellingTheConsumerStopsTheObservation() async throws {
    let task = Task { [queue] in
      var count = 0
      for try await _ in queue.observe(Self.bodies, buffering: .unbounded) { count += 1 }
      return count
    }
    // Bounded wait for the observation to register.
    for _ in 0..<200 where queue.observerCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(queue.observerCount == 1)
    task.cancel()
    _ = try await task.value
    #expect(queue.observerCount == 0)
    try queue.write { try $0.execute("INSERT INTO notes (body) VALUES ('after')") }
    #expect(queue.observerCount == 0)
  }

  @Test func aFailingQueryEndsTheStreamWithItsError() async throws {
    var results = queue.observe { db in
      // abs() of the smallest integer overflows, which SQLite reports as an error.
      try db.fetchAll(
        "SELECT abs(-9223372036854775808) FROM notes UNION ALL SELECT abs(-9223372036854775808)"
      ) {
        try $0.get(0, as: Int.self)
      }
    }.makeAsyncIterator()
    await #expect(throws: SQLiteError.self) { _ = try await results.next() }
    #expect(queue.observerCount == 0)
  }

  @Test func twoQueuesOnOneFileWriteConcurrentlyWithoutLockErrors() async throws {
    let path = directory.path("live.sqlite")
    let second = try DatabaseQueue(path: path)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in [queue, second] {
        group.addTask {
          for index in 0..<200 {
            try writer.write {
              try $0.execute("INSERT INTO notes (body) VALUES (?)", ["n\(index)"])
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try queue.read { try $0.fetchOne("SELECT count(*) FROM notes", as: Int.self) } == 400)
  }
}
