#!/usr/bin/env bash
# Fuzzes Docket's inputs with libFuzzer (RELIABILITY.md): `scripts/fuzz.sh [SECONDS] [TARGET…]`
# builds docket-fuzz with `-sanitize=fuzzer,address` in .build/fuzz, then runs each target (all by
# default) for SECONDS (default 10), starting from the checked-in corpus in Tests/Fuzz/corpus.
# New inputs go to .build/fuzz/corpus, crashes to .build/fuzz/crashes; the first crash fails the
# run and names the file that reproduces it. A table of executions per target is printed at the end
# (and kept in .build/fuzz/figures).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(search arguments keys catalog import changes http)
fi

out=.build/fuzz
# lld links libFuzzer into the Swift program (gold fails at it).
linker=()
[[ $(uname -s) == Linux ]] && linker=(-Xswiftc -use-ld=lld)
"${SWIFT:-swift}" build --build-path "$out" --product docket-fuzz "${linker[@]}" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DDOCKET_FUZZ
binary="$out/debug/docket-fuzz"

# The crash backtracer would hold each crash for 30 s; libFuzzer reports it itself. Leaks are not
# looked for: the runtime's caches, made once, would be reported as leaks.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"

mkdir -p "$out/crashes"
: >"$out/figures"
status=0
for target in "${targets[@]}"; do
  seeds="Tests/Fuzz/corpus/$target"
  work="$out/corpus/$target"
  mkdir -p "$work"
  [[ -d $seeds ]] || { echo "fuzz: no corpus for $target in $seeds" >&2; exit 2; }
  log="$out/$target.log"
  # A crash named at the end is this run's.
  rm -f "$out/crashes/$target-"*
  set +e
  DOCKET_FUZZ_TARGET=$target "$binary" "$work" "$seeds" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$target-" >"$log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%-10s %10s executions in %s s\n' "$target" "${runs:-?}" "$seconds" | tee -a "$out/figures"
  if [[ $code -ne 0 ]]; then
    status=1
    echo "fuzz: $target failed (exit $code); the end of $log:" >&2
    tail -40 "$log" >&2
    crash=$(ls -t "$out/crashes/$target-"* 2>/dev/null | head -1 || true)
    if [[ -n $crash ]]; then
      echo "fuzz: reproduce with: DOCKET_FUZZ_TARGET=$target $binary $crash" >&2
    fi
  fi
done
exit $status
