#!/usr/bin/env bash
# Runs the web app's browser tests (Tests/Browser/test_web.py): `docket serve` on throwaway
# databases, driven by headless Chromium through Selenium, with axe-core's audit on each page.
set -euo pipefail
cd "$(dirname "$0")/.."
export DOCKET_BINARY="${DOCKET_BINARY:-$PWD/.build/debug/docket}"
if [[ ! -x "$DOCKET_BINARY" ]]; then
  echo "browser-test: $DOCKET_BINARY is missing; build it first (swift build --product docket)" >&2
  exit 1
fi
if [[ -n "${DOCKET_SCREENSHOTS:-}" ]]; then
  export DOCKET_SCREENSHOTS="$PWD/$DOCKET_SCREENSHOTS"
fi
exec python3 -m unittest -v Tests/Browser/test_web.py
