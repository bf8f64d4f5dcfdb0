# Docket's build. `make test` is what CI runs; `make run` opens Docket.
SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
SOURCES := Package.swift Plugins Sources Tests
ARGS ?=
# Seconds each fuzz target runs: a short run from the corpus in `make test`, longer in `make stress`.
FUZZ_TEST_SECONDS ?= 5
FUZZ_SECONDS ?= 120
# Benchmark sizes (comma-separated) and where generated databases are kept for the next run.
SIZES ?= 100000
BENCH_DATA ?= .build/bench-data
# Release builds link the Swift runtime and Foundation in (`--static-swift-stdlib`): the binary
# runs on a machine without Swift, needing only the system's C and C++ libraries and SQLite. It is
# not a static executable: a PostgreSQL remote loads the system's libpq when first used, and a
# static executable cannot load a shared library safely (its second C library breaks the first's
# thread-local data). Not position-independent either: the loader then has 2 000 relocations to
# apply at start instead of 78 000. macOS: a plain release build.
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS ?= -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie
else
RELEASE_FLAGS ?= -c release
endif

.DEFAULT_GOAL := all
.PHONY: help all deps build test fuzz sanitize test-with-server browser-test screenshots stress lint format bench release run hooks clean install install-files uninstall dist

# Every target with its line: the text after `##` on the target's own line.
help: ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

all: build ## the debug build (the same as `make build`)

deps: ## install the system packages the build and the tests need, where missing
	@scripts/deps.sh

build: deps ## the debug build, warnings as errors
	$(SWIFT) build $(SWIFT_FLAGS)

lint: ## check the formatting of every Swift file (`swift format lint --strict`)
	$(SWIFT) format lint --strict --recursive --parallel $(SOURCES)

format: ## rewrite every Swift file as `swift format` lays it out
	$(SWIFT) format --in-place --recursive --parallel $(SOURCES)

# The tests run beside two throwaway PostgreSQL servers (scripts/with-postgres.sh), stopped at the
# end; without one the run fails.
test: deps lint ## what CI runs: lint, build, every test, fuzzers, browser, release, packages
	node --test Tests/Script/
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	scripts/with-postgres.sh $(MAKE) --no-print-directory test-with-server

test-with-server:
	$(SWIFT) test --skip-build --disable-xctest
	scripts/fuzz.sh $(FUZZ_TEST_SECONDS)
	scripts/browser-test.sh
	$(MAKE) --no-print-directory release
	scripts/test-dist.sh

# The long parts of the reliability suite (RELIABILITY.md): more kills, minutes of slow clients
# and a larger concurrent run beside a PostgreSQL server; each fuzz target for FUZZ_SECONDS; then
# the whole suite under the address sanitizer and under the thread sanitizer.
stress: deps ## the long reliability runs, longer fuzzing, both sanitizers (RELIABILITY.md)
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	DOCKET_STRESS=1 scripts/with-postgres.sh $(SWIFT) test --skip-build --disable-xctest \
	  --filter "CrashTests|SyncCommandTests|HostileRequestTests|ConcurrentFacesTests"
	scripts/fuzz.sh $(FUZZ_SECONDS)
	scripts/sanitize.sh address
	scripts/sanitize.sh thread

# Only the sanitizers: the whole suite under each.
sanitize: deps ## only the whole suite under the address and thread sanitizers
	scripts/sanitize.sh address
	scripts/sanitize.sh thread

# Only the fuzzers: `make fuzz FUZZ_SECONDS=600 TARGETS="http search"`.
TARGETS ?=
fuzz: deps ## only the fuzzers: FUZZ_SECONDS=600 TARGETS="http search"
	scripts/fuzz.sh $(FUZZ_SECONDS) $(TARGETS)

bench: deps ## release benchmarks against their budgets (SIZES=1000000 for a million)
	$(SWIFT) build $(RELEASE_FLAGS) --product DocketBench
	$(SWIFT) build $(RELEASE_FLAGS) --product docket
	scripts/with-postgres.sh .build/release/DocketBench --sizes $(SIZES) --keep $(BENCH_DATA) $(ARGS)
	@# The page's own copy at 100 000 issues, in Chromium (when that size was benchmarked).
	if [ -f $(BENCH_DATA)/bench-100000.sqlite ]; then \
	  scripts/bench-web-copy.py .build/release/docket $(BENCH_DATA)/bench-100000.sqlite; fi

release: deps ## the release binary, .build/release/docket (runs without Swift on Linux)
	$(SWIFT) build $(RELEASE_FLAGS) --product docket

# The web app in headless Chromium (Tests/Browser); `make screenshots` also writes the README's
# pictures of the desktop, tablet and phone layouts, and of the terminal app, to docs/screenshots.
browser-test: deps ## only the web app in headless Chromium
	$(SWIFT) build --product docket
	scripts/browser-test.sh

screenshots: deps ## the browser tests, writing the README's pictures to docs/screenshots
	$(SWIFT) build --product docket
	DOCKET_SCREENSHOTS=docs/screenshots scripts/browser-test.sh
	scripts/terminal-screenshot.py .build/debug/docket docs/screenshots/terminal.png

# `make install` (PREFIX=~/.local works without root; DESTDIR for packagers): the release binary,
# the manual page (English, German) and the shell completions where the shells look for them.
PREFIX ?= /usr/local
DESTDIR ?=
BINARY ?= .build/release/docket

install: release ## the binary, manual and completions into PREFIX (default /usr/local)
	$(MAKE) --no-print-directory install-files

# The release archive and the Debian package, in .build/dist.
dist: release ## the release archive and the Debian package, in .build/dist
	scripts/dist.sh

install-files:
	scripts/install.sh "$(DESTDIR)" "$(PREFIX)" "$(BINARY)"

uninstall: ## remove what `make install` put into PREFIX
	scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

run: deps ## build Docket and open it (ARGS="--db /tmp/try.sqlite" to pass options)
	$(SWIFT) build --product docket
	.build/debug/docket $(ARGS)

hooks: ## a pre-commit hook that formats the staged Swift files
	install -m 0755 scripts/pre-commit .git/hooks/pre-commit
	@echo "Installed the pre-commit hook: staged Swift files are formatted before each commit."

clean: ## remove the build folder
	rm -rf .build
