#!/usr/bin/env python3
"""The `watch` rows of `make bench` (issue 11): latency, CPU per event and memory of
`photometa watch` over the bench library. Standard library only.

    python3 Benchmarks/watch_bench.py --bin .build/release/photometa --lib .build/bench/lib-20000/library

Measured, with one `photometa watch LIB --jsonl` process:

- ready: from start to the `ready` event (the initial snapshot and the watches);
- latency of a suggestion: a new photo (captured now, written into a folder of the tree and
  closed) to its `suggestion` line, median and worst of `--events` photos;
- latency of a change that is not a suggestion (an old photo): to its `changes` line;
- CPU seconds per event (user + system of the watch process, from /proc), and idle CPU over
  two seconds without events;
- churn: `--churn` create-and-delete cycles of temporary names, then the peak RSS (VmHWM);
- burst: `--burst` files written at once into a new folder, the time until all are reported.
- serve's burst (`serve_burst`): the same burst under `photometa serve LIB` (the live library),
  the peak RSS once `status` counts every file, and the resident size then.

Latency includes the watcher's debounce (15 ms). Peers: none does this job (inotifywait reports events, not settled, inspected media); the
figures are compared with the goals instead (50 ms latency, 64 MiB).
"""
import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import time

CLK = os.sysconf("SC_CLK_TCK")


def wakeups(pid):
    """Times the process's threads were switched out (voluntary and not), summed over them: a
    thread that wakes and sleeps again counts one. Threads that ended are not counted, so it
    is read over a window with no work (the idle rows here and in service_bench.py)."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def peak_rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


class Watch:
    def __init__(self, binary, lib, tmp):
        env = dict(os.environ, TZ="UTC", XDG_CACHE_HOME=os.path.join(tmp, "watch-cache"))
        self.p = subprocess.Popen([binary, "watch", lib, "--jsonl", "--tz", "UTC", "--state", os.path.join(tmp, "watch-state.sqlite3")],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.buf = b""

    def next_event(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                chunk = os.read(self.p.stdout.fileno(), 1 << 16)
                if not chunk:
                    return None
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def wait_for(self, predicate, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            e = self.next_event(max(0.0, deadline - time.monotonic()))
            if e is None:
                return None
            if predicate(e):
                return e

    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=10)


def write_now(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return time.monotonic()


def measure(binary, lib, tmp, events=20, churn=20000, burst=5000, log=print):
    # A JPEG without an EXIF date, so a name's date decides: IMG_<now>.jpg is just taken.
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "library", "mmexport1700000000000.jpg")
    data = open(sample, "rb").read()
    folders = sorted({r for r, _, n in os.walk(lib) if n})
    target = folders[len(folders) // 2]
    files = sum(len(n) for _, _, n in os.walk(lib))
    t0 = time.monotonic()
    w = Watch(binary, lib, tmp)
    try:
        return run_all(w, t0, lib, target, folders, files, data, events, churn, burst, log)
    finally:
        if w.p.poll() is None:
            w.p.kill()
            w.p.wait()


def run_all(w, t0, lib, target, folders, files, data, events, churn, burst, log):
    ready = w.wait_for(lambda e: e.get("event") == "ready", timeout=300)
    if ready is None:
        raise SystemExit("watch bench: no ready event")
    ready_s = time.monotonic() - t0
    pid = w.p.pid
    time.sleep(1)  # the one look right after ready (files created before the watches) is not idle
    idle0, woken0 = cpu_seconds(pid), wakeups(pid)
    time.sleep(2)
    idle_cpu, idle_wakeups = cpu_seconds(pid) - idle0, wakeups(pid) - woken0

    def stamp(t):
        return time.strftime("%Y%m%d_%H%M%S", time.gmtime(t))

    suggestion_ms, change_ms = [], []
    cpu0 = cpu_seconds(pid)
    for k in range(events):
        name = "IMG_%s_w%03d.jpg" % (stamp(time.time()), k)
        path = os.path.join(target, name)
        closed = write_now(path, data)
        e = w.wait_for(lambda e: e.get("event") == "suggestion" and e.get("path", "").endswith(name), timeout=30)
        if e is None:
            raise SystemExit("watch bench: no suggestion for " + name)
        suggestion_ms.append((time.monotonic() - closed) * 1000)
        time.sleep(1.1)  # one capture per second, so each new photo is newer than the last offer
    cpu_suggest = (cpu_seconds(pid) - cpu0) / events
    cpu0 = cpu_seconds(pid)
    for k in range(events):
        name = "IMG_20190101_0000%02d_c%03d.jpg" % (k % 60, k)
        path = os.path.join(target, name)
        closed = write_now(path, data)
        e = w.wait_for(lambda e: e.get("event") == "changes" and any(i.get("path", "").endswith(name) for i in e.get("inserted", [])), timeout=30)
        if e is None:
            raise SystemExit("watch bench: no change for " + name)
        change_ms.append((time.monotonic() - closed) * 1000)
    cpu_change = (cpu_seconds(pid) - cpu0) / events
    rss_steady = peak_rss_kib(pid)

    churn_dir = os.path.join(lib, "churn")
    os.makedirs(churn_dir, exist_ok=True)
    for k in range(churn):
        p = os.path.join(churn_dir, "tmp%06d.jpg.part" % k)
        with open(p, "wb") as f:
            f.write(b"x")
        os.unlink(p)
    marker = os.path.join(churn_dir, "IMG_20190101_000000_marker.jpg")
    write_now(marker, data)
    w.wait_for(lambda e: e.get("event") == "changes" and any(i.get("path", "").endswith("_marker.jpg") for i in e.get("inserted", [])), timeout=120)
    rss_churn = peak_rss_kib(pid)

    burst_dir = os.path.join(lib, "burst")
    os.makedirs(burst_dir + ".tmp", exist_ok=True)
    for k in range(burst):
        with open(os.path.join(burst_dir + ".tmp", "IMG_20190101_%06d.jpg" % k), "wb") as f:
            f.write(data)
    start = time.monotonic()
    os.rename(burst_dir + ".tmp", burst_dir)  # moved in at once, with all its files
    seen = 0
    while seen < burst:
        e = w.wait_for(lambda e: e.get("event") == "changes", timeout=300)
        if e is None:
            break
        # Files reported under burst.tmp/ before the rename come again as renames (`moved`).
        seen += sum(1 for i in e.get("inserted", []) if "/burst/" in i.get("path", ""))
        seen += sum(1 for m in e.get("moved", []) if "/burst/" in m.get("to", ""))
    burst_s = time.monotonic() - start
    rss_burst = peak_rss_kib(pid)
    w.stop()
    for d in (churn_dir, burst_dir):
        shutil.rmtree(d, ignore_errors=True)
    for name in os.listdir(target):
        if "_w0" in name or "_c0" in name:
            os.unlink(os.path.join(target, name))
    result = {
        "files": files, "folders": len(folders), "ready_s": round(ready_s, 3), "idle_cpu_s": round(idle_cpu, 3), "idle_wakeups": idle_wakeups,
        "suggestion_ms": {"median": round(statistics.median(suggestion_ms), 1), "max": round(max(suggestion_ms), 1)},
        "change_ms": {"median": round(statistics.median(change_ms), 1), "max": round(max(change_ms), 1)},
        "cpu_per_suggestion_s": round(cpu_suggest, 4), "cpu_per_change_s": round(cpu_change, 4),
        "rss_steady_kib": rss_steady, "churn": churn, "rss_after_churn_kib": rss_churn,
        "burst": burst, "burst_reported": seen, "burst_s": round(burst_s, 2), "rss_after_burst_kib": rss_burst,
    }
    log("watch bench: %s" % json.dumps(result))
    return result


def serve_burst(binary, lib, tmp, burst, log=print):
    """`photometa serve LIB` through a burst of `burst` files written into `burst.tmp/` and moved
    in as `burst/` (as watch's burst): the peak RSS (VmHWM) and the resident size once `status`
    counts every file, and the seconds from the rename until then. Its own runtime folder and
    index, built by the serve's first scan."""
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "library", "mmexport1700000000000.jpg")
    data = open(sample, "rb").read()
    files = sum(len(n) for _, _, n in os.walk(lib))
    run = os.path.join(tmp, "serve-run")
    os.makedirs(run, mode=0o700, exist_ok=True)
    env = dict(os.environ, TZ="UTC", XDG_RUNTIME_DIR=run, XDG_CACHE_HOME=os.path.join(tmp, "serve-cache"))
    p = subprocess.Popen([binary, "serve", lib], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    burst_dir = os.path.join(lib, "burst")

    def counted():
        r = subprocess.run([binary, "status", lib, "--json"], env=env, capture_output=True, text=True)
        try:
            return json.loads(r.stdout).get("files")
        except ValueError:
            return None

    try:
        while "serving" not in (line := p.stderr.readline()):
            if not line:
                raise RuntimeError("serve ended before it was ready")
        rss_ready = peak_rss_kib(p.pid)
        os.makedirs(burst_dir + ".tmp")
        for k in range(burst):
            with open(os.path.join(burst_dir + ".tmp", "IMG_20190101_%06d.jpg" % k), "wb") as f:
                f.write(data)
        os.rename(burst_dir + ".tmp", burst_dir)
        start = time.monotonic()
        seen = counted()
        while seen is None or seen < files + burst:
            if time.monotonic() - start > 600:
                raise RuntimeError("serve counted %s of %d files after 600 s" % (seen, files + burst))
            time.sleep(0.1)
            seen = counted()
        burst_s = time.monotonic() - start
        with open("/proc/%d/status" % p.pid) as f:
            resident = next(int(x.split()[1]) for x in f if x.startswith("VmRSS:"))
        result = {"burst": burst, "files": seen, "burst_s": round(burst_s, 2), "rss_ready_kib": rss_ready,
                  "rss_peak_kib": peak_rss_kib(p.pid), "rss_after_kib": resident}
        log("serve burst: %s" % json.dumps(result))
        return result
    finally:
        p.terminate()
        p.wait()
        for d in (burst_dir, burst_dir + ".tmp"):
            shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--tmp", default=".build/bench/tmp-watch")
    ap.add_argument("--events", type=int, default=20)
    ap.add_argument("--churn", type=int, default=20000)
    ap.add_argument("--burst", type=int, default=5000)
    ap.add_argument("--serve-burst", type=int, default=0, help="also serve through a burst of this many files (0: not)")
    args = ap.parse_args()
    shutil.rmtree(args.tmp, ignore_errors=True)
    os.makedirs(args.tmp)
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    paths = (os.path.abspath(args.bin), os.path.abspath(args.lib), os.path.abspath(args.tmp))
    result = measure(*paths, args.events, args.churn, args.burst, log=log)
    if args.serve_burst:
        result["serve_burst"] = serve_burst(*paths, args.serve_burst, log=log)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
