import CSQLite
import Foundation

/// A prepared statement. Values are only ever bound, never spliced into the SQL text.
///
/// Statements belong to the connection that prepared them and are used on its thread of access
/// only; the connection caches them by SQL text.
public final class Statement {
  let handle: OpaquePointer
  public let sql: String
  /// Tables the statement reads, as SQLite's authorizer reported them when it was prepared.
  public let readTables: Set<String>
  /// Tables the statement writes (including through triggers), as the authorizer reported them.
  public let writtenTables: Set<String>
  /// Column names of the result, read once.
  public let columnNames: [String]
  var isInUse = false
  /// When the cache last handed it out, to let the least recently used go first.
  var lastUse: UInt64 = 0

  init(handle: OpaquePointer, sql: String, readTables: Set<String>, writtenTables: Set<String>) {
    self.handle = handle
    self.sql = sql
    self.readTables = readTables
    self.writtenTables = writtenTables
    let count = Int(sqlite3_column_count(handle))
    self.columnNames = (0..<count).map { String(cString: sqlite3_column_name(handle, Int32($0))) }
  }

  deinit {
    sqlite3_finalize(handle)
  }

  func bind(_ arguments: [any DatabaseValueConvertible], connection: Connection) throws {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard expected == arguments.count else {
      throw SQLiteError(
        code: SQLITE_RANGE,
        message: "the statement takes \(expected) arguments but was given \(arguments.count)",
        sql: sql)
    }
    for (offset, argument) in arguments.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch argument.databaseValue {
      case .null:
        status = sqlite3_bind_null(handle, index)
      case .integer(let number):
        status = sqlite3_bind_int64(handle, index, number)
      case .real(let number):
        status = sqlite3_bind_double(handle, index, number)
      case .text(let text):
        status = text.utf8CString.withUnsafeBufferPointer { buffer in
          docket_sqlite3_bind_text_transient(
            handle, index, buffer.baseAddress, Int32(buffer.count - 1))
        }
      case .blob(let data):
        status = data.withUnsafeBytes { bytes in
          docket_sqlite3_bind_blob_transient(handle, index, bytes.baseAddress, Int32(bytes.count))
        }
      }
      if status != SQLITE_OK { throw connection.error(status, sql: sql) }
    }
  }
}

/// The current row of a running statement. Valid only inside the closure it is handed to.
///
/// Reading a row costs nothing until a column is asked for, so a page of results decodes only the
/// columns it uses. Do not keep a `Row` after the closure returns: its statement moves on.
public struct Row {
  let statement: Statement

  public var count: Int { statement.columnNames.count }

  /// The raw value of a column.
  public func value(at index: Int) -> DatabaseValue {
    let handle = statement.handle
    let column = Int32(index)
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(handle, column))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(handle, column))
    case SQLITE_TEXT:
      guard let bytes = sqlite3_column_text(handle, column) else { return .text("") }
      let length = Int(sqlite3_column_bytes(handle, column))
      return .text(
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
    case SQLITE_BLOB:
      let length = Int(sqlite3_column_bytes(handle, column))
      guard length > 0, let bytes = sqlite3_column_blob(handle, column) else {
        return .blob(Data())
      }
      return .blob(Data(bytes: bytes, count: length))
    default:
      return .null
    }
  }

  // Concrete reads of the common types. The generic `get` below works for every convertible
  // type; these skip its dispatch and the `DatabaseValue` on the way, which long lists feel.

  public func get(_ index: Int, as type: String.Type = String.self) throws -> String {
    guard let bytes = ownText(index) else { return try getGeneric(index) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A text column's bytes in SQLite's buffer, valid until the row moves on; nil for a column
  /// of any other type, which the typed reads leave to `getGeneric`.
  private func ownText(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
    let handle = statement.handle
    let column = Int32(index)
    guard sqlite3_column_type(handle, column) == SQLITE_TEXT,
      let bytes = sqlite3_column_text(handle, column)
    else { return nil }
    return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
  }

  /// The bytes of a text or blob column, read in SQLite's own buffer (empty for NULL and
  /// numbers). Valid only inside `body`.
  public func withTextBytes<Result>(
    _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    let handle = statement.handle
    let column = Int32(index)
    let type = sqlite3_column_type(handle, column)
    guard type == SQLITE_TEXT || type == SQLITE_BLOB,
      let bytes = sqlite3_column_text(handle, column)
    else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    return try body(
      UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
  }

  /// Whether a column holds text. Asked before anything else of the column: reading a number or
  /// a blob as text (`withTextBytes`) turns SQLite's copy of it into text.
  public func isText(_ index: Int) -> Bool {
    sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_TEXT
  }

  /// Appends the bytes of a column as `get(_:as: String.self)` reads it: a text column's own
  /// bytes, copied from SQLite's buffer without a string on the way.
  public func appendText(_ index: Int, to bytes: inout [UInt8]) throws {
    guard let text = ownText(index) else {
      let string: String = try getGeneric(index)
      bytes.append(contentsOf: string.utf8)
      return
    }
    bytes.append(contentsOf: text)
  }

  public func get(_ index: Int, as type: Int.Type = Int.self) throws -> Int {
    guard sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_INTEGER else {
      return try getGeneric(index)
    }
    return Int(sqlite3_column_int64(statement.handle, Int32(index)))
  }

  public func get(_ index: Int, as type: Int64.Type = Int64.self) throws -> Int64 {
    guard sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_INTEGER else {
      return try getGeneric(index)
    }
    return sqlite3_column_int64(statement.handle, Int32(index))
  }

  public func get(_ index: Int, as type: Bool.Type = Bool.self) throws -> Bool {
    guard sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_INTEGER else {
      return try getGeneric(index)
    }
    return sqlite3_column_int64(statement.handle, Int32(index)) != 0
  }

  public func get(_ index: Int, as type: Date.Type = Date.self) throws -> Date {
    guard sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_FLOAT else {
      return try getGeneric(index)
    }
    return Date(timeIntervalSince1970: sqlite3_column_double(statement.handle, Int32(index)))
  }

  public func get(_ index: Int, as type: Date?.Type = Date?.self) throws -> Date? {
    switch sqlite3_column_type(statement.handle, Int32(index)) {
    case SQLITE_NULL: return nil
    case SQLITE_FLOAT:
      return Date(timeIntervalSince1970: sqlite3_column_double(statement.handle, Int32(index)))
    default: return try getGeneric(index)
    }
  }

  /// A number column as SQLite gives it (integers widened); nil for NULL. Dates are stored so:
  /// reading the number itself keeps every bit that a `Date` made from it has.
  public func double(at index: Int) -> Double? {
    sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_NULL
      ? nil : sqlite3_column_double(statement.handle, Int32(index))
  }

  private func getGeneric<Value: DatabaseValueConvertible>(_ index: Int) throws -> Value {
    let raw = value(at: index)
    guard let decoded = Value(databaseValue: raw) else {
      throw RowDecodingError(
        column: index, columnName: statement.columnNames[index],
        expectedType: String(describing: Value.self), found: raw)
    }
    return decoded
  }

  /// A UUID column, parsed from SQLite's own buffer (no string is made on the way).
  public func get(_ index: Int, as type: UUID.Type = UUID.self) throws -> UUID {
    guard let bytes = ownText(index) else { return try getGeneric(index) }
    guard let id = UUID(textBytes: bytes) else {
      throw RowDecodingError.notUUID(bytes, column: index, columnName: statement.columnNames[index])
    }
    return id
  }

  /// The value of a column as a Swift type; throws when the stored value does not fit it.
  public func get<Value: DatabaseValueConvertible>(
    _ index: Int, as type: Value.Type = Value.self
  ) throws -> Value {
    try getGeneric(index)
  }
}
