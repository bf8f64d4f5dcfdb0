#include "CPostgres.h"

#include "CLibraryLoader.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>

typedef void (*notice_processor)(void *argument, const char *message);

static struct {
  PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
  int (*status)(const PGconn *);
  char *(*errorMessage)(const PGconn *);
  void (*finish)(PGconn *);
  notice_processor (*setNoticeProcessor)(PGconn *, notice_processor, void *);
  PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *,
                          const int *, const int *, int);
  int (*resultStatus)(const PGresult *);
  char *(*resultErrorMessage)(const PGresult *);
  char *(*resultErrorField)(const PGresult *, int);
  int (*ntuples)(const PGresult *);
  int (*nfields)(const PGresult *);
  char *(*fname)(const PGresult *, int);
  char *(*getvalue)(const PGresult *, int, int);
  int (*getisnull)(const PGresult *, int, int);
  void (*clear)(PGresult *);
  int (*socket)(const PGconn *);
  int (*consumeInput)(PGconn *);
  PGnotify *(*notifies)(PGconn *);
  void (*freemem)(void *);
  int (*sslInUse)(PGconn *);
  int (*backendPID)(const PGconn *);
  PQconninfoOption *(*conninfoParse)(const char *, char **);
  void (*conninfoFree)(PQconninfoOption *);
  int (*sendQueryParams)(PGconn *, const char *, int, const Oid *, const char *const *,
                         const int *, const int *, int);
  int (*setnonblocking)(PGconn *, int);
  int (*flush)(PGconn *);
  int (*isBusy)(PGconn *);
  PGresult *(*getResult)(PGconn *);
} api;

static const struct docket_symbol symbols[] = {
    {"PQconnectdbParams", (void **)&api.connectdbParams},
    {"PQstatus", (void **)&api.status},
    {"PQerrorMessage", (void **)&api.errorMessage},
    {"PQfinish", (void **)&api.finish},
    {"PQsetNoticeProcessor", (void **)&api.setNoticeProcessor},
    {"PQexecParams", (void **)&api.execParams},
    {"PQresultStatus", (void **)&api.resultStatus},
    {"PQresultErrorMessage", (void **)&api.resultErrorMessage},
    {"PQresultErrorField", (void **)&api.resultErrorField},
    {"PQntuples", (void **)&api.ntuples},
    {"PQnfields", (void **)&api.nfields},
    {"PQfname", (void **)&api.fname},
    {"PQgetvalue", (void **)&api.getvalue},
    {"PQgetisnull", (void **)&api.getisnull},
    {"PQclear", (void **)&api.clear},
    {"PQsocket", (void **)&api.socket},
    {"PQconsumeInput", (void **)&api.consumeInput},
    {"PQnotifies", (void **)&api.notifies},
    {"PQfreemem", (void **)&api.freemem},
    {"PQsslInUse", (void **)&api.sslInUse},
    {"PQbackendPID", (void **)&api.backendPID},
    {"PQconninfoParse", (void **)&api.conninfoParse},
    {"PQconninfoFree", (void **)&api.conninfoFree},
    {"PQsendQueryParams", (void **)&api.sendQueryParams},
    {"PQsetnonblocking", (void **)&api.setnonblocking},
    {"PQflush", (void **)&api.flush},
    {"PQisBusy", (void **)&api.isBusy},
    {"PQgetResult", (void **)&api.getResult},
};

static struct docket_library library = {
    .name = "libpq",
    .about = "PostgreSQL's client library",
    .linux_file = "libpq.so.5",
    .mac_file = "libpq.5.dylib",
    .debian_package = "libpq5",
    .homebrew_formula = "libpq",
    .symbols = symbols,
    .symbol_count = sizeof symbols / sizeof symbols[0],
};

const char *docket_pq_load(void) {
  return docket_load(&library);
}

PGconn *docket_PQconnectdbParams(const char *const *keywords, const char *const *values,
                                 int expand_dbname) {
  return api.connectdbParams(keywords, values, expand_dbname);
}
int docket_PQstatus(const PGconn *connection) { return api.status(connection); }
char *docket_PQerrorMessage(const PGconn *connection) { return api.errorMessage(connection); }
void docket_PQfinish(PGconn *connection) { api.finish(connection); }

static void ignore_notice(void *argument, const char *message) {
  (void)argument;
  (void)message;
}

void docket_PQsilenceNotices(PGconn *connection) {
  api.setNoticeProcessor(connection, ignore_notice, NULL);
}

PGresult *docket_PQexecParams(PGconn *connection, const char *command, int count,
                              const char *const *values) {
  return api.execParams(connection, command, count, NULL, values, NULL, NULL, 0);
}
/// Waits up to 100 ms for the socket to be ready for `events`; 1 ready, 0 not (or interrupted).
static int await_socket(PGconn *connection, short events) {
  struct pollfd descriptor = {.fd = api.socket(connection), .events = events, .revents = 0};
  int ready = poll(&descriptor, 1, 100);
  return ready > 0;
}

PGresult *docket_PQexecParamsWithin(PGconn *connection, const char *command, int count,
                                    const char *const *values, int silence, int *timedOut) {
  *timedOut = 0;
  // Without blocking: every wait, for sending as for the answer, is a short poll, and the call
  // gives up once `silence` ms have gone by with the socket never ready. libpq is asked again
  // after each poll whether or not the socket looked ready: TLS may hold bytes already read
  // from it, which no poll of the socket shows.
  if (api.setnonblocking(connection, 1) != 0) return NULL;
  if (!api.sendQueryParams(connection, command, count, NULL, values, NULL, NULL, 0)) {
    return NULL;
  }
  int quiet = 0;
  for (;;) {
    int left = api.flush(connection);
    if (left < 0) return NULL;
    if (left == 0) break;
    if (await_socket(connection, POLLOUT | POLLIN)) {
      quiet = 0;
    } else if ((quiet += 100) >= silence) {
      *timedOut = 1;
      return NULL;
    }
    if (!api.consumeInput(connection)) return NULL;
  }
  PGresult *last = NULL;
  quiet = 0;
  for (;;) {
    while (api.isBusy(connection)) {
      if (await_socket(connection, POLLIN)) {
        quiet = 0;
      } else if ((quiet += 100) >= silence) {
        *timedOut = 1;
        if (last) api.clear(last);
        return NULL;
      }
      if (!api.consumeInput(connection)) {
        if (last) api.clear(last);
        return NULL;
      }
    }
    PGresult *result = api.getResult(connection);
    if (!result) return last;
    if (last) api.clear(last);
    last = result;
    // COPY (which Docket does not use) hands over the connection: no further result comes.
    int status = api.resultStatus(result);
    if (status == 3 || status == 4 || status == 8) return last;
  }
}

int docket_PQresultStatus(const PGresult *result) { return api.resultStatus(result); }
char *docket_PQresultErrorMessage(const PGresult *result) {
  return api.resultErrorMessage(result);
}
char *docket_PQresultErrorField(const PGresult *result, int field) {
  return api.resultErrorField(result, field);
}
int docket_PQntuples(const PGresult *result) { return api.ntuples(result); }
int docket_PQnfields(const PGresult *result) { return api.nfields(result); }
char *docket_PQfname(const PGresult *result, int column) { return api.fname(result, column); }
char *docket_PQgetvalue(const PGresult *result, int row, int column) {
  return api.getvalue(result, row, column);
}
int docket_PQgetisnull(const PGresult *result, int row, int column) {
  return api.getisnull(result, row, column);
}
void docket_PQclear(PGresult *result) { api.clear(result); }
int docket_PQsocket(const PGconn *connection) { return api.socket(connection); }
int docket_PQconsumeInput(PGconn *connection) { return api.consumeInput(connection); }
PGnotify *docket_PQnotifies(PGconn *connection) { return api.notifies(connection); }
void docket_PQfreemem(void *pointer) { api.freemem(pointer); }
int docket_PQsslInUse(PGconn *connection) { return api.sslInUse(connection); }
int docket_PQbackendPID(const PGconn *connection) { return api.backendPID(connection); }
PQconninfoOption *docket_PQconninfoParse(const char *conninfo, char **error) {
  return api.conninfoParse(conninfo, error);
}
void docket_PQconninfoFree(PQconninfoOption *options) { api.conninfoFree(options); }
