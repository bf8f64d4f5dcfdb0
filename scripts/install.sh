#!/usr/bin/env bash
# Installs (or with --uninstall removes) Docket under DESTDIR + PREFIX: the binary, the manual
# page in English and German, and the completions where bash, zsh and fish look for them.
# Usage: scripts/install.sh DESTDIR PREFIX BINARY   |   scripts/install.sh --uninstall DESTDIR PREFIX
set -euo pipefail

files() {
  local root="$1"
  echo "$root/bin/docket"
  echo "$root/share/man/man1/docket.1"
  echo "$root/share/man/de/man1/docket.1"
  echo "$root/share/bash-completion/completions/docket"
  echo "$root/share/zsh/site-functions/_docket"
  echo "$root/share/fish/vendor_completions.d/docket.fish"
}

if [[ "${1:-}" == "--uninstall" ]]; then
  prefix="${3-/usr/local}"
  # zsh leaves ~ in PREFIX=~/.local unexpanded; it means the home folder here too.
  prefix="${prefix/#\~/$HOME}"
  root="${2:-}$prefix"
  while read -r file; do
    if [[ -e "$file" ]]; then rm -f "$file" && echo "removed $file"; fi
  done < <(files "$root")
  exit 0
fi

destdir="${1:-}"
prefix="${2-/usr/local}"
prefix="${prefix/#\~/$HOME}"
binary="${3:-.build/release/docket}"
root="$destdir$prefix"
if [[ ! -x "$binary" ]]; then
  echo "install: no binary at $binary; run make release first" >&2
  exit 1
fi
install -d "$root/bin" "$root/share/man/man1" "$root/share/man/de/man1" \
  "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" \
  "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/docket"
# The manual and the completions come from the binary's own command table.
"$binary" manual --lang en >"$root/share/man/man1/docket.1"
"$binary" manual --lang de >"$root/share/man/de/man1/docket.1"
"$binary" completions bash >"$root/share/bash-completion/completions/docket"
"$binary" completions zsh >"$root/share/zsh/site-functions/_docket"
"$binary" completions fish >"$root/share/fish/vendor_completions.d/docket.fish"
chmod 0644 "$root/share/man/man1/docket.1" "$root/share/man/de/man1/docket.1" \
  "$root/share/bash-completion/completions/docket" "$root/share/zsh/site-functions/_docket" \
  "$root/share/fish/vendor_completions.d/docket.fish"
files "$root" | sed 's/^/installed /'
