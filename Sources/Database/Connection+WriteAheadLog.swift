import CSQLite
import Foundation

/// The size of the write-ahead log (the `-wal` file beside the database).
///
/// SQLite copies the log into the database at each commit that leaves more than a thousand pages
/// in it, and the next transaction writes the log again from its start; but the file keeps the
/// size of the largest transaction ever written, so a large import into an empty database would
/// leave a log as large as the database beside it, for good. So after a
/// write that leaves the log over `logSizeLimit`, the writer empties it (`shrinkLog`) if no
/// connection is reading it at that moment; a reader is not waited for. SQLite is also told the
/// limit (`journal_size_limit`), which it applies itself whenever it starts the log again from
/// its beginning (after a write, once every page is in the database and nobody reads the log).
extension Connection {
  /// The log's size when no large transaction has been written: many times the thousand pages
  /// (4 MiB) it is copied into the database at.
  public static let logSizeLimit = 16 << 20

  /// Tells SQLite to cut the log back to `logSizeLimit` whenever it starts it again.
  func limitLogSize() throws {
    _ = try fetchOne("PRAGMA journal_size_limit = \(Self.logSizeLimit)", as: Int.self)
  }

  /// After a write: when the log is over `limit` bytes, copies what is left of it into the
  /// database and empties the file, if no reader is using it. A reader is never waited for:
  /// the log then stays until a later write finds it free. Does nothing inside a transaction,
  /// or for a database without a log file.
  func shrinkLog(over limit: Int = Connection.logSizeLimit) {
    // SQLite's own name for the log: beside the database file a link leads to, not the link.
    guard !isInTransaction, let file = sqlite3_db_filename(handle, "main"),
      let log = sqlite3_filename_wal(file)
    else { return }
    var info = stat()
    guard stat(log, &info) == 0, Int(info.st_size) > limit else { return }
    sqlite3_busy_timeout(handle, 0)
    defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
    _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
  }
}
