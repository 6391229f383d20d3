#!/usr/bin/env python3
"""Compares two JSONL files of photometa rows as sets of rows (each normalised with sorted keys),
ignoring order: `compare.py A B` exits 0 and prints the count when they hold the same rows."""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return sorted(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False) for line in f if line.strip())


a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    missing = set(a) - set(b)
    extra = set(b) - set(a)
    print(f"DIFFERENT: {len(a)} vs {len(b)} rows; {len(missing)} only in {sys.argv[1]}, {len(extra)} only in {sys.argv[2]}")
    for row in sorted(missing)[:3] + sorted(extra)[:3]:
        print("  " + row[:200])
    sys.exit(1)
print(f"same {len(a)} rows")
