import CPostgres
import Foundation
import Locking

/// Why a statement or a connection failed: the server's SQLSTATE when it gave one, and libpq's
/// message on one line.
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The five-character SQLSTATE (`42501` insufficient privilege), nil when the connection
  /// failed before the server answered.
  public var state: String?
  public var message: String
  /// True when the connection is gone (the server stopped, the network cut): a new one may work.
  public var connectionLost: Bool

  public init(state: String?, message: String, connectionLost: Bool = false) {
    self.state = state
    self.message = message
    self.connectionLost = connectionLost
  }

  /// The role lacks a right the statement needs.
  public var isPermissionDenied: Bool { state == "42501" }
  /// A schema or table that is not there.
  public var isUndefinedObject: Bool { state == "3F000" || state == "42P01" }
  /// The password or the role was refused when connecting.
  public var isAuthentication: Bool { state == "28P01" || state == "28000" }

  public var description: String { message }

  /// The reason alone, short enough for a status line: `Connection refused` of libpq's
  /// `connection to server at "…", port … failed: Connection refused`, and its first sentence.
  public var reason: String {
    var text = message
    if let range = text.range(of: "failed: ", options: .backwards) {
      text = String(text[range.upperBound...])
    }
    for end in [" Is the server", "\n"] {
      if let range = text.range(of: end) { text = String(text[..<range.lowerBound]) }
    }
    return text
  }

  /// libpq's messages end in a newline and sometimes span lines: one line, trimmed.
  static func flatten(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: " ")
  }
}

/// The rows of a result, as text (libpq's text format); nil is SQL NULL.
public struct PostgresRows: Sendable {
  public var columns: [String]
  public var rows: [[String?]]

  public subscript(row: Int, column: Int) -> String? { rows[row][column] }
}

/// One connection to a PostgreSQL server through libpq. The connection string is a
/// `postgres://` URL or `key=value` pairs; what it leaves out comes from the `PG*` environment
/// variables and `~/.pgpass`, and TLS is used as `sslmode` says (by default: when the server
/// offers it). Used from one thread at a time; the lock makes a mistake there safe, not fast.
public final class PostgresConnection: @unchecked Sendable {
  private let handle: OpaquePointer
  private let lock = Locked(())
  /// How long a statement may wait without a byte from the server before the connection is
  /// taken for lost: 30 s. A large result comes in pieces long before that; a network gone silent
  /// without closing (a Wi-Fi dropped, a proxy that stopped forwarding) is then said in words.
  public static let silenceLimit: Duration = .seconds(30)
  private let silence: Int32

  /// Connects. `defaults` are parameters that the connection string may override
  /// (`connect_timeout`, `application_name`).
  public init(
    _ conninfo: String, defaults: [(String, String)] = [], silence: Duration = silenceLimit
  ) throws(PostgresError) {
    let (seconds, attoseconds) = silence.components
    self.silence = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    // Later parameters override earlier ones, and the expanded `dbname` is last: what the user
    // wrote wins over the defaults.
    if let missing = docket_pq_load() {
      throw PostgresError(state: nil, message: String(cString: missing), connectionLost: true)
    }
    let pairs = defaults + [("dbname", conninfo)]
    let connection = Self.withCStrings(pairs.map(\.0)) { keys in
      Self.withCStrings(pairs.map(\.1)) { values in
        docket_PQconnectdbParams(keys, values, 1)
      }
    }
    guard let connection else {
      throw PostgresError(state: nil, message: "out of memory", connectionLost: true)
    }
    guard docket_PQstatus(connection) == DOCKET_CONNECTION_OK else {
      let message = PostgresError.flatten(String(cString: docket_PQerrorMessage(connection)))
      docket_PQfinish(connection)
      // libpq does not give a SQLSTATE for a refused password; its message says it.
      let authentication =
        message.contains("password authentication failed")
        || message.contains("no password supplied")
        || message.contains("role") && message.contains("does not exist")
      throw PostgresError(
        state: authentication ? "28P01" : nil, message: message, connectionLost: true)
    }
    handle = connection
    docket_PQsilenceNotices(connection)
  }

  deinit { docket_PQfinish(handle) }

  /// Runs one statement with `$1`, `$2`, … bound to `parameters` (as text; nil is NULL).
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError)
    -> PostgresRows
  {
    let outcome: Result<PostgresRows, PostgresError> = lock.withLock { _ in
      var timedOut: Int32 = 0
      let result = Self.withOptionalCStrings(parameters) { values in
        docket_PQexecParamsWithin(
          handle, sql, Int32(parameters.count), values, silence, &timedOut)
      }
      defer { if let result { docket_PQclear(result) } }
      if timedOut != 0 {
        return .failure(
          PostgresError(
            state: nil,
            message: "the server did not answer for \(silence / 1000) s (the network went silent)",
            connectionLost: true))
      }
      return Self.rows(of: result, connection: handle)
    }
    return try outcome.get()
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  public func transaction<Value>(
    _ begin: String = "BEGIN", _ body: () throws -> Value
  ) throws -> Value {
    try execute(begin)
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      if docket_PQstatus(handle) == DOCKET_CONNECTION_OK { _ = try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The descriptor to wait on for notifications.
  public var socket: Int32 { lock.withLock { _ in docket_PQsocket(handle) } }

  /// Reads what the server sent and returns the notifications that arrived, as (channel,
  /// payload). Fails when the connection is gone.
  public func notifications() throws(PostgresError) -> [(channel: String, payload: String)] {
    let outcome: Result<[(channel: String, payload: String)], PostgresError> = lock.withLock { _ in
      guard docket_PQconsumeInput(handle) == 1, docket_PQstatus(handle) == DOCKET_CONNECTION_OK
      else {
        return .failure(
          PostgresError(
            state: nil,
            message: PostgresError.flatten(String(cString: docket_PQerrorMessage(handle))),
            connectionLost: true))
      }
      var found: [(channel: String, payload: String)] = []
      while let notice = docket_PQnotifies(handle) {
        found.append(
          (String(cString: notice.pointee.relname), String(cString: notice.pointee.extra)))
        docket_PQfreemem(notice)
      }
      return .success(found)
    }
    return try outcome.get()
  }

  /// True when the connection is encrypted with TLS.
  public var usesTLS: Bool { lock.withLock { _ in docket_PQsslInUse(handle) == 1 } }

  /// The server process serving this connection (`pg_terminate_backend` ends it).
  public var serverProcess: Int32 { lock.withLock { _ in docket_PQbackendPID(handle) } }

  /// Why libpq cannot be used (not installed), or nil when it can.
  public static var libraryProblem: String? { docket_pq_load().map { String(cString: $0) } }

  /// Starts loading libpq on another thread, for a connection soon to come: the loading (libpq
  /// and the libraries for TLS and Kerberos it brings, a noticeable part of a short sync) goes
  /// on beside the work before the connection, which then waits only for what is left of it.
  public static func loadLibraryInBackground() {
    _ = backgroundLoad
  }

  /// Started once: a later call finds the library loaded, or being loaded.
  private static let backgroundLoad: Void = Thread.detachNewThread { _ = docket_pq_load() }

  /// The parameters a connection string sets, as libpq reads it (nil when it cannot read it,
  /// with its reason).
  public static func parameters(of conninfo: String) -> Result<[String: String], PostgresError> {
    if let missing = docket_pq_load() {
      return .failure(PostgresError(state: nil, message: String(cString: missing)))
    }
    var error: UnsafeMutablePointer<CChar>?
    guard let options = docket_PQconninfoParse(conninfo, &error) else {
      let message = error.map { PostgresError.flatten(String(cString: $0)) } ?? "out of memory"
      if let error { docket_PQfreemem(error) }
      return .failure(PostgresError(state: nil, message: message))
    }
    defer { docket_PQconninfoFree(options) }
    var found: [String: String] = [:]
    var option = options
    while let keyword = option.pointee.keyword {
      if let value = option.pointee.val { found[String(cString: keyword)] = String(cString: value) }
      option += 1
    }
    return .success(found)
  }

  /// Quotes a name for SQL: `"docket_acme"`.
  public static func identifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  // MARK: - libpq's memory

  private static func rows(of result: OpaquePointer?, connection: OpaquePointer)
    -> Result<PostgresRows, PostgresError>
  {
    guard let result else {
      return .failure(
        PostgresError(
          state: nil,
          message: PostgresError.flatten(String(cString: docket_PQerrorMessage(connection))),
          connectionLost: docket_PQstatus(connection) != DOCKET_CONNECTION_OK))
    }
    switch docket_PQresultStatus(result) {
    case Int32(DOCKET_PGRES_COMMAND_OK), Int32(DOCKET_PGRES_EMPTY_QUERY):
      return .success(PostgresRows(columns: [], rows: []))
    case Int32(DOCKET_PGRES_TUPLES_OK):
      let columnCount = docket_PQnfields(result)
      let rowCount = docket_PQntuples(result)
      let columns = (0..<columnCount).map { String(cString: docket_PQfname(result, $0)) }
      var rows: [[String?]] = []
      rows.reserveCapacity(Int(rowCount))
      for row in 0..<rowCount {
        rows.append(
          (0..<columnCount).map { column in
            docket_PQgetisnull(result, row, column) == 1
              ? nil : String(cString: docket_PQgetvalue(result, row, column))
          })
      }
      return .success(PostgresRows(columns: columns, rows: rows))
    default:
      let state = docket_PQresultErrorField(result, Int32(DOCKET_PG_DIAG_SQLSTATE)).map {
        String(cString: $0)
      }
      let message = PostgresError.flatten(
        docket_PQresultErrorField(result, Int32(DOCKET_PG_DIAG_MESSAGE_PRIMARY)).map {
          String(cString: $0)
        }
          ?? String(cString: docket_PQresultErrorMessage(result)))
      return .failure(
        PostgresError(
          state: state, message: message.isEmpty ? "failed" : message,
          connectionLost: docket_PQstatus(connection) != DOCKET_CONNECTION_OK))
    }
  }

  private static func withCStrings<Value>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Value
  ) -> Value {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
  }

  private static func withOptionalCStrings<Value>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Value
  ) -> Value {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}
