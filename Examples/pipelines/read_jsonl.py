#!/usr/bin/env python3
"""Reads `photometa inspect --jsonl` rows (from files or standard input) and prints a summary:
rows per kind, files without a date, and the capture dates' sources. Standard library only.

    photometa inspect -r --jsonl ~/Pictures | python3 Examples/pipelines/read_jsonl.py
    python3 Examples/pipelines/read_jsonl.py rows-*.jsonl

Checks `schema` first (docs/json.md): a row of a newer schema stops the script with a message
instead of being misread. Keys it does not know are ignored, as the schema promises.
"""
import collections
import json
import sys

SCHEMA = 1


def rows(streams):
    for stream in streams:
        for number, line in enumerate(stream, 1):
            line = line.strip()
            if not line:
                continue
            row = json.loads(line)
            if row.get("schema", 0) > SCHEMA:
                sys.exit(f"{stream.name}:{number}: schema {row['schema']} is newer than {SCHEMA}; update this script")
            yield row


def main():
    streams = [open(p, encoding="utf-8") for p in sys.argv[1:]] or [sys.stdin]
    kinds = collections.Counter()
    sources = collections.Counter()
    errors = 0
    undated = 0
    for row in rows(streams):
        kinds[row["kind"]] += 1
        if "error" in row:
            errors += 1
        captured = row.get("captured")
        if captured is None:
            undated += 1
        else:
            sources[captured["source"]] += 1
    total = sum(kinds.values())
    print(f"{total} files, {errors} unreadable, {undated} without a date")
    for kind, n in kinds.most_common():
        print(f"  kind {kind}: {n}")
    for source, n in sources.most_common():
        print(f"  date from {source}: {n}")


if __name__ == "__main__":
    main()
