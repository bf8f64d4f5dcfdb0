import CSQLite

extension Connection {
  /// Replaces everything in this database with the contents of the database file at `path`,
  /// page by page (SQLite's backup API: nothing is inserted row by row, no index is built
  /// again). The file is read as immutable. Must run outside a transaction; the caller checks the
  /// file first (`Connection.immutable(path:)`, `PRAGMA quick_check`).
  public func replaceContents(withDatabaseAt path: String) throws {
    var source: OpaquePointer?
    let status = sqlite3_open_v2(
      Self.immutableURI(path), &source,
      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
      nil)
    defer { sqlite3_close_v2(source) }
    guard status == SQLITE_OK, let source else {
      let message = source.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      throw DatabaseOpenError.cannotOpen(path: path, reason: message)
    }
    guard let backup = sqlite3_backup_init(handle, "main", source, "main") else {
      throw error(sqlite3_errcode(handle), sql: nil)
    }
    let stepped = sqlite3_backup_step(backup, -1)
    let finished = sqlite3_backup_finish(backup)
    guard stepped == SQLITE_DONE else { throw error(stepped, sql: nil) }
    guard finished == SQLITE_OK else { throw error(finished, sql: nil) }
  }
}
