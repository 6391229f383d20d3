# photometa: build, demo and tests. Each entry point installs the Debian packages it needs.

SWIFT       ?= swift
export PATH := $(PATH):/opt/swift/usr/bin
# Packages the build links against (libexif, SQLite and zlib through pkg-config; libvips,
# libffmpegthumbnailer and LittleCMS for PhotoMetaThumbnails).
APT_BUILD   := pkg-config libexif-dev libsqlite3-dev zlib1g-dev libbrotli-dev libvips-dev libffmpegthumbnailer-dev \
               liblcms2-dev
# What the tests use besides the build: man (the installed page is rendered), python3 (a pty
# for the progress line), bubblewrap (the desktop's thumbnailer run in GNOME's sandbox).
APT_TEST    := man-db python3 bubblewrap
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Warnings are errors in every build this Makefile runs (CI included); `make WERROR= build` to relax.
WERROR      ?= -Xswiftc -warnings-as-errors
BIN_DEBUG   := .build/debug/photometa
BIN_RELEASE := .build/release/photometa

.PHONY: all deps build release demo test lint client fixtures thumbnail-fixtures jxl-fixtures clean install install-files uninstall

all: build

# $(call apt_install,PACKAGES): installs the Debian packages of the list that are missing, and
# nothing when everything is there (no network needed then).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call apt_install,$(APT_BUILD))

build: deps
	$(SWIFT) build $(WERROR) --product photometa
	$(SWIFT) build $(WERROR) --product photometa-thumbnailer

# The Swift runtime is linked in (--static-swift-stdlib): an installed photometa then needs
# nothing from the toolchain's folder (/opt/swift here), which GNOME's thumbnailer sandbox
# (bubblewrap, /usr only) cannot see (docs/thumbnails.md, "GNOME's sandbox").
RELEASE_FLAGS ?= --static-swift-stdlib
release: deps
	$(SWIFT) build -c release $(WERROR) $(RELEASE_FLAGS) --product photometa
	$(SWIFT) build -c release $(WERROR) $(RELEASE_FLAGS) --product photometa-thumbnailer

DEMO_STATE  := .build/demo/state.sqlite3
DEMO_NOW    := 2024-08-08T12:08:20Z

# The main job on the sample library in Fixtures/: what each file is and when it was taken,
# then the suggestion a chat app would show at a fixed "now", twice: the second run shows
# that the same photo is not offered again. The demo keeps its memory in .build/demo/.
demo: release
	@echo "== photometa inspect -r --tz UTC Fixtures/library"
	@$(BIN_RELEASE) inspect -r --tz UTC Fixtures/library
	@rm -f $(DEMO_STATE) $(DEMO_STATE)-wal $(DEMO_STATE)-shm
	@echo
	@echo "== photometa suggest Fixtures/library --now $(DEMO_NOW) --explain   (first run)"
	@$(BIN_RELEASE) suggest Fixtures/library --now $(DEMO_NOW) --tz UTC --state $(DEMO_STATE) --explain; echo "(exit $$?)"
	@echo
	@echo "== the same again: already offered, so nothing new"
	@$(BIN_RELEASE) suggest Fixtures/library --now $(DEMO_NOW) --tz UTC --state $(DEMO_STATE); echo "(exit $$?)"

test: deps
	$(call apt_install,$(APT_TEST))
	$(SWIFT) build $(WERROR) --build-tests
	$(SWIFT) test --skip-build

# swift-format (part of the toolchain) over everything Swift in the repository, configured by
# .swift-format (Tests/ and Fuzz/ relax the documentation and force-unwrap rules); then the
# layout rules of docs/architecture.md (each C library and libc in its one home, files up to 350
# lines, functions up to 80), exceptions in Scripts/layout-allow.txt; the checker tests itself first.
LINT_PATHS  := Package.swift Sources Tests Fuzz/Targets Examples/Client/Package.swift Examples/Client/Sources
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)
	python3 Scripts/check_layout.py --self-test

# A separate package that depends on this checkout by path and uses the public product only:
# builds and runs the examples of README.md and docs/api.md against Fixtures/library.
client: deps
	cd Examples/Client && $(SWIFT) build $(WERROR) && .build/debug/Client ../../Fixtures/library

# Regenerates the sample library, the sidecar and the file-name fixtures (Python standard
# library only).
fixtures:
	python3 Fixtures/make_fixtures.py
	python3 Fixtures/make_sidecar_fixtures.py
	python3 Fixtures/make_name_fixtures.py

# Fixtures/thumbnails needs real pixels: libvips' CLI and ffmpeg make them, LittleCMS the
# Display P3 profile (committed, so the tests need none of them).
APT_THUMB_FIXTURES := libvips-tools liblcms2-2 ffmpeg python3
thumbnail-fixtures:
	$(call apt_install,$(APT_THUMB_FIXTURES))
	python3 Fixtures/make_thumbnail_fixtures.py

# The JPEG XL fixtures of Fixtures/formats: cjxl writes them (committed, so the tests need no
# JPEG XL tool).
APT_JXL_FIXTURES := libjxl-tools python3
jxl-fixtures:
	$(call apt_install,$(APT_JXL_FIXTURES))
	python3 Fixtures/make_jxl_fixtures.py

clean:
	rm -rf .build Examples/Client/.build

# Installs the release binary and its thumbnail helper (photometa-thumbnailer, beside it: the
# one process that links the image libraries), the man page photometa(1), the bash and zsh
# completions and the desktop's thumbnailer entry (share/thumbnailers, docs/thumbnails.md)
# under $(DESTDIR)$(PREFIX). `install-files` installs INSTALL_BIN (and the helper
# beside it) without building (the tests install the debug binaries that way into a
# temporary DESTDIR).
PREFIX      ?= /usr/local
DESTDIR     ?=
INSTALL_BIN ?= $(BIN_RELEASE)
INSTALLED   := $(DESTDIR)$(PREFIX)/bin/photometa $(DESTDIR)$(PREFIX)/bin/photometa-thumbnailer \
               $(DESTDIR)$(PREFIX)/share/man/man1/photometa.1 \
               $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photometa \
               $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_photometa \
               $(DESTDIR)$(PREFIX)/lib/systemd/user/photometa.service \
               $(DESTDIR)$(PREFIX)/share/thumbnailers/photometa.thumbnailer

install: release install-files

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/photometa
	install -m 755 $(dir $(INSTALL_BIN))photometa-thumbnailer $(DESTDIR)$(PREFIX)/bin/photometa-thumbnailer
	install -m 644 share/man/man1/photometa.1 $(DESTDIR)$(PREFIX)/share/man/man1/photometa.1
	install -m 644 share/completions/photometa.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photometa
	install -m 644 share/completions/_photometa $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_photometa
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user
	sed 's|@BINDIR@|$(PREFIX)/bin|g' share/systemd/user/photometa.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/photometa.service
	chmod 644 $(DESTDIR)$(PREFIX)/lib/systemd/user/photometa.service
	install -d $(DESTDIR)$(PREFIX)/share/thumbnailers
	sed 's|@BINDIR@|$(PREFIX)/bin|g' share/thumbnailers/photometa.thumbnailer > $(DESTDIR)$(PREFIX)/share/thumbnailers/photometa.thumbnailer
	chmod 644 $(DESTDIR)$(PREFIX)/share/thumbnailers/photometa.thumbnailer

uninstall:
	rm -f $(INSTALLED)

# Benchmark (issue 5, docs/performance.md): photometa inspect and suggest against exiv2,
# exiftool -fast2 and C floors (stat, read 64 KiB) on a synthetic library of BENCH_N files,
# generated once by Benchmarks/make_library.py and cached in BENCH_DIR. Each figure is the
# median of BENCH_RUNS runs after a warm-up; the table is written into docs/performance.md and
# the raw numbers into Benchmarks/results/. Installs its peers with apt when missing.
# Issue 24: inspect against exiv2 and jhead on 5,000 of its JPEGs, warm, and cold (the page
# cache dropped before every run: root only; BENCH_COLD=0 skips those rows). Every row prints
# its exact command line and the load average. `python3 Benchmarks/run.py --only-jpeg --bin B
# --dir BENCH_DIR` runs those rows alone, to try a change.
BENCH_N     ?= 20000
BENCH_RUNS  ?= 5
BENCH_DIR   ?= .build/bench
# The live-library rows (issue 20, Benchmarks/service_bench.py): serve and suggest answered by
# it, on BENCH_SERVICE_N small generated files, 100 to a folder (1000000 for the large row).
BENCH_SERVICE_N    ?= 100000
BENCH_SERVICE_RUNS ?= 40
APT_BENCH   := libimage-exiftool-perl exiv2 jhead time gcc python3 libvips-tools ffmpeg ffmpegthumbnailer imagemagick \
               libheif-examples

# Scale-out recipes of docs/pipelines.md, run (not part of make test): the same list of paths
# through GNU parallel, and through Apache Spark's RDD.pipe in local mode (a JRE from Debian,
# pyspark from PyPI in a virtual environment under .build/), each compared with one plain
# `inspect --jsonl` run over the list.
PIPE_DIR    := .build/pipelines
SPARK_VENV  := .build/spark-venv
PIPE_LIST   := $(PIPE_DIR)/list.txt
PLAIN_RUN   = TZ=UTC $(BIN_RELEASE) inspect --files-from $(PIPE_LIST) --jsonl --keep-going -q > $(PIPE_DIR)/plain.jsonl

.PHONY: parallel-demo spark-demo pipe-list
pipe-list: release
	@mkdir -p $(PIPE_DIR)
	find $(CURDIR)/Fixtures/library -type f ! -name '.*' | LC_ALL=C sort > $(PIPE_LIST)
	$(PLAIN_RUN)

parallel-demo: pipe-list
	$(call apt_install,parallel python3)
	TZ=UTC parallel --will-cite --pipe -N 5 --keep-order --halt now,fail=1 \
	  $(BIN_RELEASE) inspect --files-from - --jsonl --keep-going -q < $(PIPE_LIST) > $(PIPE_DIR)/parallel.jsonl
	python3 Examples/pipelines/compare.py $(PIPE_DIR)/plain.jsonl $(PIPE_DIR)/parallel.jsonl
	python3 Examples/pipelines/read_jsonl.py $(PIPE_DIR)/parallel.jsonl

spark-demo: pipe-list
	$(call apt_install,default-jre-headless python3)
	test -x $(SPARK_VENV)/bin/python || python3 -m venv $(SPARK_VENV)
	$(SPARK_VENV)/bin/python -c 'import pyspark' 2>/dev/null || $(SPARK_VENV)/bin/pip install --quiet pyspark
	$(SPARK_VENV)/bin/python Examples/pipelines/spark_inspect.py $(abspath $(BIN_RELEASE)) $(PIPE_LIST) $(PIPE_DIR)/spark.jsonl 4
	python3 Examples/pipelines/compare.py $(PIPE_DIR)/plain.jsonl $(PIPE_DIR)/spark.jsonl
	python3 Examples/pipelines/read_jsonl.py $(PIPE_DIR)/spark.jsonl

.PHONY: bench bench-thumbnails bench-service
bench: release
	$(call apt_install,$(APT_BENCH))
	python3 Benchmarks/run.py --bin $(BIN_RELEASE) --n $(BENCH_N) --runs $(BENCH_RUNS) \
	  --service-n $(BENCH_SERVICE_N) --service-runs $(BENCH_SERVICE_RUNS) --dir $(BENCH_DIR) --doc docs/performance.md

# The thumbnail rows of make bench alone (they are part of every make bench run).
bench-thumbnails: release
	$(call apt_install,$(APT_BENCH))
	python3 Benchmarks/run.py --bin $(BIN_RELEASE) --only-thumbnails --dir $(BENCH_DIR) --doc docs/performance.md

# The live-library rows of make bench alone (they are part of every make bench run): a few
# minutes at 100,000 files; `make bench-service BENCH_SERVICE_N=1000000` for the large row
# (generating its library takes a few minutes the first time).
bench-service: release
	$(call apt_install,gcc python3)
	python3 Benchmarks/run.py --bin $(BIN_RELEASE) --only-service --service-n $(BENCH_SERVICE_N) \
	  --service-runs $(BENCH_SERVICE_RUNS) --dir $(BENCH_DIR) --doc docs/performance.md

# Fuzzing (issue 6, docs/fuzzing.md): builds the libFuzzer targets in Fuzz/ with AddressSanitizer
# (Swift toolchain's runtime, else Debian's libclang-rt-dev), seeds them from Fixtures/ and
# ../shared/corpus, runs each for FUZZ_SECONDS and prints executions and findings per target.
# Findings land in FUZZ_BUILD/findings/<target>/. Installs what it needs with apt when missing.
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= .build/fuzz

.PHONY: fuzz
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=$(abspath $(FUZZ_BUILD)) bash Fuzz/fuzz.sh run $(FUZZ_TARGETS)
