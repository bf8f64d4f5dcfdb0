#ifndef DOCKET_CLIBRARYLOADER_H
#define DOCKET_CLIBRARYLOADER_H

#include <stddef.h>

/// Opens the first of `names` that loads (a library Docket uses only for some commands, loaded
/// when first needed rather than linked). When none loads, returns NULL and writes to `failure`
/// why, in a sentence that names `library` and what to `install`.
void *docket_open_library(const char *const *names, size_t count, const char *library,
                          const char *install, char *failure, size_t size);

#endif
