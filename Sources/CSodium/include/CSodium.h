#ifndef DOCKET_CSODIUM_H
#define DOCKET_CSODIUM_H

#include <stddef.h>

/// libsodium, loaded when an encrypted remote is first used (not linked): Docket starts, and
/// syncs with a plain remote, on a machine without it. Each function returns 0 on success and -1
/// when the library refuses (a message that does not open, out of memory).

/// NULL when libsodium is loaded and ready, else why not, in a sentence that says what to install.
const char *docket_sodium_problem(void);

/// Random bytes from the operating system's generator.
void docket_sodium_random(unsigned char *out, size_t count);

/// XChaCha20-Poly1305 (IETF): `sealed` holds `count` + 16 bytes; the nonce is 24 bytes, the key 32.
int docket_sodium_seal(unsigned char *sealed, const unsigned char *message, size_t count,
                       const unsigned char *data, size_t data_count, const unsigned char *nonce,
                       const unsigned char *key);
/// Opens what `docket_sodium_seal` made: `message` holds `count` - 16 bytes.
int docket_sodium_open(unsigned char *message, const unsigned char *sealed, size_t count,
                       const unsigned char *data, size_t data_count, const unsigned char *nonce,
                       const unsigned char *key);

/// The state of a secret stream (XChaCha20-Poly1305 secretstream), larger than libsodium's own.
typedef struct {
  _Alignas(16) unsigned char opaque[128];
} docket_sodium_stream;

/// Starts a stream: writes its 24-byte header.
int docket_sodium_stream_start(docket_sodium_stream *state, unsigned char *header,
                               const unsigned char *key);
/// Seals the next part: `sealed` holds `count` + 17 bytes; `last` marks the stream's end.
int docket_sodium_stream_push(docket_sodium_stream *state, unsigned char *sealed,
                              const unsigned char *message, size_t count,
                              const unsigned char *data, size_t data_count, int last);
/// Begins reading a stream from its header.
int docket_sodium_stream_begin(docket_sodium_stream *state, const unsigned char *header,
                               const unsigned char *key);
/// Opens the next part: `message` holds `count` - 17 bytes; `last` is set at the stream's end.
int docket_sodium_stream_pull(docket_sodium_stream *state, unsigned char *message, int *last,
                              const unsigned char *sealed, size_t count,
                              const unsigned char *data, size_t data_count);

/// Argon2id (version 1.3): `count` bytes of key from a passphrase and a 16-byte salt.
int docket_sodium_derive(unsigned char *out, size_t count, const char *passphrase,
                         size_t passphrase_count, const unsigned char *salt,
                         unsigned long long operations, size_t memory);

/// Overwrites `count` bytes where the compiler cannot leave it out.
void docket_sodium_wipe(void *bytes, size_t count);

#endif
