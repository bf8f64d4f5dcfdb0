#!/usr/bin/env bash
# Checks what `make dist` makes, as a user on another machine would meet it: the archive's binary
# runs without Swift (no Swift library, no loader path, an empty environment), and the .deb
# installs the binary, manual and completions under /usr.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
check() {
  local description="$1"
  shift
  if "$@" >/dev/null 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "dist: FAILED: $description" >&2
  fi
}
scripts/dist.sh >/dev/null || { echo "dist: make dist failed" >&2; echo "dist: 0 passed, 1 failed"; exit 1; }
archive=$(ls .build/dist/docket-*.tar.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
folder=$(ls -d "$work"/docket-*)
check "the archive holds the binary, manual, completions and README" \
  test -x "$folder/bin/docket" -a -f "$folder/share/man/man1/docket.1" \
  -a -f "$folder/share/bash-completion/completions/docket" -a -f "$folder/README.md"
check "the archive's binary runs with an empty environment and no Swift on any path" \
  env -i "$folder/bin/docket" --version
if command -v ldd >/dev/null; then
  check "the archive's binary needs no Swift library, nor libpq or libmicrohttpd to start" \
    sh -c "! ldd '$folder/bin/docket' 2>&1 | grep -E 'swift|Foundation|dispatch|libpq|microhttpd|gnutls|not found'"
else
  echo "dist: no ldd here; the shared-library check is skipped" >&2
fi
check "the archive's binary works on a database" \
  env -i HOME="$work" "$folder/bin/docket" --db "$work/try.sqlite" add "From the archive"
# The binary loads libpq when a PostgreSQL remote is used (the server of `make test`).
if [[ -n "${DOCKET_TEST_POSTGRES:-}" ]]; then
  space="dist$$"
  pg() { env -i HOME="$work" PGPASSFILE="$PGPASSFILE" "$folder/bin/docket" --db "$work/$1.sqlite" "${@:2}"; }
  through_postgres() {
    pg one remote set "$DOCKET_TEST_POSTGRES?sslmode=require" --space "$space" &&
      pg two remote set "$DOCKET_TEST_POSTGRES?sslmode=require" --space "$space" &&
      pg one add "Through the server" && pg one sync && pg two sync &&
      pg two list | grep -q "Through the server"
  }
  check "the archive's binary syncs through PostgreSQL, with TLS" through_postgres
else
  echo "dist: no PostgreSQL server (run through make test); the PostgreSQL check is skipped" >&2
fi
if command -v dpkg-deb >/dev/null; then
  package=$(ls .build/dist/docket_*.deb)
  check "the .deb names the package" sh -c "dpkg-deb -f '$package' Package | grep -qx docket"
  dpkg-deb -x "$package" "$work/root"
  check "the .deb installs the binary, and it runs" env -i "$work/root/usr/bin/docket" --version
  check "the .deb installs the manual in both languages" \
    test -f "$work/root/usr/share/man/man1/docket.1" -a -f "$work/root/usr/share/man/de/man1/docket.1"
  check "the .deb installs the completions" \
    test -f "$work/root/usr/share/zsh/site-functions/_docket" \
    -a -f "$work/root/usr/share/fish/vendor_completions.d/docket.fish"
fi
echo "dist: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
