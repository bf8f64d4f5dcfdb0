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

/// The FTS5 API of a connection, found the documented way: `SELECT fts5(?1)` with a pointer
/// bound to ?1. Null when FTS5 is missing.
static inline fts5_api *docket_fts5_api(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *statement = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
  sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
  sqlite3_step(statement);
  sqlite3_finalize(statement);
  return api;
}

/// A tokenizer of FTS5's own, made with the given arguments (`unicode61`, `remove_diacritics`,
/// `2`); `methods` receives its functions. Null when it cannot be made.
static inline Fts5Tokenizer *docket_fts5_tokenizer(fts5_api *api, const char *name,
                                                  const char **arguments, int argumentCount,
                                                  fts5_tokenizer *methods) {
  void *context = 0;
  if (api->xFindTokenizer(api, name, &context, methods) != SQLITE_OK) return 0;
  Fts5Tokenizer *tokenizer = 0;
  if (methods->xCreate(context, arguments, argumentCount, &tokenizer) != SQLITE_OK) return 0;
  return tokenizer;
}

#endif
