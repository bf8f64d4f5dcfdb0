#ifndef DOCKET_CSQLITE_SHIM_H
#define DOCKET_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a function-like cast macro that Swift cannot import: it tells SQLite to
/// copy a bound text or blob before the call returns.
static inline int docket_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index,
                                                     const char *text, int byteCount) {
  return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_TRANSIENT);
}

static inline int docket_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                     const void *bytes, int byteCount) {
  return sqlite3_bind_blob(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}

/// sqlite3_db_config is variadic; this wraps the one use Docket has: defensive mode, which keeps
/// ordinary SQL from corrupting the file through writable_schema and similar switches.
static inline int docket_sqlite3_enable_defensive(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

static inline void docket_sqlite3_result_text_transient(sqlite3_context *context,
                                                       const char *text, int byteCount) {
  sqlite3_result_text(context, text, byteCount, SQLITE_TRANSIENT);
}

static inline void docket_sqlite3_result_blob_transient(sqlite3_context *context,
                                                       const void *bytes, int byteCount) {
  sqlite3_result_blob(context, bytes, byteCount, SQLITE_TRANSIENT);
}

#endif
