import CSQLite

/// An error reported by SQLite, with its result codes and message and the SQL that caused it.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
  public var code: Int32
  /// The extended result code, which says more (`SQLITE_CONSTRAINT_FOREIGNKEY`, …).
  public var extendedCode: Int32
  public var message: String
  public var sql: String?

  public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
    self.code = code & 0xff
    self.extendedCode = extendedCode ?? code
    self.message = message
    self.sql = sql
  }

  /// A database whose schema lacks what its program made in it (an object dropped by hand), said
  /// as SQLite says a damaged file.
  public static func damaged(_ message: String) -> SQLiteError {
    SQLiteError(code: SQLITE_CORRUPT, message: message)
  }

  public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
  public var isNotADatabase: Bool { code == SQLITE_NOTADB }
  public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
  public var isReadOnly: Bool { code == SQLITE_READONLY }
  /// The disk is full (or an I/O error whose cause was, as `Connection` reports it).
  public var isFull: Bool { code == SQLITE_FULL }
  public var isIOError: Bool { code == SQLITE_IOERR }

  public var description: String {
    let name = String(cString: sqlite3_errstr(extendedCode))
    var text = "SQLite error \(extendedCode) (\(name)): \(message)"
    if let sql { text += " — while running: \(sql)" }
    return text
  }
}

/// Why a database file could not be opened for use.
public enum DatabaseOpenError: Error, Sendable, Equatable {
  /// The file exists but is not an SQLite database. It was left untouched.
  case notADatabase(path: String)
  /// The file is an SQLite database that belongs to another program. It was left untouched.
  case foreignDatabase(path: String)
  /// The file was written by a newer version of the program. It was left untouched.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The file or its folder could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// The file could only be read as unchanging (a read-only place, a full disk), and a
  /// write-ahead log lies beside it, which SQLite reads only where it can also write the
  /// shared-memory file: read without it, the latest changes would be missing.
  case logUnreadable(path: String)
  /// The path is a folder (SQLite's words for it are "disk I/O error").
  case folder(path: String)
}

/// A column could not be read as the Swift type asked for.
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
  public var column: Int
  public var columnName: String
  public var expectedType: String
  public var found: DatabaseValue

  public var description: String {
    "column \(column) (\(columnName)) holds \(found), which is not a \(expectedType)"
  }

  /// A text column whose bytes (`text`) are no UUID.
  public static func notUUID(
    _ text: UnsafeBufferPointer<UInt8>, column: Int, columnName: String
  ) -> RowDecodingError {
    RowDecodingError(
      column: column, columnName: columnName, expectedType: "UUID",
      found: .text(String(decoding: text, as: UTF8.self)))
  }
}
