#!/usr/bin/env python3
"""Reads a file the way a Parquet reader reads a columnar file, for `readscope-cli record`.

The file is taken as a Parquet-like layout fixed by a seed: row groups of uneven sizes, each
holding the column chunks of 12 columns of uneven sizes, and a footer of metadata at the end.
The reader does what Arrow's and DuckDB's readers do for a query that projects 4 of 12 columns:
  1. the last 8 bytes (the footer's length and the magic), then the footer itself;
  2. per row group, the chosen columns' chunks, in file order; neighbouring chunks whose gap is
     at most 8 KiB are read as one range (Arrow's hole_size_limit), others on their own.
Every read is an os.pread of exactly the range, so the trace holds the reader's own ranges.

    python3 columnar_reader.py FILE [--print]

--print lists the ranges instead of reading them. Any file of at least 24 MiB will do
(`readscope-cli generate data.bin --size 24M`); the layout is laid over its first 24 MiB.
"""
import os
import random
import sys

LAYOUT_BYTES = 24 << 20
COLUMNS = 12
PROJECTED = (0, 3, 4, 9)  # the query's columns
HOLE_LIMIT = 8 << 10


def layout():
    rng = random.Random(20261207)
    footer = 38_211
    body = LAYOUT_BYTES - footer - 8 - 4  # "PAR1" at the start
    weights = [rng.uniform(0.6, 1.4) for _ in range(12)]  # twelve row groups of uneven sizes
    groups = []
    at = 4
    for w in weights:
        size = int(body * w / sum(weights))
        col_w = [rng.uniform(0.05, 1.0) ** 2 for _ in range(COLUMNS)]  # skewed: ids vs text
        chunks = []
        for c in col_w:
            n = max(3 << 10, int(size * c / sum(col_w)))
            chunks.append((at, n))
            at += n
        groups.append(chunks)
    return groups, LAYOUT_BYTES - 8 - footer, footer


def ranges(file_size):
    groups, footer_at, footer = layout()
    base = file_size - LAYOUT_BYTES  # the layout ends where the file does
    out = [(file_size - 8, 8), (base + footer_at, footer)]
    for chunks in groups:
        wanted = [chunks[c] for c in PROJECTED]
        merged = [list(wanted[0])]
        for off, n in wanted[1:]:
            last = merged[-1]
            if off - (last[0] + last[1]) <= HOLE_LIMIT:
                last[1] = off + n - last[0]
            else:
                merged.append([off, n])
        out += [(base + off, n) for off, n in merged]
    return out


def main():
    path = sys.argv[1]
    size = os.path.getsize(path)
    if size < LAYOUT_BYTES:
        sys.exit(f"{path}: {size} bytes; the layout needs at least {LAYOUT_BYTES}")
    if "--print" in sys.argv:
        for off, n in ranges(size):
            print(f"{off},{n}")
        return
    fd = os.open(path, os.O_RDONLY)
    for off, n in ranges(size):
        data = os.pread(fd, n, off)
        assert len(data) == n
    os.close(fd)


if __name__ == "__main__":
    main()
