import DocketCore
import Foundation
import Locking
import Postgres

/// The one connection a remote keeps to its server, and the errors it maps.
extension PostgresRemote {
  /// Runs `body` on the connection (made when first needed), mapping the server's errors to a
  /// `RemoteError` that names this remote. A connection that was lost is dropped, so that the
  /// next call makes a new one.
  @discardableResult
  func perform<Value>(_ body: (PostgresConnection) throws(PostgresError) -> Value) throws -> Value {
    do throws(PostgresError) {
      let db = try open()
      return try body(db)
    } catch {
      if error.connectionLost { connection.withLock { $0 = nil } }
      let problem: RemoteError.Problem =
        if error.isUndefinedObject {
          .spaceMissing
        } else if error.isPermissionDenied || error.state == "25006" {
          // 25006: a role whose transactions are read-only, or a standby server.
          .denied(error.message)
        } else if error.state == "23505" {
          .numberTaken
        } else if error.connectionLost {
          .unreachable(error.message)
        } else {
          .system(error.message)
        }
      throw RemoteError(location: location, problem: problem)
    }
  }

  /// `body` in one transaction, with `beforeCommit` run before it commits.
  func transaction(_ body: (PostgresConnection) throws(PostgresError) -> Void) throws {
    let hook = beforeCommit
    try perform { db throws(PostgresError) in
      try db.execute("BEGIN")
      do throws(PostgresError) {
        // The push cursor moves once COMMIT returns: it must be on the disk by then, whatever
        // the server's own setting.
        try limitTransaction(db)
        try db.execute("SET LOCAL synchronous_commit = on")
        try body(db)
        if let hook {
          do { try hook(db) } catch let error as PostgresError { throw error } catch {
            throw PostgresError(state: nil, message: "\(error)")
          }
        }
        try db.execute("COMMIT")
      } catch {
        if !error.connectionLost { _ = try? db.execute("ROLLBACK") }
        throw error
      }
    }
  }

  private func open() throws(PostgresError) -> PostgresConnection {
    if let open = connection.withLock({ $0 }) { return open }
    let made = try PostgresConnection(address, defaults: Self.connectionDefaults, silence: silence)
    connection.withLock { $0 = made }
    return made
  }

  /// Reads a package's parts in order through a server-side cursor, a few at a time, in one
  /// read-only transaction: a large snapshot is never all in one result.
  func parts(
    of name: PackageName, table: String, column: String, where condition: String,
    _ key: [String], limit: Int64 = .max, _ each: (String) throws -> [UInt8]
  ) throws -> (bytes: [UInt8], tooLarge: Bool) {
    var bytes: [UInt8] = []
    var tooLarge = false
    var failure: (any Error)?
    try perform { db throws(PostgresError) in
      try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      do throws(PostgresError) {
        try limitTransaction(db)
        if limit < .max {
          // What the rows hold, as the server counts it: none of it fetched when too large.
          // And no part larger than Docket writes (about a mebibyte), which a fetch of a few
          // would hold whole.
          let size = try db.execute(
            """
            SELECT coalesce(sum(octet_length(\(column))), 0),
              coalesce(max(octet_length(\(column))), 0)
            FROM \(schema).\(table) WHERE \(condition)
            """, key)
          if (size[0, 0].flatMap(Int64.init) ?? 0) > limit
            || (size[0, 1].flatMap(Int64.init) ?? 0) > Self.largestPart
          {
            tooLarge = true
            try db.execute("COMMIT")
            return
          }
        }
        try db.execute(
          """
          DECLARE docket_parts NO SCROLL CURSOR FOR
          SELECT \(column) FROM \(schema).\(table) WHERE \(condition) ORDER BY part
          """, key)
        fetching: while true {
          let rows = try db.execute("FETCH \(Self.fetchParts) FROM docket_parts")
          if rows.rows.isEmpty { break }
          for row in rows.rows {
            do { bytes += try each(row[0] ?? "") } catch {
              failure = error
              break fetching
            }
          }
        }
        try db.execute("COMMIT")
      } catch {
        if !error.connectionLost { _ = try? db.execute("ROLLBACK") }
        throw error
      }
    }
    if let failure { throw failure }
    return (bytes, tooLarge)
  }
}
