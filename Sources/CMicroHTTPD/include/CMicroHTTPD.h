#ifndef DOCKET_CMICROHTTPD_H
#define DOCKET_CMICROHTTPD_H

// libmicrohttpd, the HTTP server of `docket serve`, loaded when the server first starts rather
// than linked: every other command starts without loading it and the TLS libraries it needs,
// and a machine without it runs everything but `docket serve`. Its own header gives the types;
// each docket_MHD_… function calls libmicrohttpd's MHD_…. MHD_start_daemon and
// MHD_get_daemon_info are variadic and the reader's end markers are macros with casts, so none
// of them import into Swift: docket_http_start and the constants below stand in for them.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Loads libmicrohttpd once; NULL when it is there, else why not (for a message).
const char *docket_mhd_load(void);

static const ssize_t docket_http_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t docket_http_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t docket_http_size_unknown = MHD_SIZE_UNKNOWN;

/// A running server: libmicrohttpd's daemon and the watchdog that holds its deadlines.
struct docket_http_server;

/// Starts a daemon with a thread per connection (a live page's stream may wait in its thread)
/// on `address` (IPv4 or IPv6 text) and `port` (0: any free port). `cert` and `key` (PEM text)
/// turn TLS on when both are given. `timeout_seconds` of silence close a connection; a request's
/// head must arrive within `head_seconds` (of the connection's start or the last answer) and its
/// body within `body_seconds` of the head, however the bytes trickle. NULL when the address does
/// not parse or the daemon cannot start (the port is taken, the certificate is refused).
struct docket_http_server *docket_http_start(
    const char *address, uint16_t port, const char *cert, const char *key,
    unsigned int connection_limit, unsigned int timeout_seconds, unsigned int head_seconds,
    unsigned int body_seconds, size_t stack_size, MHD_AccessHandlerCallback handler,
    void *handler_context, MHD_RequestCompletedCallback completed, void *completed_context);

/// The port the daemon listens on (the one chosen when 0 was asked for).
uint16_t docket_http_port(struct docket_http_server *server);

/// How many connections the watchdog has cut for waiting past a deadline.
unsigned long docket_http_cuts(struct docket_http_server *server);

/// Whether the client of `connection` is on this machine (a loopback address, IPv4 or IPv6).
int docket_http_from_loopback(struct MHD_Connection *connection);

/// Stops the watchdog and the daemon (waiting for every connection's thread), and frees both.
void docket_http_stop(struct docket_http_server *server);
struct MHD_PostProcessor *docket_MHD_create_post_processor(
    struct MHD_Connection *connection, size_t buffer_size, MHD_PostDataIterator iterator,
    void *context);
enum MHD_Result docket_MHD_post_process(struct MHD_PostProcessor *processor, const char *data,
                                        size_t size);
enum MHD_Result docket_MHD_destroy_post_processor(struct MHD_PostProcessor *processor);
int docket_MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                     MHD_KeyValueIterator iterator, void *context);
struct MHD_Response *docket_MHD_create_response_from_buffer(size_t size, void *buffer,
                                                            enum MHD_ResponseMemoryMode mode);
struct MHD_Response *docket_MHD_create_response_from_callback(
    uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *context,
    MHD_ContentReaderFreeCallback free_context);
enum MHD_Result docket_MHD_add_response_header(struct MHD_Response *response, const char *name,
                                               const char *value);
enum MHD_Result docket_MHD_queue_response(struct MHD_Connection *connection, unsigned int status,
                                          struct MHD_Response *response);
void docket_MHD_destroy_response(struct MHD_Response *response);

#endif
