#!/usr/bin/env python3
"""Per test class: time without the agent (the triage's baseline) against time under the agent (its detection run),
from a triage's work directory (`racetriage triage … --keep-work`, or the work directory of the last run, which keeps
results-*.jsonl). Issue 18's second criterion: no test class above 6x.

  benchmarks/realworld/class-ratios.py CHECKOUT/.racetriage/work/<module> [--top N] [--min-ms MS]

Reads <module>/baseline/results-*.jsonl and <module>/detect/**/results-*.jsonl (the launcher's per-test events:
"finished" lines with "class" and "millis"); a class counts only tests finished in both. Prints a Markdown table,
worst ratio first, with the totals; classes whose baseline is under --min-ms (default 100 ms) are listed but marked,
their ratio being mostly fixed costs (class loading and instrumentation)."""
import glob
import json
import os
import sys
from collections import defaultdict


def times(paths):
    out = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if e.get("event") == "finished" and e.get("kind", "test") == "test" and "millis" in e:
                    out.setdefault(e["id"], (e.get("class", "?"), e["millis"]))  # the first run of a repeated test
    return out


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    work, top, min_ms = argv[0], 40, 100
    i = 1
    while i < len(argv):
        if argv[i] == "--top":
            top, i = int(argv[i + 1]), i + 2
        elif argv[i] == "--min-ms":
            min_ms, i = int(argv[i + 1]), i + 2
        else:
            print(f"unknown option {argv[i]}", file=sys.stderr)
            return 2
    base = times(glob.glob(os.path.join(work, "baseline", "**", "results-*.jsonl"), recursive=True))
    det = times(glob.glob(os.path.join(work, "detect", "**", "results-*.jsonl"), recursive=True))
    if not base or not det:
        print(f"{work}: no baseline or detection results (results-*.jsonl) there", file=sys.stderr)
        return 1
    per = defaultdict(lambda: [0, 0, 0])
    for tid, (cls, ms) in base.items():
        if tid in det:
            p = per[cls]
            p[0] += ms
            p[1] += det[tid][1]
            p[2] += 1
    rows = sorted(per.items(), key=lambda kv: -(kv[1][1] / max(kv[1][0], 1)))
    tb = sum(p[0] for p in per.values())
    td = sum(p[1] for p in per.values())
    over = [c for c, p in per.items() if p[0] >= min_ms and p[1] > 6 * p[0]]
    print(f"{len(per)} classes, {sum(p[2] for p in per.values())} tests in both runs; total {tb} ms -> {td} ms "
          f"({td / max(tb, 1):.2f}x); classes of at least {min_ms} ms above 6x: {len(over)}")
    print()
    print("| test class | tests | baseline ms | detect ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for cls, (b, d, n) in rows[:top]:
        mark = "" if b >= min_ms else " (under the floor)"
        print(f"| {cls}{mark} | {n} | {b} | {d} | {d / max(b, 1):.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
