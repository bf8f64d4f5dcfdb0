#!/usr/bin/env bash
# Runs the whole Swift test suite under a sanitizer (RELIABILITY.md): `scripts/sanitize.sh
# address|thread`. Builds in .build/SANITIZER (apart from the plain build), runs the tests beside
# throwaway PostgreSQL servers with the sanitized `docket` as the binary they start, and fails on
# the first report. The full log is kept in .build/sanitize-SANITIZER.log.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: scripts/sanitize.sh address|thread}
case $sanitizer in
address | thread) ;;
*) echo "sanitize: address or thread, not $sanitizer" >&2; exit 2 ;;
esac
path=.build/$sanitizer
log=.build/sanitize-$sanitizer.log

"${SWIFT:-swift}" build --build-tests --sanitize="$sanitizer" --build-path "$path" -Xswiftc -warnings-as-errors

# Reports stop the run (halt_on_error); the crash backtracer would hold each for 30 s. Leaks are
# not looked for: caches the runtime makes once would be reported.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:${ASAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
export DOCKET_BINARY=$PWD/$path/debug/docket DOCKET_SANITIZER=$sanitizer

set +e
scripts/with-postgres.sh "${SWIFT:-swift}" test --skip-build --sanitize="$sanitizer" --build-path "$path" \
  --disable-xctest >"$log" 2>&1
status=$?
set -e
grep -E "^(✔|✘|━) Test run" "$log" | tail -1
if [[ $status -ne 0 ]]; then
  echo "sanitize: the tests under the $sanitizer sanitizer failed; from $log:" >&2
  grep -E "✘|SUMMARY: |WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log" | head -40 >&2
fi
exit $status
