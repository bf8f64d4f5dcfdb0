import Foundation
import Testing

@testable import Database

@Suite struct ConnectionTests {
  let connection: Connection

  init() throws {
    connection = try Connection.inMemory()
    try connection.execute(
      "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, flag INTEGER, at REAL, uuid TEXT)"
    )
  }

  @Test func roundTripsEveryValueType() throws {
    let date = Date(timeIntervalSince1970: 1_800_000_000.25)
    let uuid = UUID(uuidString: "8C1E0000-1111-2222-3333-444455556666")!
    try connection.execute(
      "INSERT INTO items (id, name, score, data, flag, at, uuid) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [7, "Grüße 👋", 2.5, Data([0, 1, 2]), true, date, uuid])
    let row = try #require(
      try connection.fetchOne("SELECT id, name, score, data, flag, at, uuid FROM items") { row in
        (
          try row.get(0, as: Int.self), try row.get(1, as: String.self),
          try row.get(2, as: Double.self), try row.get(3, as: Data.self),
          try row.get(4, as: Bool.self), try row.get(5, as: Date.self),
          try row.get(6, as: UUID.self)
        )
      })
    #expect(row.0 == 7)
    #expect(row.1 == "Grüße 👋")
    #expect(row.2 == 2.5)
    #expect(row.3 == Data([0, 1, 2]))
    #expect(row.4 == true)
    #expect(row.5 == date)
    #expect(row.6 == uuid)
    let stored = try connection.fetchOne("SELECT uuid FROM items", as: String.self)
    #expect(stored == "8c1e0000-1111-2222-3333-444455556666")
  }

  @Test func optionalsReadNullAsNilAndRefuseMismatches() throws {
    try connection.execute("INSERT INTO items (id, name) VALUES (1, NULL)")
    let name = try connection.fetchOne("SELECT name FROM items") { row in
      try row.get(0, as: String?.self)
    }
    #expect(name == .some(nil))
    #expect(throws: RowDecodingError.self) {
      _ = try connection.fetchOne("SELECT name FROM items") { row in try row.get(0, as: String.self)
      }
    }
  }

  @Test func bindsValuesInsteadOfSplicingThem() throws {
    let hostile = "x'); DROP TABLE items; --"
    try connection.execute("INSERT INTO items (id, name) VALUES (1, ?)", [hostile])
    #expect(try connection.fetchOne("SELECT name FROM items", as: String.self) == hostile)
    #expect(try connection.fetchOne("SELECT count(*) FROM items", as: Int.self) == 1)
  }

  @Test func refusesAWrongNumberOfArgumentsAndSeveralStatements() throws {
    let wrongCount = #expect(throws: SQLiteError.self) {
      try connection.execute("INSERT INTO items (id) VALUES (?)", [1, 2])
    }
    #expect(wrongCount?.message.contains("takes 1 arguments but was given 2") == true)
    #expect(throws: SQLiteError.self) {
      try connection.execute("DELETE FROM items; DROP TABLE items")
    }
    #expect(try connection.fetchOne("SELECT count(*) FROM sqlite_master", as: Int.self) == 1)
  }

  @Test func errorsCarryCodesMessageAndSQL() throws {
    try connection.execute("INSERT INTO items (id) VALUES (1)")
    let error = #expect(throws: SQLiteError.self) {
      try connection.execute("INSERT INTO items (id) VALUES (1)")
    }
    #expect(error?.isConstraintViolation == true)
    #expect(error?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
    #expect(error?.message == "UNIQUE constraint failed: items.id")
    #expect(error?.sql == "INSERT INTO items (id) VALUES (1)")
    #expect(
      error?.description.contains("SQLITE_CONSTRAINT") == true
        || error?.description.contains("constraint failed") == true)
  }

  @Test func cachesStatementsAndPreparesAgainWhenOneIsBusy() throws {
    let first = try connection.prepare("SELECT 1")
    #expect(try connection.prepare("SELECT 1") === first)
    try connection.execute("INSERT INTO items (id) VALUES (1), (2)")
    var inner: [Int] = []
    try connection.forEachRow("SELECT id FROM items ORDER BY id") { row in
      // The same SQL while the outer statement is still stepping gets its own statement.
      inner += try connection.fetchAll("SELECT id FROM items ORDER BY id") {
        try $0.get(0, as: Int.self)
      }
      _ = row
    }
    #expect(inner == [1, 2, 1, 2])
  }

  @Test func transactionsCommitOrRollBackAndNestAsSavepoints() throws {
    try connection.transaction {
      try connection.execute("INSERT INTO items (id) VALUES (1)")
      try? connection.transaction {
        try connection.execute("INSERT INTO items (id) VALUES (2)")
        throw CancellationError()
      }
      try connection.transaction {
        try connection.execute("INSERT INTO items (id) VALUES (3)")
      }
    }
    #expect(
      try connection.fetchAll("SELECT id FROM items ORDER BY id") { try $0.get(0, as: Int.self) }
        == [1, 3])
    #expect(throws: CancellationError.self) {
      try connection.transaction {
        try connection.execute("INSERT INTO items (id) VALUES (4)")
        throw CancellationError()
      }
    }
    #expect(try connection.fetchOne("SELECT count(*) FROM items", as: Int.self) == 2)
    #expect(connection.isInTransaction == false)
  }

  /// `withinTransaction` is a transaction of its own at the outermost level, and inside another
  /// it is a part of that one, with no savepoint: its failure fails the caller's whole
  /// transaction, so a caller that catches it and goes on cannot commit half a write, nor what
  /// it writes after.
  @Test func withinTransactionIsItsOwnOnlyAtTheOutermostLevel() throws {
    #expect(throws: CancellationError.self) {
      try connection.withinTransaction {
        try connection.execute("INSERT INTO items (id) VALUES (1)")
        #expect(connection.isInTransaction)
        throw CancellationError()
      }
    }
    #expect(try connection.fetchOne("SELECT count(*) FROM items", as: Int.self) == 0)
    try connection.transaction {
      try connection.withinTransaction {
        try connection.execute("INSERT INTO items (id) VALUES (2)")
      }
    }
    #expect(throws: SQLiteError.self) {
      try connection.transaction {
        try connection.execute("INSERT INTO items (id) VALUES (3)")
        try? connection.withinTransaction {
          try connection.execute("INSERT INTO items (id) VALUES (4)")
          throw CancellationError()
        }
        try connection.execute("INSERT INTO items (id) VALUES (5)")
      }
    }
    #expect(
      try connection.fetchAll("SELECT id FROM items ORDER BY id") { try $0.get(0, as: Int.self) }
        == [2])
    #expect(connection.isInTransaction == false)
    // The next transaction starts afresh.
    try connection.transaction { try connection.execute("INSERT INTO items (id) VALUES (6)") }
    #expect(try connection.fetchOne("SELECT count(*) FROM items", as: Int.self) == 2)
    // A failure inside a savepoint goes with the savepoint: the transaction around it commits.
    try connection.transaction {
      try? connection.transaction {
        try connection.withinTransaction {
          try connection.execute("INSERT INTO items (id) VALUES (7)")
          throw CancellationError()
        }
      }
      try connection.execute("INSERT INTO items (id) VALUES (8)")
    }
    #expect(
      try connection.fetchAll("SELECT id FROM items ORDER BY id") { try $0.get(0, as: Int.self) }
        == [2, 6, 8])
  }

  @Test func tracksReadAndWrittenTablesIncludingTriggers() throws {
    try connection.execute("CREATE TABLE log (message TEXT)")
    try connection.execute(
      "CREATE TRIGGER items_log AFTER INSERT ON items BEGIN INSERT INTO log VALUES (NEW.name); END")
    let insert = try connection.prepare("INSERT INTO items (id, name) VALUES (?, ?)")
    #expect(insert.writtenTables == ["items", "log"])
    let count = try connection.prepare("SELECT count(*) FROM items")
    #expect(count.readTables == ["items"])
  }

  @Test func swiftFunctionsAreCallableFromSQL() throws {
    try connection.createFunction("shout", argumentCount: 1, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return .null }
      return .text(text.uppercased())
    }
    #expect(try connection.fetchOne("SELECT shout(?)", ["straße"], as: String.self) == "STRASSE")
    #expect(try connection.fetchOne("SELECT shout(NULL)", as: String?.self) == .some(nil))
  }
}
