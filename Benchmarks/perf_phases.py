#!/usr/bin/env python3
"""Shares of a `perf record -g` profile of photometa by phase: each sample goes to the innermost
frame on its stack that names a phase (a system call, libexif, a stage of the pure core, the
walk, the output), so a flat profile of many small functions reads as the pipeline's steps.

Usage: python3 Benchmarks/perf_phases.py PERF_DATA...

Record with, for example:
    perf record -F 25000 -g -o /tmp/p.data .build/release/photometa inspect -r --jsonl DIR >/dev/null

Prints, per phase, its share of all samples and, in brackets, where its leaf frames were (the
kernel, libexif, libc, photometa's own code). "no phase on the stack" is a sample none of whose
frames names a phase: mostly leaves in libc or the runtime whose callers the frame-pointer
unwinder could not recover (malloc, free, memmove, retain and release among them). Used for docs/performance.md ("The libexif floor
with photometa's allocator")."""
import collections
import re
import subprocess
import sys

# Innermost first: the first phase found walking a stack from its leaf takes the sample.
PHASES = [
    ("sys:read", r"preadv|__x64_sys_read|ksys_read"),
    ("sys:openat", r"__x64_sys_openat|do_sys_openat"),
    ("sys:statx", r"__x64_sys_statx|__x64_sys_newfstatat|vfs_fstat|do_statx"),
    ("sys:close", r"__x64_sys_close|__fput|task_work_run"),
    ("sys:getdents", r"getdents"),
    ("sys:write", r"__x64_sys_write"),
    ("sys:futex/sched", r"futex|schedule"),
    ("libexif", r"^exif_|^mnote_|photometa_exif_"),
    ("ExifDecoder", r"ExifDecoder|EntryReader"),
    ("XMP", r"XMP"),
    ("Container", r"JPEGReader|FormatDetector|BoundedReader|MotionPhotoLocator|ContainerFindings"),
    ("Kinds", r"KindClassifier|FileNameDateParser|ScreenshotSoftware"),
    ("Dates", r"CaptureDate|DateEvidence|LocalDateTime|DateText|UTCOffset"),
    ("Report/JSON", r"AssetReport|JSONWriter"),
    ("Inspector (own)", r"Inspector"),
    ("Open (FileByteSource)", r"FileByteSource|LongPath"),
    ("Walk", r"TreeWalker|CommandLinePaths"),
    # photometa's own Output type (mangled `9photometa6Output`), not the standard library's
    # TextOutputStream.
    ("Runner/Output", r"InspectionRunner|InspectCommand|9photometa6Output"),
]


def leaf_object(frame):
    for name, key in (("kernel", "kernel"), ("libexif", "libexif"), ("libc", "libc")):
        if key in frame:
            return name
    return "photometa/other"


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    phases = [(n, re.compile(p)) for n, p in PHASES]
    total = collections.Counter()
    leaves = collections.Counter()
    samples = 0
    for path in sys.argv[1:]:
        out = subprocess.run(["perf", "script", "-i", path, "-F", "ip,sym,dso"],
                             capture_output=True, text=True, errors="replace", check=True).stdout
        blocks = out.split("\n\n")
        # With call graphs each sample is a block of frames; without, one line each.
        if len(blocks) == 1 and out.count("\n") > 1:
            raise SystemExit("perf_phases: %s has no call graphs: record with perf record -g" % path)
        for block in blocks:
            frames = [line.strip() for line in block.strip().split("\n") if line.strip()]
            if not frames:
                continue
            samples += 1
            symbols = [re.sub(r"\+0x[0-9a-f]+", "", (f.split(None, 1) + [""])[1]) for f in frames]
            hit = next((n for s in symbols for n, rx in phases if rx.search(s)), "no phase on the stack")
            total[hit] += 1
            leaves[(hit, leaf_object(frames[0]))] += 1
    if not samples:
        raise SystemExit("perf_phases: no samples")
    for phase, count in total.most_common():
        where = ", ".join("%s %.1f%%" % (k[1], 100 * v / samples) for k, v in leaves.most_common() if k[0] == phase)
        print("%6.1f%%  %-22s (%s)" % (100 * count / samples, phase, where))
    print("samples", samples)


if __name__ == "__main__":
    main()
