#ifndef DOCKET_CFUZZER_H
#define DOCKET_CFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for a program with a main of its own. It exists only in a build with
// `-sanitize=fuzzer` (scripts/fuzz.sh), and is called only there.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
