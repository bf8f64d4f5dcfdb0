#!/usr/bin/env bash
# Installs what Docket needs to build and test, when it is missing.
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: names the Homebrew packages to install.
set -euo pipefail

debian_packages=(libsqlite3-dev sqlite3 pkg-config tmux groff-base taskwarrior libpq-dev postgresql openssl
  libmicrohttpd-dev libqrencode4 libsodium23 zbar-tools w3m lynx caddy chromium chromium-driver wrk python3-pip
  curl zsh fish nodejs)

# The browser tests' Python packages (Selenium, and axe-core with its Selenium binding).
python_packages() {
  if ! python3 -c "import selenium, axe_selenium_python" 2>/dev/null; then
    echo "deps: installing selenium and axe-selenium-python (pip)"
    python3 -m pip install --quiet selenium axe-selenium-python 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages selenium axe-selenium-python
  fi
}

case "$(uname -s)" in
  Linux)
    if ! command -v dpkg-query >/dev/null 2>&1; then
      echo "deps: not a Debian-like system; install the SQLite 3 development files (with FTS5), pkg-config and tmux yourself." >&2
      exit 0
    fi
    missing=()
    for package in "${debian_packages[@]}"; do
      status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
      [[ "$status" == "install ok installed" ]] || missing+=("$package")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
      python_packages
      exit 0
    fi
    echo "deps: installing ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
      echo "deps: ${missing[*]} missing and not root; run: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
    python_packages
    ;;
  Darwin)
    missing=()
    for formula in sqlite pkg-config tmux task libpq postgresql@15 libmicrohttpd qrencode libsodium zbar caddy wrk; do
      brew list --formula "$formula" >/dev/null 2>&1 || missing+=("$formula")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
      echo "deps: missing Homebrew packages. Install them with:" >&2
      echo "  brew install ${missing[*]}" >&2
      exit 1
    fi
    if ! command -v chromedriver >/dev/null; then
      echo "deps: the browser tests need Chromium and its driver. Install them with:" >&2
      echo "  brew install --cask chromium chromedriver" >&2
      exit 1
    fi
    python_packages
    ;;
esac
