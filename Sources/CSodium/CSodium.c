#include "CSodium.h"

#include "CLibraryLoader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsodium's functions as its header (sodium.h, 1.0.18) states them: the library is loaded, not
   linked, so its header need not be installed. The constants are fixed by its format. */
enum {
  stream_tag_message = 0,
  stream_tag_final = 3,
  argon2id13 = 2,
};

static struct {
  int (*init)(void);
  void (*random)(void *, size_t);
  int (*seal)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
              const unsigned char *, unsigned long long, const unsigned char *,
              const unsigned char *, const unsigned char *);
  int (*open)(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *,
              unsigned long long, const unsigned char *, unsigned long long,
              const unsigned char *, const unsigned char *);
  size_t (*stream_state_bytes)(void);
  int (*stream_init_push)(void *, unsigned char *, const unsigned char *);
  int (*stream_push)(void *, unsigned char *, unsigned long long *, const unsigned char *,
                     unsigned long long, const unsigned char *, unsigned long long, unsigned char);
  int (*stream_init_pull)(void *, const unsigned char *, const unsigned char *);
  int (*stream_pull)(void *, unsigned char *, unsigned long long *, unsigned char *,
                     const unsigned char *, unsigned long long, const unsigned char *,
                     unsigned long long);
  int (*pwhash)(unsigned char *, unsigned long long, const char *, unsigned long long,
                const unsigned char *, unsigned long long, size_t, int);
  void (*memzero)(void *, size_t);
} api;

static const struct docket_symbol symbols[] = {
    {"sodium_init", (void **)&api.init},
    {"randombytes_buf", (void **)&api.random},
    {"crypto_aead_xchacha20poly1305_ietf_encrypt", (void **)&api.seal},
    {"crypto_aead_xchacha20poly1305_ietf_decrypt", (void **)&api.open},
    {"crypto_secretstream_xchacha20poly1305_statebytes", (void **)&api.stream_state_bytes},
    {"crypto_secretstream_xchacha20poly1305_init_push", (void **)&api.stream_init_push},
    {"crypto_secretstream_xchacha20poly1305_push", (void **)&api.stream_push},
    {"crypto_secretstream_xchacha20poly1305_init_pull", (void **)&api.stream_init_pull},
    {"crypto_secretstream_xchacha20poly1305_pull", (void **)&api.stream_pull},
    {"crypto_pwhash", (void **)&api.pwhash},
    {"sodium_memzero", (void **)&api.memzero},
};

static struct docket_library library = {
    .name = "libsodium",
    .about = "the cryptography library encrypted sync uses",
    /* 1.0.18 (Debian 12) is libsodium.so.23; 1.0.19 and later (Homebrew, newer systems) 26.
       The functions Docket uses are the same in both. */
    .linux_file = "libsodium.so.23",
    .mac_file = "libsodium.26.dylib",
    .linux_other = "libsodium.so.26",
    .mac_other = "libsodium.23.dylib",
    .debian_package = "libsodium23",
    .homebrew_formula = "libsodium",
    .symbols = symbols,
    .symbol_count = sizeof symbols / sizeof symbols[0],
};

static int initialized;
static char problem[1100];

const char *docket_sodium_problem(void) {
  const char *missing = docket_load(&library);
  if (missing) return missing;
  /* sodium_init is safe to call from several threads and more than once. */
  if (api.init() < 0) {
    snprintf(problem, sizeof problem, "libsodium could not start");
    return problem;
  }
  if (api.stream_state_bytes() > sizeof(docket_sodium_stream)) {
    snprintf(problem, sizeof problem, "libsodium's stream state is larger than Docket expects");
    return problem;
  }
  __atomic_store_n(&initialized, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* Every entry point checks the library first: a caller that skipped `docket_sodium_problem`
   gets a failure, never a call through a null pointer. */
static int ready(void) {
  return __atomic_load_n(&initialized, __ATOMIC_ACQUIRE) || docket_sodium_problem() == NULL;
}

void docket_sodium_random(unsigned char *out, size_t count) {
  if (ready()) {
    api.random(out, count);
  } else {
    /* Never reached by Docket, which asks first; zeros would be a silent weak key, so stop. */
    abort();
  }
}

int docket_sodium_seal(unsigned char *sealed, const unsigned char *message, size_t count,
                       const unsigned char *data, size_t data_count, const unsigned char *nonce,
                       const unsigned char *key) {
  if (!ready()) return -1;
  return api.seal(sealed, NULL, message, count, data, data_count, NULL, nonce, key);
}

int docket_sodium_open(unsigned char *message, const unsigned char *sealed, size_t count,
                       const unsigned char *data, size_t data_count, const unsigned char *nonce,
                       const unsigned char *key) {
  if (!ready() || count < 16) return -1;
  return api.open(message, NULL, NULL, sealed, count, data, data_count, nonce, key);
}

int docket_sodium_stream_start(docket_sodium_stream *state, unsigned char *header,
                               const unsigned char *key) {
  if (!ready()) return -1;
  return api.stream_init_push(state->opaque, header, key);
}

int docket_sodium_stream_push(docket_sodium_stream *state, unsigned char *sealed,
                              const unsigned char *message, size_t count,
                              const unsigned char *data, size_t data_count, int last) {
  if (!ready()) return -1;
  return api.stream_push(state->opaque, sealed, NULL, message, count, data, data_count,
                         last ? stream_tag_final : stream_tag_message);
}

int docket_sodium_stream_begin(docket_sodium_stream *state, const unsigned char *header,
                               const unsigned char *key) {
  if (!ready()) return -1;
  return api.stream_init_pull(state->opaque, header, key);
}

int docket_sodium_stream_pull(docket_sodium_stream *state, unsigned char *message, int *last,
                              const unsigned char *sealed, size_t count,
                              const unsigned char *data, size_t data_count) {
  if (!ready() || count < 17) return -1;
  unsigned char tag = 0;
  if (api.stream_pull(state->opaque, message, NULL, &tag, sealed, count, data, data_count) != 0)
    return -1;
  /* Only the two tags Docket writes: a part marked otherwise was not sealed by Docket. */
  if (tag != stream_tag_message && tag != stream_tag_final) return -1;
  *last = tag == stream_tag_final;
  return 0;
}

int docket_sodium_derive(unsigned char *out, size_t count, const char *passphrase,
                         size_t passphrase_count, const unsigned char *salt,
                         unsigned long long operations, size_t memory) {
  if (!ready()) return -1;
  return api.pwhash(out, count, passphrase, passphrase_count, salt, operations, memory,
                    argon2id13);
}

void docket_sodium_wipe(void *bytes, size_t count) {
  if (ready()) {
    api.memzero(bytes, count);
  } else {
    volatile unsigned char *each = bytes;
    while (count--) *each++ = 0;
  }
}
