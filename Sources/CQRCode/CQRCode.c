#include "CQRCode.h"

#include "CLibraryLoader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libqrencode's own types, as its header (qrencode.h, version 4) states them: the library is
   loaded, not linked, so its header need not be installed. */
typedef struct {
  int version;
  int width;
  unsigned char *data;
} QRcode;
enum { qr_level_m = 1, qr_mode_8bit = 2 };

static struct {
  QRcode *(*encode_string)(const char *, int, int, int, int);
  void (*free_code)(QRcode *);
} api;

static const struct docket_symbol symbols[] = {
    {"QRcode_encodeString", (void **)&api.encode_string},
    {"QRcode_free", (void **)&api.free_code},
};

static struct docket_library library = {
    .name = "libqrencode",
    .about = "the QR code library",
    .linux_file = "libqrencode.so.4",
    .mac_file = "libqrencode.4.dylib",
    .debian_package = "libqrencode4",
    .homebrew_formula = "qrencode",
    .symbols = symbols,
    .symbol_count = sizeof symbols / sizeof symbols[0],
};

unsigned char *docket_qr_encode(const char *text, int *width, char *failure, size_t size) {
  const char *missing = docket_load(&library);
  if (missing) {
    snprintf(failure, size, "%s", missing);
    return NULL;
  }
  /* Version 0: the smallest that holds the text. Case-sensitive: an address's token is. */
  QRcode *code = api.encode_string(text, 0, qr_level_m, qr_mode_8bit, 1);
  if (!code || code->width <= 0) {
    snprintf(failure, size, "the text does not fit in a QR code");
    if (code) api.free_code(code);
    return NULL;
  }
  size_t count = (size_t)code->width * (size_t)code->width;
  unsigned char *modules = malloc(count);
  if (!modules) {
    api.free_code(code);
    snprintf(failure, size, "out of memory");
    return NULL;
  }
  /* Bit 0 of each of libqrencode's bytes is the module's colour; the other bits say what part
     of the code it is. */
  for (size_t index = 0; index < count; index++) modules[index] = code->data[index] & 1;
  *width = code->width;
  api.free_code(code);
  return modules;
}

void docket_qr_free(unsigned char *modules) { free(modules); }
