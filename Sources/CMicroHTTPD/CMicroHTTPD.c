#include "CMicroHTTPD.h"

#include "CLibraryLoader.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

static struct {
  struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                     MHD_AccessHandlerCallback, void *, ...);
  void (*stop_daemon)(struct MHD_Daemon *);
  const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType,
                                                 ...);
  struct MHD_PostProcessor *(*create_post_processor)(struct MHD_Connection *, size_t,
                                                     MHD_PostDataIterator, void *);
  enum MHD_Result (*post_process)(struct MHD_PostProcessor *, const char *, size_t);
  enum MHD_Result (*destroy_post_processor)(struct MHD_PostProcessor *);
  int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind,
                               MHD_KeyValueIterator, void *);
  struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
                                                      enum MHD_ResponseMemoryMode);
  struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t,
                                                        MHD_ContentReaderCallback, void *,
                                                        MHD_ContentReaderFreeCallback);
  enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
  enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
                                    struct MHD_Response *);
  void (*destroy_response)(struct MHD_Response *);
  const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
                                                         enum MHD_ConnectionInfoType, ...);
} api;

/* GnuTLS's words for what TLS is spoken: 1.2 and 1.3 only, keys exchanged with forward secrecy
   (ECDHE), and AEAD ciphers only (AES-GCM, ChaCha20-Poly1305): no static RSA, no CBC. */
static const char *const tls_priorities =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:"
    "-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD";

static const struct docket_symbol symbols[] = {
    {"MHD_start_daemon", (void **)&api.start_daemon},
    {"MHD_stop_daemon", (void **)&api.stop_daemon},
    {"MHD_get_daemon_info", (void **)&api.get_daemon_info},
    {"MHD_create_post_processor", (void **)&api.create_post_processor},
    {"MHD_post_process", (void **)&api.post_process},
    {"MHD_destroy_post_processor", (void **)&api.destroy_post_processor},
    {"MHD_get_connection_values", (void **)&api.get_connection_values},
    {"MHD_create_response_from_buffer", (void **)&api.create_response_from_buffer},
    {"MHD_create_response_from_callback", (void **)&api.create_response_from_callback},
    {"MHD_add_response_header", (void **)&api.add_response_header},
    {"MHD_queue_response", (void **)&api.queue_response},
    {"MHD_destroy_response", (void **)&api.destroy_response},
    {"MHD_get_connection_info", (void **)&api.get_connection_info},
};

static struct docket_library library = {
    .name = "libmicrohttpd",
    .about = "the HTTP server library",
    .linux_file = "libmicrohttpd.so.12",
    .mac_file = "libmicrohttpd.12.dylib",
    .debian_package = "libmicrohttpd12",
    .homebrew_formula = "libmicrohttpd",
    .symbols = symbols,
    .symbol_count = sizeof symbols / sizeof symbols[0],
};

const char *docket_mhd_load(void) {
  return docket_load(&library);
}

// MARK: Deadlines

// A connection waits for its client in two places: for a request's head (a new connection, or
// one kept alive after an answer) and for a request's body. libmicrohttpd's timeout counts only
// silence, so a client that sends a byte every few seconds would hold a connection, and its
// thread, for ever. A watchdog thread cuts (shuts down the socket of) every connection that has
// waited longer than its deadline; libmicrohttpd then sees the end and closes it. A connection
// being answered (a page, or a live page's event stream) has no deadline.

enum { docket_waiting_for_head, docket_reading_body, docket_answering };

struct docket_http_server;

struct docket_watch {
  struct docket_http_server *server;
  int fd;
  int phase;
  int cut;
  struct timespec since;
  struct docket_watch *previous, *next;
};

struct docket_http_server {
  struct MHD_Daemon *daemon;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  pthread_t watchdog;
  int watching;
  int stopping;
  struct docket_watch *watches;
  unsigned int head_seconds, body_seconds;
  unsigned long cuts;
  MHD_AccessHandlerCallback handler;
  void *handler_context;
  MHD_RequestCompletedCallback completed;
  void *completed_context;
};

static struct timespec docket_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now;
}

static double docket_seconds_since(struct timespec since, struct timespec now) {
  return (double)(now.tv_sec - since.tv_sec) + (double)(now.tv_nsec - since.tv_nsec) / 1e9;
}

static struct docket_watch *docket_watch_of(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      api.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : (struct docket_watch *)info->socket_context;
}

static void docket_set_phase(struct MHD_Connection *connection, int phase) {
  struct docket_watch *watch = docket_watch_of(connection);
  if (watch == NULL) return;
  pthread_mutex_lock(&watch->server->lock);
  watch->phase = phase;
  watch->since = docket_now();
  pthread_mutex_unlock(&watch->server->lock);
}

static void docket_notify_connection(void *context, struct MHD_Connection *connection,
                                     void **socket_context, enum MHD_ConnectionNotificationCode code) {
  struct docket_http_server *server = context;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    struct docket_watch *watch = calloc(1, sizeof *watch);
    const union MHD_ConnectionInfo *info =
        api.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (watch == NULL || info == NULL) {
      free(watch);
      return;
    }
    watch->server = server;
    watch->fd = info->connect_fd;
    watch->phase = docket_waiting_for_head;
    watch->since = docket_now();
    pthread_mutex_lock(&server->lock);
    watch->next = server->watches;
    if (server->watches != NULL) server->watches->previous = watch;
    server->watches = watch;
    pthread_mutex_unlock(&server->lock);
    *socket_context = watch;
  } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    // Called before libmicrohttpd closes the socket: once the watch is gone, the watchdog can
    // no longer touch a number that a new connection may reuse.
    struct docket_watch *watch = *socket_context;
    if (watch == NULL) return;
    pthread_mutex_lock(&server->lock);
    if (watch->previous != NULL) watch->previous->next = watch->next;
    else server->watches = watch->next;
    if (watch->next != NULL) watch->next->previous = watch->previous;
    pthread_mutex_unlock(&server->lock);
    free(watch);
    *socket_context = NULL;
  }
}

static void *docket_watchdog(void *context) {
  struct docket_http_server *server = context;
  pthread_mutex_lock(&server->lock);
  while (!server->stopping) {
    // The condition waits by the monotonic clock (set in docket_http_start; macOS has only the
    // wall clock): a wall clock set back would otherwise stop the cuts until it caught up.
    struct timespec until;
#ifdef __APPLE__
    clock_gettime(CLOCK_REALTIME, &until);
#else
    until = docket_now();
#endif
    until.tv_sec += 1;
    pthread_cond_timedwait(&server->wake, &server->lock, &until);
    struct timespec now = docket_now();
    for (struct docket_watch *watch = server->watches; watch != NULL; watch = watch->next) {
      if (watch->cut || watch->phase == docket_answering) continue;
      unsigned int limit =
          watch->phase == docket_waiting_for_head ? server->head_seconds : server->body_seconds;
      if (docket_seconds_since(watch->since, now) > limit) {
        shutdown(watch->fd, SHUT_RDWR);
        watch->cut = 1;
        server->cuts += 1;
      }
    }
  }
  pthread_mutex_unlock(&server->lock);
  return NULL;
}

static enum MHD_Result docket_access(void *context, struct MHD_Connection *connection,
                                     const char *url, const char *method, const char *version,
                                     const char *upload_data, size_t *upload_size,
                                     void **request_context) {
  struct docket_http_server *server = context;
  // The first call of a request comes when its head has arrived; the last, with no more of the
  // body, is the moment to answer (however long the answer takes to make).
  if (*request_context == NULL) {
    docket_set_phase(connection, docket_reading_body);
  } else if (*upload_size == 0) {
    docket_set_phase(connection, docket_answering);
  }
  return server->handler(server->handler_context, connection, url, method, version, upload_data,
                         upload_size, request_context);
}

static void docket_completed(void *context, struct MHD_Connection *connection,
                             void **request_context, enum MHD_RequestTerminationCode code) {
  struct docket_http_server *server = context;
  docket_set_phase(connection, docket_waiting_for_head);
  if (server->completed != NULL) {
    server->completed(server->completed_context, connection, request_context, code);
  }
}

struct docket_http_server *docket_http_start(
    const char *address, uint16_t port, const char *cert, const char *key,
    unsigned int connection_limit, unsigned int timeout_seconds, unsigned int head_seconds,
    unsigned int body_seconds, size_t stack_size, MHD_AccessHandlerCallback handler,
    void *handler_context, MHD_RequestCompletedCallback completed, void *completed_context) {
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *socket_address;
  unsigned int flags =
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
  if (docket_mhd_load() != NULL) return NULL;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    socket_address = (const struct sockaddr *)&v4;
  } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    socket_address = (const struct sockaddr *)&v6;
    flags |= MHD_USE_IPv6;
  } else {
    return NULL;
  }
  struct docket_http_server *server = calloc(1, sizeof *server);
  if (server == NULL) return NULL;
  pthread_mutex_init(&server->lock, NULL);
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
#ifndef __APPLE__
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
#endif
  pthread_cond_init(&server->wake, &monotonic);
  pthread_condattr_destroy(&monotonic);
  server->head_seconds = head_seconds;
  server->body_seconds = body_seconds;
  server->handler = handler;
  server->handler_context = handler_context;
  server->completed = completed;
  server->completed_context = completed_context;
  if (cert != NULL && key != NULL) {
    server->daemon = api.start_daemon(
        flags | MHD_USE_TLS, port, NULL, NULL, docket_access, server, MHD_OPTION_SOCK_ADDR,
        socket_address, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_THREAD_STACK_SIZE, stack_size,
        MHD_OPTION_NOTIFY_COMPLETED, docket_completed, server, MHD_OPTION_NOTIFY_CONNECTION,
        docket_notify_connection, server, MHD_OPTION_HTTPS_MEM_CERT, cert,
        MHD_OPTION_HTTPS_MEM_KEY, key, MHD_OPTION_HTTPS_PRIORITIES, tls_priorities,
        MHD_OPTION_END);
  } else {
    server->daemon = api.start_daemon(
        flags, port, NULL, NULL, docket_access, server, MHD_OPTION_SOCK_ADDR, socket_address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_TIMEOUT,
        timeout_seconds, MHD_OPTION_THREAD_STACK_SIZE, stack_size, MHD_OPTION_NOTIFY_COMPLETED,
        docket_completed, server, MHD_OPTION_NOTIFY_CONNECTION, docket_notify_connection, server,
        MHD_OPTION_END);
  }
  if (server->daemon == NULL ||
      pthread_create(&server->watchdog, NULL, docket_watchdog, server) != 0) {
    if (server->daemon != NULL) api.stop_daemon(server->daemon);
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->lock);
    free(server);
    return NULL;
  }
  server->watching = 1;
  return server;
}

uint16_t docket_http_port(struct docket_http_server *server) {
  const union MHD_DaemonInfo *info =
      api.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

unsigned long docket_http_cuts(struct docket_http_server *server) {
  pthread_mutex_lock(&server->lock);
  unsigned long cuts = server->cuts;
  pthread_mutex_unlock(&server->lock);
  return cuts;
}

void docket_http_stop(struct docket_http_server *server) {
  pthread_mutex_lock(&server->lock);
  server->stopping = 1;
  pthread_cond_signal(&server->wake);
  pthread_mutex_unlock(&server->lock);
  if (server->watching) pthread_join(server->watchdog, NULL);
  // Every connection is closed (and its watch freed) before this returns.
  api.stop_daemon(server->daemon);
  pthread_cond_destroy(&server->wake);
  pthread_mutex_destroy(&server->lock);
  free(server);
}

struct MHD_PostProcessor *docket_MHD_create_post_processor(
    struct MHD_Connection *connection, size_t buffer_size, MHD_PostDataIterator iterator,
    void *context) {
  return api.create_post_processor(connection, buffer_size, iterator, context);
}

enum MHD_Result docket_MHD_post_process(struct MHD_PostProcessor *processor, const char *data,
                                        size_t size) {
  return api.post_process(processor, data, size);
}

enum MHD_Result docket_MHD_destroy_post_processor(struct MHD_PostProcessor *processor) {
  return api.destroy_post_processor(processor);
}

int docket_MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                     MHD_KeyValueIterator iterator, void *context) {
  return api.get_connection_values(connection, kind, iterator, context);
}

struct MHD_Response *docket_MHD_create_response_from_buffer(size_t size, void *buffer,
                                                            enum MHD_ResponseMemoryMode mode) {
  return api.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *docket_MHD_create_response_from_callback(
    uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *context,
    MHD_ContentReaderFreeCallback free_context) {
  return api.create_response_from_callback(size, block_size, reader, context, free_context);
}

enum MHD_Result docket_MHD_add_response_header(struct MHD_Response *response, const char *name,
                                               const char *value) {
  return api.add_response_header(response, name, value);
}

enum MHD_Result docket_MHD_queue_response(struct MHD_Connection *connection, unsigned int status,
                                          struct MHD_Response *response) {
  docket_set_phase(connection, docket_answering);
  return api.queue_response(connection, status, response);
}

void docket_MHD_destroy_response(struct MHD_Response *response) { api.destroy_response(response); }

// MARK: The client's address

int docket_http_from_loopback(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      api.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!info || !info->client_addr) return 0;
  const struct sockaddr *address = info->client_addr;
  if (address->sa_family == AF_INET) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
    return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
  }
  if (address->sa_family == AF_INET6) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
    static const unsigned char loopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (memcmp(v6->sin6_addr.s6_addr, loopback, 16) == 0) return 1;
    // 127.x.x.x as an IPv6 address (::ffff:127.0.0.1), from a socket that takes both.
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(v6->sin6_addr.s6_addr, mapped, 12) == 0 && v6->sin6_addr.s6_addr[12] == 127;
  }
  return 0;
}
