#!/usr/bin/env python3
"""Event sizes of recorded LLM streams, per dialect, as the quantile tables
the framing bench draws its event sizes from (`benches/support/varied.rs`).

    tools/corpus-event-sizes.py [CORPUS_DIR]     default: ../shared/corpus

A corpus file is one recorded response body, `<source>-<dialect>-<what>.sse`.
An event is a block with at least one `data:` line (comment-only blocks are
not events); its size is its bytes on the wire, blank line included, with CRLF
counted as LF. Events are pooled per dialect, but a recording counts as at
most CAP events (each of the events of a longer one weighs CAP / its event
count), so that one long recording does not stand for the dialect, while the
delta events that make up most of every real stream keep their share (giving
every recording the same weight instead would let the few large lifecycle
events of short recordings outweigh them). Prints, per dialect, the number of recordings and events, a
histogram, and the weighted quantiles at the probabilities of `PROBS` as a
Rust table.
"""

import collections
import math
import glob
import os
import sys

PROBS = [0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50,
         0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.97, 0.98, 0.99,
         0.995, 0.998, 0.999, 1.0]
CAP = 200
EDGES = [64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536, 1 << 30]


def events(path):
    raw = open(path, "rb").read().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    for block in raw.split(b"\n\n"):
        lines = block.split(b"\n")
        if any(l.startswith(b"data") for l in lines):
            yield len(block) + 2, sum(1 for b in block if b >= 0x80)


def quantile(pairs, p):
    """The smallest size whose cumulative weight reaches p (pairs sorted)."""
    total = sum(w for _, w in pairs)
    acc = 0.0
    for size, w in pairs:
        acc += w
        if acc >= p * total - 1e-12:
            return size
    return pairs[-1][0]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "shared", "corpus")
    by = collections.defaultdict(list)  # dialect -> [(size, weight)]
    files = collections.Counter()
    high = collections.Counter()
    total = collections.Counter()
    for path in sorted(glob.glob(os.path.join(corpus, "*.sse"))):
        dialect = os.path.basename(path).split("-")[1]
        evs = list(events(path))
        if not evs:
            continue
        files[dialect] += 1
        for size, non_ascii in evs:
            by[dialect].append((size, min(1.0, CAP / len(evs))))
            high[dialect] += non_ascii
            total[dialect] += size
    for dialect in sorted(by):
        pairs = sorted(by[dialect])
        print(f"## {dialect}: {files[dialect]} recordings, {len(pairs)} events, "
              f"{100.0 * high[dialect] / total[dialect]:.2f}% of bytes >= 0x80")
        lo = 0
        w_all = sum(w for _, w in pairs)
        for hi in EDGES:
            w = sum(w for s, w in pairs if lo < s <= hi)
            print(f"  {lo + 1:>6}..{hi if hi < 1 << 30 else '':<6} {100 * w / w_all:6.2f}%")
            lo = hi
        q = [quantile(pairs, p) for p in PROBS]
        mean = sum(s * w for s, w in pairs) / w_all
        # The mean of sizes drawn from the table as the bench draws them
        # (log-linear between neighbouring quantiles).
        drawn = 0.0
        for i in range(len(PROBS) - 1):
            q0, q1 = q[i], q[i + 1]
            seg = q0 if q0 == q1 else (q1 - q0) / math.log(q1 / q0)
            drawn += (PROBS[i + 1] - PROBS[i]) * seg
        print(f"  mean event size {mean:.0f} bytes; drawn from the table {drawn:.0f}")
        print(f"const {dialect.upper()}_SIZES: [u32; {len(q)}] = {q};\n")


if __name__ == "__main__":
    main()
