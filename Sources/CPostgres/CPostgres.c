#include "CPostgres.h"

#include "CLibraryLoader.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
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

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int loaded;

static void load(void) {
  static const char *const names[] = {
      "libpq.so.5",
      "libpq.5.dylib",
      "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
      "/usr/local/opt/libpq/lib/libpq.5.dylib",
  };
  void *library = docket_open_library(
      names, sizeof names / sizeof names[0], "libpq, PostgreSQL's client library,",
      "libpq5 (Debian, Ubuntu) or libpq (Homebrew)", failure, sizeof failure);
  if (!library) return;
#define DOCKET_RESOLVE(field, symbol)                                                        \
  if (!docket_resolve(library, symbol, (void **)&api.field, "libpq", failure, sizeof failure)) \
  return
  DOCKET_RESOLVE(connectdbParams, "PQconnectdbParams");
  DOCKET_RESOLVE(status, "PQstatus");
  DOCKET_RESOLVE(errorMessage, "PQerrorMessage");
  DOCKET_RESOLVE(finish, "PQfinish");
  DOCKET_RESOLVE(setNoticeProcessor, "PQsetNoticeProcessor");
  DOCKET_RESOLVE(execParams, "PQexecParams");
  DOCKET_RESOLVE(resultStatus, "PQresultStatus");
  DOCKET_RESOLVE(resultErrorMessage, "PQresultErrorMessage");
  DOCKET_RESOLVE(resultErrorField, "PQresultErrorField");
  DOCKET_RESOLVE(ntuples, "PQntuples");
  DOCKET_RESOLVE(nfields, "PQnfields");
  DOCKET_RESOLVE(fname, "PQfname");
  DOCKET_RESOLVE(getvalue, "PQgetvalue");
  DOCKET_RESOLVE(getisnull, "PQgetisnull");
  DOCKET_RESOLVE(clear, "PQclear");
  DOCKET_RESOLVE(socket, "PQsocket");
  DOCKET_RESOLVE(consumeInput, "PQconsumeInput");
  DOCKET_RESOLVE(notifies, "PQnotifies");
  DOCKET_RESOLVE(freemem, "PQfreemem");
  DOCKET_RESOLVE(sslInUse, "PQsslInUse");
  DOCKET_RESOLVE(backendPID, "PQbackendPID");
  DOCKET_RESOLVE(conninfoParse, "PQconninfoParse");
  DOCKET_RESOLVE(conninfoFree, "PQconninfoFree");
  DOCKET_RESOLVE(sendQueryParams, "PQsendQueryParams");
  DOCKET_RESOLVE(setnonblocking, "PQsetnonblocking");
  DOCKET_RESOLVE(flush, "PQflush");
  DOCKET_RESOLVE(isBusy, "PQisBusy");
  DOCKET_RESOLVE(getResult, "PQgetResult");
#undef DOCKET_RESOLVE
  loaded = 1;
}

const char *docket_pq_load(void) {
  pthread_once(&once, load);
  return loaded ? NULL : failure;
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
