#!/usr/bin/env bash
# Builds and runs photometa's libFuzzer targets. See docs/fuzzing.md.
#
#   Fuzz/fuzz.sh build                 build every target (cached; rebuilt when Sources/ change)
#   Fuzz/fuzz.sh run [TARGET...]       build, make seeds, fuzz each target FUZZ_SECONDS, report
#   Fuzz/fuzz.sh replay TARGET FILE... run inputs once through a target (a finding's check)
#   Fuzz/fuzz.sh minimize TARGET FILE  shrink a crashing input (-minimize_crash=1)
#   Fuzz/fuzz.sh list                  the target names
#
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_RUNS     instead of a time: run this many inputs after the seeds (0 = replay the seeds
#                 and Fixtures/fuzz once under AddressSanitizer, deterministic: the CI smoke)
#   FUZZ_FAIL_ON_FINDINGS  1 = exit 1 when anything was found
#   FUZZ_TARGETS  targets to run when none are named (default: all)
#   FUZZ_JOBS     targets fuzzed at the same time (default: number of cores)
#   FUZZ_BUILD    build and work folder (default .build/fuzz; corpora and findings live here)
#   FUZZ_CORPUS   extra seed folder (default ../shared/corpus beside the checkout, if present)
#   FUZZ_MAX_FINDINGS  findings per target before it stops early (default 5)
#   FUZZ_SOURCES  the package root whose Sources/ are fuzzed (default: this checkout; point it at a
#                 patched copy to fuzz past a known finding)
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export PATH="$PATH:/opt/swift/usr/bin"

TARGETS_ALL=(inspect jpeg png gif webp tiff heif quicktime matroska mpeg flv_asf jxl exif exif_app1 xmp filename datetext previews)
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
FUZZ_JOBS="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
FUZZ_BUILD="${FUZZ_BUILD:-$ROOT/.build/fuzz}"
FUZZ_CORPUS="${FUZZ_CORPUS:-$ROOT/../shared/corpus}"
FUZZ_MAX_FINDINGS="${FUZZ_MAX_FINDINGS:-5}"
SRC="${FUZZ_SOURCES:-$ROOT}"
# Swift's own crash backtracer fights AddressSanitizer; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
SUDO="$([ "$(id -u)" = 0 ] || echo sudo)"

# Largest input per target: libexif never sees more than 64 KiB; container metadata sits in the
# first few hundred KiB; names and date strings are short.
max_len() {
    case "$1" in
        exif|exif_app1|xmp) echo 65536 ;;
        # Large enough for a file of 1,000 small compressed text chunks: with the RSS limit
        # below, an expansion without a total cap (Fixtures/fuzz/png-xmp-inflate-bomb) is caught.
        png) echo 1048576 ;;
        filename|datetext) echo 512 ;;
        *) echo 262144 ;;
    esac
}

log() { echo "fuzz: $*" >&2; }

# --- dependencies -------------------------------------------------------------------------

apt_install() {
    local missing=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        log "installing Debian packages:$missing"
        $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >&2
    fi
}

SWIFTC="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
CLANG=""
# How the fuzzer runtime is linked: "toolchain" (-sanitize=fuzzer, the Swift toolchain's own
# libclang_rt.fuzzer) or "debian" (coverage flags, Debian's libclang-rt-dev runtime).
RUNTIME=""
SAN_SWIFT=()
SAN_LINK=()
CC_FLAGS=()

toolchain_has_fuzzer() {
    local dir
    dir="$(dirname "$(dirname "$SWIFTC")")/lib/swift/clang/lib/linux"
    [ -f "$dir/libclang_rt.fuzzer-x86_64.a" ] || [ -f "$dir/libclang_rt.fuzzer-$(uname -m).a" ]
}

setup_toolchain() {
    apt_install pkg-config libexif-dev zlib1g-dev libbrotli-dev python3
    [ -x "$SWIFTC" ] || { log "swiftc not found"; exit 2; }
    if [ "${FUZZ_RUNTIME:-}" != debian ] && toolchain_has_fuzzer; then
        RUNTIME=toolchain
        CLANG="$(dirname "$SWIFTC")/clang"
        [ -x "$CLANG" ] || { apt_install clang; CLANG="$(command -v clang)"; }
        SAN_SWIFT=(-sanitize=fuzzer,address)
        SAN_LINK=(-sanitize=fuzzer,address)
        CC_FLAGS=(-fsanitize=fuzzer-no-link,address)
    else
        # The Swift toolchain lacks libFuzzer: instrument with coverage flags and link Debian's
        # runtime (libclang-rt-dev). AddressSanitizer is used when the toolchain has it.
        RUNTIME=debian
        apt_install libclang-rt-dev
        CLANG="$(dirname "$SWIFTC")/clang"
        [ -x "$CLANG" ] || { apt_install clang; CLANG="$(command -v clang)"; }
        local lib
        lib="$(find /usr/lib/llvm-*/lib/clang -name "libclang_rt.fuzzer-$(uname -m).a" 2>/dev/null | sort -V | tail -1)"
        [ -n "$lib" ] || { log "no libFuzzer runtime found (toolchain or libclang-rt-dev)"; exit 2; }
        SAN_SWIFT=(-sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table)
        SAN_LINK=(-Xlinker "$lib" -lstdc++)
        CC_FLAGS=(-fsanitize=fuzzer-no-link)
        if [ -f "$(dirname "$(dirname "$SWIFTC")")/lib/swift/clang/lib/linux/libclang_rt.asan-$(uname -m).a" ]; then
            SAN_SWIFT+=(-sanitize=address); SAN_LINK+=(-sanitize=address); CC_FLAGS=(-fsanitize=fuzzer-no-link,address)
        fi
    fi
}

# --- build --------------------------------------------------------------------------------

build() {
    setup_toolchain
    local b="$FUZZ_BUILD/bin" obj="$FUZZ_BUILD/obj"
    mkdir -p "$b"
    local stamp="$obj/PhotoMetaCore.o"
    # The pure core (everything that parses file bytes): Sources/PhotoMetaCore in one
    # whole-module compile, instrumented. The other layers only call system libraries.
    if [ ! -f "$stamp" ] || [ -n "$(find "$SRC/Sources" Fuzz/fuzz.sh -newer "$stamp" -type f 2>/dev/null | head -1)" ] \
        || [ "$(cat "$obj/runtime" 2>/dev/null)" != "$RUNTIME $SRC" ]; then
        log "compiling PhotoMetaCore with ${SAN_SWIFT[*]} ($RUNTIME runtime)"
        # PHOTOMETA_EXIF_CALLOC: libexif keeps calloc and free (Sources/CExif/exif_arena.h), so
        # AddressSanitizer sees each of its blocks.
        # shellcheck disable=SC2046
        "$SWIFTC" "${SAN_SWIFT[@]}" -Xcc -DPHOTOMETA_EXIF_CALLOC=1 -parse-as-library -enable-testing -g -O -wmo \
            -module-name PhotoMetaCore \
            -package-name photometa -emit-module -emit-module-path "$obj/PhotoMetaCore.swiftmodule" -c -o "$stamp.tmp" \
            -I "$SRC/Sources/CExif" -I "$SRC/Sources/CZlib" -I "$SRC/Sources/CBrotli" \
            $(find "$SRC/Sources/PhotoMetaCore" -name '*.swift' | sort) || { rm -f "$stamp.tmp"; exit 2; }
        mv "$stamp.tmp" "$stamp"
        echo "$RUNTIME $SRC" > "$obj/runtime"
        rm -f "$b"/fuzz-*
    fi
    local t pids=()
    for t in "${TARGETS_ALL[@]}"; do
        local exe="$b/fuzz-$t"
        if [ ! -x "$exe" ] || [ "Fuzz/Targets/$t.swift" -nt "$exe" ] || [ Fuzz/Targets/Support.swift -nt "$exe" ]; then
            (
                "$SWIFTC" "${SAN_LINK[@]}" "${SAN_SWIFT[@]}" -parse-as-library -g -O -module-name "fuzz_$t" \
                    -package-name photometa -I "$obj" -I "$SRC/Sources/CExif" -I "$SRC/Sources/CZlib" -I "$SRC/Sources/CBrotli" -use-ld=lld \
                    Fuzz/Targets/Support.swift "Fuzz/Targets/$t.swift" "$obj/PhotoMetaCore.o" \
                    -lexif -lz -lbrotlidec -o "$exe" 2>"$b/link-$t.log" || { cat "$b/link-$t.log" >&2; exit 1; }
            ) &
            pids+=($!)
            if [ "${#pids[@]}" -ge "$FUZZ_JOBS" ]; then wait "${pids[0]}" || exit 2; pids=("${pids[@]:1}"); fi
        fi
    done
    for p in "${pids[@]}"; do wait "$p" || exit 2; done
    log "targets built in $b"
}

# --- seeds --------------------------------------------------------------------------------

seeds() {
    local s="$FUZZ_BUILD/seeds"
    rm -rf "$s"
    local roots=("$ROOT/Fixtures")
    [ -d "$FUZZ_CORPUS" ] && roots+=("$FUZZ_CORPUS")
    python3 Fuzz/seeds.py "$s" "${roots[@]}" > "$FUZZ_BUILD/seeds.txt" || exit 2
}

# --- run ----------------------------------------------------------------------------------

# Fuzzes one target for FUZZ_SECONDS. libFuzzer stops at a finding; the target is restarted
# with the time left (at most FUZZ_MAX_FINDINGS times), so one crash does not end its run.
run_one() {
    local t="$1" exe="$FUZZ_BUILD/bin/fuzz-$1"
    local corpus="$FUZZ_BUILD/corpus/$t" findings="$FUZZ_BUILD/findings/$t" logs="$FUZZ_BUILD/logs/$t"
    mkdir -p "$corpus" "$findings" "$logs"
    rm -f "$logs"/*.log
    local dict=() start now left round=0
    [ -f "Fuzz/dicts/$t.dict" ] && dict=(-dict="Fuzz/dicts/$t.dict")
    start=$(date +%s)
    while :; do
        now=$(date +%s); left=$((FUZZ_SECONDS - (now - start)))
        local budget=(-max_total_time="$left")
        if [ -n "${FUZZ_RUNS:-}" ]; then
            budget=(-runs="$FUZZ_RUNS")
            [ "$round" = 0 ] || break
        else
            [ "$left" -gt 0 ] || break
        fi
        round=$((round + 1))
        ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:handle_abort=1}" \
        "$exe" "${budget[@]}" -rss_limit_mb=768 -malloc_limit_mb=512 -timeout=5 \
            -max_len="$(max_len "$t")" -print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" \
            "$corpus" "$FUZZ_BUILD/seeds/$t" > "$logs/round-$round.log" 2>&1
        local rc=$?
        [ "$rc" = 0 ] && break
        if ! grep -qE "^artifact_prefix|Test unit written to" "$logs/round-$round.log"; then
            log "$t: libFuzzer exited $rc without a finding (see $logs/round-$round.log)"; break
        fi
        [ "$(find "$findings" -type f | wc -l)" -ge "$FUZZ_MAX_FINDINGS" ] && break
    done
    echo $(($(date +%s) - start)) > "$logs/seconds"
}

report() {
    local t execs secs n files status=0 failed=0
    printf '%-10s %12s %8s  %s\n' target executions exec/s findings
    for t in "$@"; do
        execs=$(cat "$FUZZ_BUILD/logs/$t"/*.log 2>/dev/null | awk '/stat::number_of_executed_units:/ {s += $2} END {print s + 0}')
        files=$(find "$FUZZ_BUILD/findings/$t" -type f 2>/dev/null | sort)
        n=$(printf '%s' "$files" | grep -c . || true)
        secs=$(cat "$FUZZ_BUILD/logs/$t/seconds" 2>/dev/null || echo 1)
        printf '%-10s %12s %8s  %s\n' "$t" "$execs" "$((execs / (secs > 0 ? secs : 1)))" "$n"
        if [ -n "$files" ]; then
            status=1
            failed=$((failed + 1))
            printf '%s\n' "$files" | sed 's/^/             /'
        fi
    done
    # One line a CI log reader understands: a target passes when it found nothing.
    echo "fuzz: $(($# - failed)) passed, $failed failed"
    return $status
}

run() {
    local targets=("$@")
    [ ${#targets[@]} -gt 0 ] || read -r -a targets <<< "${FUZZ_TARGETS:-${TARGETS_ALL[*]}}"
    build
    seeds
    if [ -n "${FUZZ_RUNS:-}" ]; then
        log "replaying the seeds of ${targets[*]} (+$FUZZ_RUNS runs each), $FUZZ_JOBS at a time (work folder $FUZZ_BUILD)"
    else
        log "fuzzing ${targets[*]} for ${FUZZ_SECONDS}s each, $FUZZ_JOBS at a time (work folder $FUZZ_BUILD)"
    fi
    rm -rf "$FUZZ_BUILD/findings"
    local t pids=()
    for t in "${targets[@]}"; do
        run_one "$t" &
        pids+=($!)
        if [ "${#pids[@]}" -ge "$FUZZ_JOBS" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    done
    for p in "${pids[@]}"; do wait "$p"; done
    echo
    if ! report "${targets[@]}"; then
        echo "fuzz: findings above (crash-/leak-/timeout-/oom- files); minimise with Fuzz/fuzz.sh minimize TARGET FILE" >&2
        [ "${FUZZ_FAIL_ON_FINDINGS:-0}" = 1 ] && return 1
    fi
    return 0
}

replay() {
    local t="$1"; shift
    build >/dev/null
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
        "$FUZZ_BUILD/bin/fuzz-$t" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=5 -runs=1 "$@"
}

minimize() {
    local t="$1" file="$2"
    build >/dev/null
    local out="$FUZZ_BUILD/minimized"
    mkdir -p "$out"
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
        "$FUZZ_BUILD/bin/fuzz-$t" -minimize_crash=1 -max_total_time="${FUZZ_SECONDS}" -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -timeout=5 -exact_artifact_path="$out/$t-$(basename "$file")" "$file"
    echo "minimised: $out/$t-$(basename "$file")"
}

case "${1:-run}" in
    build) build ;;
    seeds) seeds ;;
    run) shift || true; run "$@" ;;
    replay) shift; replay "$@" ;;
    minimize) shift; minimize "$@" ;;
    list) printf '%s\n' "${TARGETS_ALL[@]}" ;;
    *) sed -n '2,21p' "$0"; exit 2 ;;
esac
