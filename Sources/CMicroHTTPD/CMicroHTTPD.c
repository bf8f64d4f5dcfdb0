#include "CMicroHTTPD.h"

#include "CLibraryLoader.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

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
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int loaded;

static void load(void) {
  static const char *const names[] = {
      "libmicrohttpd.so.12",
      "libmicrohttpd.12.dylib",
      "/opt/homebrew/opt/libmicrohttpd/lib/libmicrohttpd.12.dylib",
      "/usr/local/opt/libmicrohttpd/lib/libmicrohttpd.12.dylib",
  };
  void *library = docket_open_library(
      names, sizeof names / sizeof names[0], "libmicrohttpd, the HTTP server library,",
      "libmicrohttpd12 (Debian, Ubuntu) or libmicrohttpd (Homebrew)", failure, sizeof failure);
  if (!library) return;
#define DOCKET_RESOLVE(field, symbol)                                                        \
  do {                                                                                      \
    *(void **)(&api.field) = dlsym(library, symbol);                                        \
    if (!api.field) {                                                                       \
      snprintf(failure, sizeof failure, "libmicrohttpd has no %s: too old a version", symbol); \
      return;                                                                               \
    }                                                                                       \
  } while (0)
  DOCKET_RESOLVE(start_daemon, "MHD_start_daemon");
  DOCKET_RESOLVE(stop_daemon, "MHD_stop_daemon");
  DOCKET_RESOLVE(get_daemon_info, "MHD_get_daemon_info");
  DOCKET_RESOLVE(create_post_processor, "MHD_create_post_processor");
  DOCKET_RESOLVE(post_process, "MHD_post_process");
  DOCKET_RESOLVE(destroy_post_processor, "MHD_destroy_post_processor");
  DOCKET_RESOLVE(get_connection_values, "MHD_get_connection_values");
  DOCKET_RESOLVE(create_response_from_buffer, "MHD_create_response_from_buffer");
  DOCKET_RESOLVE(create_response_from_callback, "MHD_create_response_from_callback");
  DOCKET_RESOLVE(add_response_header, "MHD_add_response_header");
  DOCKET_RESOLVE(queue_response, "MHD_queue_response");
  DOCKET_RESOLVE(destroy_response, "MHD_destroy_response");
#undef DOCKET_RESOLVE
  loaded = 1;
}

const char *docket_mhd_load(void) {
  pthread_once(&once, load);
  return loaded ? NULL : failure;
}

struct MHD_Daemon *docket_http_start(
    const char *address, uint16_t port, const char *cert, const char *key,
    unsigned int connection_limit, unsigned int timeout_seconds, size_t stack_size,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context) {
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
  if (cert != NULL && key != NULL) {
    return api.start_daemon(
        flags | MHD_USE_TLS, port, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR,
        socket_address, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_THREAD_STACK_SIZE, stack_size,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context, MHD_OPTION_HTTPS_MEM_CERT,
        cert, MHD_OPTION_HTTPS_MEM_KEY, key, MHD_OPTION_END);
  }
  return api.start_daemon(
      flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, socket_address,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_TIMEOUT,
      timeout_seconds, MHD_OPTION_THREAD_STACK_SIZE, stack_size, MHD_OPTION_NOTIFY_COMPLETED,
      completed, completed_context, MHD_OPTION_END);
}

uint16_t docket_http_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = api.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

void docket_MHD_stop_daemon(struct MHD_Daemon *daemon) { api.stop_daemon(daemon); }

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
  return api.queue_response(connection, status, response);
}

void docket_MHD_destroy_response(struct MHD_Response *response) { api.destroy_response(response); }
