#ifndef DOCKET_CLIBRARYLOADER_H
#define DOCKET_CLIBRARYLOADER_H

#include <stddef.h>

/// Opens the first of `names` that loads (a library Docket uses only for some commands, loaded
/// when first needed rather than linked). When none loads, returns NULL and writes to `failure`
/// why, in a sentence that names `library` and what to `install`.
void *docket_open_library(const char *const *names, size_t count, const char *library,
                          const char *install, char *failure, size_t size);

/// Finds `symbol` in `library` (from `docket_open_library`) and stores it in `*address`. When the
/// library lacks it, returns 0 and writes to `failure` that `name` is too old.
int docket_resolve(void *library, const char *symbol, void **address, const char *name,
                   char *failure, size_t size);

#endif
