#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/* The places a library may be, the usual one first. */
static size_t candidates(const struct docket_library *library, char names[6][256]) {
  size_t count = 0;
#ifdef __APPLE__
  const char *files[2] = {library->mac_file, library->mac_other};
  /* Homebrew's own paths first: a bare name is also looked for in the working folder. */
  for (size_t index = 0; index < 2; index++) {
    if (!files[index]) continue;
    snprintf(names[count++], sizeof names[0], "/opt/homebrew/opt/%s/lib/%s",
             library->homebrew_formula, files[index]);
    snprintf(names[count++], sizeof names[0], "/usr/local/opt/%s/lib/%s",
             library->homebrew_formula, files[index]);
    snprintf(names[count++], sizeof names[0], "%s", files[index]);
  }
#else
  snprintf(names[count++], sizeof names[0], "%s", library->linux_file);
  if (library->linux_other) snprintf(names[count++], sizeof names[0], "%s", library->linux_other);
#endif
  return count;
}

static void load(struct docket_library *library) {
  char names[6][256];
  size_t count = candidates(library, names);
  char reason[512] = "not found";
  void *handle = NULL;
  for (size_t index = 0; index < count && !handle; index++) {
    handle = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    /* The first name's error says the most. */
    const char *error = handle || index > 0 ? NULL : dlerror();
    if (error) snprintf(reason, sizeof reason, "%s", error);
  }
  if (!handle) {
    snprintf(library->failure, sizeof library->failure,
             "%s, %s, is not installed (%s); install %s (Debian, Ubuntu) or %s (Homebrew)",
             library->name, library->about, reason, library->debian_package,
             library->homebrew_formula);
    return;
  }
  for (size_t index = 0; index < library->symbol_count; index++) {
    const struct docket_symbol *symbol = &library->symbols[index];
    *symbol->address = dlsym(handle, symbol->name);
    if (!*symbol->address) {
      snprintf(library->failure, sizeof library->failure, "%s has no %s: too old a version",
               library->name, symbol->name);
      return;
    }
  }
}

const char *docket_load(struct docket_library *library) {
  pthread_mutex_lock(&loading);
  if (!library->tried) {
    library->tried = 1;
    library->failure[0] = 0;
    load(library);
  }
  pthread_mutex_unlock(&loading);
  return library->failure[0] ? library->failure : NULL;
}
