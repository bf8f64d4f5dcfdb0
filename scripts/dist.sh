#!/usr/bin/env bash
# Builds the release archive and the Debian package from the release binary:
#   .build/dist/docket-VERSION-linux-ARCH.tar.gz  (bin/, share/man, share/*completions, README.md)
#   .build/dist/docket_VERSION_ARCH.deb            (the same files under /usr)
# The binary has the Swift runtime and Foundation inside, so it runs on a machine without Swift;
# it needs the C and C++ libraries and SQLite, and a PostgreSQL remote loads the system's libpq
# when it is used (the package suggests libpq5).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${BINARY:-.build/release/docket}"
[[ -x "$binary" ]] || { echo "dist: no binary at $binary; run make release" >&2; exit 1; }
version=$("$binary" --version | awk '{print $2}')
machine=$(uname -m)
system=$(uname -s | tr '[:upper:]' '[:lower:]')
name="docket-$version-$system-$machine"
out=.build/dist
rm -rf "$out"
mkdir -p "$out"

scripts/install.sh "$out/$name" "" "$binary" >/dev/null
# Debugging symbols stay in the build; the archive carries the program only.
if command -v strip >/dev/null; then strip "$out/$name/bin/docket"; fi
cp README.md "$out/$name/"
tar -czf "$out/$name.tar.gz" -C "$out" "$name"
echo "$out/$name.tar.gz"

if command -v dpkg-deb >/dev/null; then
  case "$machine" in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; *) arch="$machine" ;; esac
  root="$out/deb"
  scripts/install.sh "$root" /usr "$binary" >/dev/null
  if command -v strip >/dev/null; then strip "$root/usr/bin/docket"; fi
  mkdir -p "$root/DEBIAN" "$root/usr/share/doc/docket"
  cp README.md "$root/usr/share/doc/docket/"
  cat >"$root/DEBIAN/control" <<CONTROL
Package: docket
Version: $version
Architecture: $arch
Maintainer: Docket <docket@localhost>
Section: utils
Priority: optional
Depends: libc6, libstdc++6, libgcc-s1, libsqlite3-0
Suggests: libpq5, libmicrohttpd12
Description: a local-first issue tracker for the terminal
 Docket tracks the issues of your own projects in one SQLite file: a three-pane
 terminal app and a scriptable command line with JSON output. Sync through a
 PostgreSQL server uses the system's libpq (libpq5) when it is set up.
CONTROL
  dpkg-deb --build --root-owner-group "$root" "$out/docket_${version}_$arch.deb" >/dev/null
  echo "$out/docket_${version}_$arch.deb"
fi
