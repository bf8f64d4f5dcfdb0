# Docket's build. `make test` is what CI runs; `make run` opens Docket.
SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
SOURCES := Package.swift Sources Tests
ARGS ?=

.PHONY: all deps build test lint format bench run hooks clean catalog

all: build

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SOURCES)

format:
	$(SWIFT) format --in-place --recursive --parallel $(SOURCES)

test: deps lint
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build --disable-xctest

bench: deps
	$(SWIFT) build -c release --product DocketBench
	$(SWIFT) build -c release --product docket
	.build/release/DocketBench $(ARGS)

run: deps
	$(SWIFT) build --product docket
	.build/debug/docket $(ARGS)

# The string catalog is embedded in the binary; run after editing Localizable.xcstrings.
catalog:
	scripts/embed-catalog.sh

hooks:
	install -m 0755 scripts/pre-commit .git/hooks/pre-commit
	@echo "Installed the pre-commit hook: staged Swift files are formatted before each commit."

clean:
	rm -rf .build
