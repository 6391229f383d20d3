#!/usr/bin/env python3
"""Apache Spark: `photometa inspect --jsonl` over a list of paths with RDD.pipe, in local mode.

    spark_inspect.py PHOTOMETA LIST_FILE OUT_FILE [PARTITIONS]

Each partition's paths go to one `photometa inspect --files-from - --jsonl --keep-going -q`
process on its standard input; its rows come back on standard output. `--keep-going` matters:
RDD.pipe fails the whole partition on a non-zero exit, and one unreadable file (which has its
own row, with `error`) must not do that. Rows are parsed, checked for `schema`, sorted by path
and written to OUT_FILE as JSONL, so a run on a cluster and a plain run compare line by line.
"""
import json
import shlex
import sys

from pyspark.sql import SparkSession


def main():
    binary, list_file, out_file = sys.argv[1:4]
    partitions = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    spark = SparkSession.builder.master(f"local[{partitions}]").appName("photometa-inspect").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    with open(list_file, encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    # RDD.pipe takes one command string (split with shlex), so the binary's path is quoted.
    command = " ".join(shlex.quote(a) for a in [binary, "inspect", "--files-from", "-", "--jsonl", "--keep-going", "-q"])
    rows = (
        sc.parallelize(paths, partitions)
        .pipe(command, env={"TZ": "UTC"})
        .map(json.loads)
        .collect()
    )
    spark.stop()
    for row in rows:
        if row.get("schema") != 1:
            sys.exit(f"unexpected schema in {row.get('path')}: {row.get('schema')}")
    rows.sort(key=lambda r: r["path"].encode("utf-8"))
    with open(out_file, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"spark: {len(rows)} rows from {len(paths)} paths in {partitions} partitions -> {out_file}")


if __name__ == "__main__":
    main()
