#ifndef DOCKET_CPOSTGRES_H
#define DOCKET_CPOSTGRES_H

/// libpq, PostgreSQL's client library, loaded when a PostgreSQL remote is first used rather than
/// linked: a command starts without loading it and the libraries it needs (TLS, Kerberos, LDAP),
/// and a machine without libpq runs everything else. What Docket calls of it is declared here, as libpq 5 (its stable
/// interface since PostgreSQL 8) defines it; each docket_PQ… function calls libpq's PQ….

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef unsigned int Oid;

/// ConnStatusType's first two values.
enum { DOCKET_CONNECTION_OK = 0, DOCKET_CONNECTION_BAD = 1 };

/// ExecStatusType's values that Docket tells apart.
enum {
  DOCKET_PGRES_EMPTY_QUERY = 0,
  DOCKET_PGRES_COMMAND_OK = 1,
  DOCKET_PGRES_TUPLES_OK = 2,
};

/// PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY.
enum { DOCKET_PG_DIAG_SQLSTATE = 'C', DOCKET_PG_DIAG_MESSAGE_PRIMARY = 'M' };

typedef struct pgNotify {
  char *relname;
  int be_pid;
  char *extra;
  struct pgNotify *next;
} PGnotify;

typedef struct _PQconninfoOption {
  char *keyword;
  char *envvar;
  char *compiled;
  char *val;
  char *label;
  char *dispchar;
  int dispsize;
} PQconninfoOption;

/// Loads libpq once (thread-safe); returns NULL when it is there, or why it is not.
const char *docket_pq_load(void);

PGconn *docket_PQconnectdbParams(const char *const *keywords, const char *const *values,
                                 int expand_dbname);
int docket_PQstatus(const PGconn *connection);
char *docket_PQerrorMessage(const PGconn *connection);
void docket_PQfinish(PGconn *connection);
/// Drops the server's notices (`NOTICE: schema … already exists, skipping`), which libpq would
/// otherwise print on standard error.
void docket_PQsilenceNotices(PGconn *connection);
PGresult *docket_PQexecParams(PGconn *connection, const char *command, int count,
                              const char *const *values);
/// `PQexecParams`, but giving up once the server has been silent for `silence` ms (while the
/// statement is sent or its answer awaited): then NULL, with `*timedOut` set. A network that goes
/// silent without closing (a Wi-Fi gone, a proxy that stops forwarding) would otherwise hold the
/// call for ever. The connection is not to be used after a time-out.
PGresult *docket_PQexecParamsWithin(PGconn *connection, const char *command, int count,
                                    const char *const *values, int silence, int *timedOut);
int docket_PQresultStatus(const PGresult *result);
char *docket_PQresultErrorMessage(const PGresult *result);
char *docket_PQresultErrorField(const PGresult *result, int field);
int docket_PQntuples(const PGresult *result);
int docket_PQnfields(const PGresult *result);
char *docket_PQfname(const PGresult *result, int column);
char *docket_PQgetvalue(const PGresult *result, int row, int column);
int docket_PQgetisnull(const PGresult *result, int row, int column);
void docket_PQclear(PGresult *result);
int docket_PQsocket(const PGconn *connection);
int docket_PQconsumeInput(PGconn *connection);
PGnotify *docket_PQnotifies(PGconn *connection);
void docket_PQfreemem(void *pointer);
int docket_PQsslInUse(PGconn *connection);
int docket_PQbackendPID(const PGconn *connection);
PQconninfoOption *docket_PQconninfoParse(const char *conninfo, char **error);
void docket_PQconninfoFree(PQconninfoOption *options);

#endif
