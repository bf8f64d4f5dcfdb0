#ifndef DOCKET_CLIBRARYLOADER_H
#define DOCKET_CLIBRARYLOADER_H

#include <stddef.h>

/// A function of a library, by name, and where its address goes once the library is loaded.
struct docket_symbol {
  const char *name;
  void **address;
};

/// A library Docket uses only for some commands: loaded when first needed rather than linked, so
/// that Docket starts, and does everything else, on a machine without it.
struct docket_library {
  /// How messages name it ("libpq"), and what it is ("PostgreSQL's client library").
  const char *name;
  const char *about;
  /// Its file on Linux ("libpq.so.5") and on macOS ("libpq.5.dylib"); on macOS Homebrew's two
  /// prefixes are tried as well, under `homebrew_formula`.
  const char *linux_file;
  const char *mac_file;
  /// Another version's file, tried after the usual one (NULL: none).
  const char *linux_other;
  const char *mac_other;
  /// What to install where it is missing.
  const char *debian_package;
  const char *homebrew_formula;
  const struct docket_symbol *symbols;
  size_t symbol_count;
  /// Set by the first `docket_load`: whether it was tried, and why it failed (empty if it did not).
  int tried;
  char failure[1024];
};

/// Loads `library` and every one of its symbols, once; later calls answer as the first did.
/// Returns NULL when all is there, else why not, in a sentence that says what to install. Safe
/// from any thread.
const char *docket_load(struct docket_library *library);

#endif
