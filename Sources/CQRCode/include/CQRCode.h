#ifndef DOCKET_CQRCODE_H
#define DOCKET_CQRCODE_H

#include <stddef.h>

/// The QR code of `text` (byte mode, error correction level M) from libqrencode, loaded when
/// first needed: `width` × `width` modules, one byte each, 1 for a dark module, row by row; free
/// it with `docket_qr_free`. NULL when the library is missing or the text does not fit, with
/// the reason in `failure`.
unsigned char *docket_qr_encode(const char *text, int *width, char *failure, size_t size);

void docket_qr_free(unsigned char *modules);

#endif
