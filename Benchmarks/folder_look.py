#!/usr/bin/env python3
"""What a new photo in a large folder costs the live library (docs/performance.md, "A look at
the names inotify gave"): `photometa serve` on a library of one folder of `--files` JPEGs (a
phone's DCIM/Camera), then, `--photos` times, a new photo written and `photometa status --json`
asked at once (the service reads the queued events and looks before it answers). Prints, per
binary, the median time of `status` alone and right after a new photo, and the service's CPU a
photo. Binaries given together run in turn. Standard library only.

    python3 Benchmarks/folder_look.py [--files 20000] [--photos 20] [--dir /tmp/folder-look] BIN [BIN...]

A `status` that the service does not answer within the client's 100 ms reports no file count
(-1 here): the client then scans the folders itself.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "library", "mmexport1700000000000.jpg")


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def measure(binary, base, files, photos):
    lib = os.path.join(base, "lib")
    cam = os.path.join(lib, "DCIM", "Camera")
    data = open(SAMPLE, "rb").read()
    if not os.path.isdir(cam) or len(os.listdir(cam)) < files:
        shutil.rmtree(lib, ignore_errors=True)
        os.makedirs(cam)
        for k in range(files):
            with open(os.path.join(cam, "IMG_20240101_%06d.jpg" % k), "wb") as f:
                f.write(data)
    for name in os.listdir(cam):
        if name.startswith("IMG_20241201_"):
            os.unlink(os.path.join(cam, name))
    run = os.path.join(base, "run")
    os.makedirs(run, mode=0o700, exist_ok=True)
    env = dict(os.environ, XDG_RUNTIME_DIR=run, XDG_CACHE_HOME=os.path.join(base, "cache"))
    p = subprocess.Popen([binary, "serve", lib], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        while "serving" not in (line := p.stderr.readline()):
            if not line:
                raise SystemExit("serve ended before it was ready")

        def status():
            t = time.perf_counter()
            r = subprocess.run([binary, "status", lib, "--json"], env=env, capture_output=True, text=True)
            return time.perf_counter() - t, json.loads(r.stdout).get("files") or -1

        alone = [status()[0] for _ in range(10)]
        after, counted = [], -1
        t0 = cpu_ticks(p.pid)
        for i in range(photos):
            with open(os.path.join(cam, "IMG_20241201_%06d.jpg" % i), "wb") as f:
                f.write(data)
            t, counted = status()
            after.append(t)
        cpu_ms = (cpu_ticks(p.pid) - t0) * 1000.0 / os.sysconf("SC_CLK_TCK") / photos
        print("%s: status alone %.1f ms; after a new photo %.1f ms (median of %d), files %d, serve CPU %.0f ms a photo"
              % (binary, 1000 * statistics.median(alone), 1000 * statistics.median(after), photos, counted, cpu_ms))
    finally:
        p.terminate()
        p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--dir", default="/tmp/folder-look")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    for b in args.binaries:
        measure(os.path.abspath(b), args.dir, args.files, args.photos)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
