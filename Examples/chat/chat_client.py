#!/usr/bin/env python3
"""A chat client's "you may want to send this photo" button, driven by photometa.

The walk-through in docs/integration.md, as a program (Python standard library only):

* it keeps `photometa watch --jsonl` running and turns its events into what the button shows:
  an offer appears (`suggestion`, also the standing one at start), gets its picture
  (`thumbnail`), moves with its file or goes away (`withdrawn`: deleted, dismissed, expired,
  superseded, moved);
* when "+" is pressed it asks `photometa suggest --standing --json`: what is on offer now
  (the same offer watch showed, recorded nothing);
* the user's "not this one" is `photometa dismiss`, which every photometa process sees.

Commands on stdin, one per line: `plus` (the "+" button), `dismiss`, `quit`. What the button
does is printed on stdout, one line each, so a test (Tests/PhotoMetaCLITests) can follow it:

    SHOW <path>              an offer to show (new, or standing at start)
    PICTURE <path> <file>    its picture is ready (WxH after the file)
    HIDE <path> <reason>     take it down (deleted, dismissed, expired, superseded)
    MOVE <old> <new>         its file was renamed: show it at the new path
    PLUS <path>|NONE         what "+" found on offer
"""

import argparse
import json
import os
import subprocess
import sys
import threading


def say(line):
    print(line, flush=True)


class Button:
    """What the button shows: one offer at most, and its picture."""

    def __init__(self):
        self.lock = threading.Lock()
        self.offer = None
        self.picture = None

    def event(self, e):
        kind = e.get("event")
        with self.lock:
            if kind == "suggestion":
                self.offer, self.picture = e["path"], None
                say("SHOW " + e["path"])
            elif kind == "thumbnail" and e.get("path") == self.offer and e.get("thumbnail"):
                t = e["thumbnail"]
                self.picture = t["path"]
                say("PICTURE %s %s %dx%d" % (e["path"], t["path"], t["width"], t["height"]))
            elif kind == "withdrawn" and e.get("path") == self.offer:
                if e["reason"] == "moved":
                    self.offer = e["to"]
                    say("MOVE %s %s" % (e["path"], e["to"]))
                else:
                    self.offer, self.picture = None, None
                    say("HIDE %s %s" % (e["path"], e["reason"]))


def photometa_args(args):
    common = ["--state", args.state, "--profile", args.profile]
    if args.tz:
        common += ["--tz", args.tz]
    if args.within:
        common += ["--within", args.within]
    return common


def watch(args, button):
    cmd = [args.photometa, "watch", args.folder, "--jsonl", "--thumbnail", str(args.size),
           "--thumbnail-mode", "crop"] + photometa_args(args)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)

    def read():
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue  # never happens: photometa writes one JSON object per line
            if event.get("event") == "ready":
                say("READY")
            button.event(event)

    threading.Thread(target=read, daemon=True).start()
    return proc


def plus(args):
    """What is on offer now: exit 0 and the offer, or 3 when nothing stands."""
    r = subprocess.run([args.photometa, "suggest", args.folder, "--standing", "--json"] + photometa_args(args),
                       capture_output=True, text=True)
    if r.returncode == 0:
        say("PLUS " + json.loads(r.stdout)["suggestion"]["path"])
    elif r.returncode == 3:
        say("PLUS NONE")
    else:
        say("ERROR suggest exited %d: %s" % (r.returncode, r.stderr.strip()))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folder")
    p.add_argument("--photometa", default="photometa")
    p.add_argument("--state", default=os.path.expanduser("~/.local/state/photometa/state.sqlite3"))
    p.add_argument("--profile", default="chat")
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--tz")
    p.add_argument("--within")
    args = p.parse_args()
    button = Button()
    proc = watch(args, button)
    try:
        for line in sys.stdin:
            command = line.strip()
            if command == "plus":
                plus(args)
            elif command == "dismiss":
                subprocess.run([args.photometa, "dismiss", args.folder, "--state", args.state,
                                "--profile", args.profile], check=False)
            elif command == "quit":
                break
    finally:
        proc.terminate()
        proc.wait()
        say("BYE")


if __name__ == "__main__":
    main()
