// The declaration is in the header; libFuzzer itself is linked by `-sanitize=fuzzer`.
#include "CFuzzer.h"
