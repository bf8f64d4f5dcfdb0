#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

void *docket_open_library(const char *const *names, size_t count, const char *library,
                          const char *install, char *failure, size_t size) {
  char reason[512] = "not found";
  for (size_t index = 0; index < count; index++) {
    void *handle = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    if (handle) return handle;
    // The first name is the usual one: its error says the most.
    const char *error = index == 0 ? dlerror() : NULL;
    if (error) snprintf(reason, sizeof reason, "%s", error);
  }
  snprintf(failure, size, "%s is not installed (%s); install %s", library, reason, install);
  return NULL;
}

int docket_resolve(void *library, const char *symbol, void **address, const char *name,
                   char *failure, size_t size) {
  *address = dlsym(library, symbol);
  if (*address) return 1;
  snprintf(failure, size, "%s has no %s: too old a version", name, symbol);
  return 0;
}
