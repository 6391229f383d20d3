# photometa: build, demo and tests. Each entry point installs the Debian packages it needs.

SWIFT       ?= swift
export PATH := $(PATH):/opt/swift/usr/bin
# Packages the build links against (libexif and SQLite through pkg-config).
APT_BUILD   := pkg-config libexif-dev libsqlite3-dev
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN_DEBUG   := .build/debug/photometa
BIN_RELEASE := .build/release/photometa

.PHONY: all deps build release demo test fixtures clean

all: build

# Installs what is missing, and nothing when everything is there (no network needed then).
deps:
	@missing=""; for p in $(APT_BUILD); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build --product photometa

release: deps
	$(SWIFT) build -c release --product photometa

# The main job on the sample library in Fixtures/: every file's capture date, kind and source.
demo: release
	@echo "== photometa inspect -r Fixtures/library (dates without an offset shown in UTC)"
	$(BIN_RELEASE) inspect -r --tz UTC Fixtures/library

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Regenerates the sample library (Python standard library only).
fixtures:
	python3 Fixtures/make_fixtures.py

clean:
	rm -rf .build
