#!/usr/bin/env python3
"""Turns the corpus runs (raw.tsv), the table of expected verdicts and a `racetriage triage --format json` report
into the markdown tables of benchmarks/RESULTS.md: observation rates per field and configuration with the verdict
and whether it is accepted, the JUMBLE Figure 10 cost columns, detection and prefilter precision/recall, and how
the issue's targets came out. Used by benchmarks/corpus/run.sh; standard library only."""
import argparse
import json
import statistics
from collections import defaultdict

ADVERSARIAL = ["oldest", "oldest-but-different", "random", "random-but-different"]

# The JUMBLE paper's figures for the corpus fields that reproduce one of its rows (Flanagan & Freund, Figures 9, 10).
# Figure 9: observation rate % under no jumble / sc / oldest / oldest-but-different / random / random-but-different.
PAPER_FIG9 = {
    "dev.racetriage.corpus.RacyInitLoop.x": "0 / 0 / 0 / 83 / 84 / 92",
    "dev.racetriage.corpus.Point.p": "0 / 0 / 0 / 0 / 0 / 0",
    "dev.racetriage.corpus.Point.x": "0 / 0 / 60 / 52 / 32 / 30",
    "dev.racetriage.corpus.Point.y": "0 / 0 / 48 / 53 / 27 / 30",
    "dev.racetriage.corpus.DebugSwitch.verbose": "0 / 0 / 0 / 0 / 0 / 0 (montecarlo)",
    "dev.racetriage.corpus.Renderer.threadCount": "0 / 0 / 0 / 0 / 0 / 0 (mtrt)",
    "dev.racetriage.corpus.TspSolver.minTourLen": "0 / 0 / 100 / 100 / 100 / 100, QoS (tsp)",
    "dev.racetriage.corpus.HaloRelaxation.halo[]": "0 / 0 / 100 / 100 / 100 / 100 (sor, [0] and [1])",
    "dev.racetriage.corpus.HaloRelaxation.sync[]": "0 / 0 / 100 / 100 / 100 / 100 (sor, [0] and [1])",
}
# Figure 10: slowdown under RoadRunner's Empty checker and under JUMBLE (sc), instances, writes, max buffer no comp. /
# with comp.
PAPER_FIG10 = {
    "dev.racetriage.corpus.DebugSwitch.verbose": "montecarlo: 1.2× / 1.2×, 1 instance, 40,005 writes, buffer 40,005 / 5",
    "dev.racetriage.corpus.Renderer.threadCount": "mtrt: 4.5× / 4.9×, 1 instance, 10 writes, buffer 10 / 5",
    "dev.racetriage.corpus.TspSolver.minTourLen": "tsp: 2.3× / 4.0×, 1 instance, 26 writes, buffer 26 / 23",
    "dev.racetriage.corpus.HaloRelaxation.halo[]": "sor: 3.9× / 5.8×, 2,106 instances, 104,620 writes, buffer 255 / 32",
    "dev.racetriage.corpus.HaloRelaxation.sync[]": "sor: 3.9× / 5.8×, 2,106 instances, 104,620 writes, buffer 255 / 32",
}


def short(field):
    return field.split(".corpus.", 1)[-1]


def read_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            field, expected, acceptable, test, source, why = line.rstrip("\n").split("\t")
            rows.append(dict(field=field, expected=expected, acceptable=acceptable.split(","), test=test,
                             source=source, why=why))
    return rows


def read_raw(path):
    runs = defaultdict(list)  # (field, config) -> [run]
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 9:
                continue
            field, config, seed, outcome, reads, stale, writes, jvm_ms, test_ms = parts[:9]
            # JUMBLE Figure 10's counts, when the agent reported them (older raw files stop at test millis)
            locations, nocomp, comp, removed = (parts[9:13] + ["-"] * 4)[:4]
            num = lambda s: None if s in ("-", "") else int(s)
            runs[(field, config)].append(dict(fail=outcome == "fail", reads=num(reads), stale=num(stale),
                                              writes=num(writes), jvm_ms=num(jvm_ms), test_ms=num(test_ms),
                                              locations=num(locations), nocomp=num(nocomp), comp=num(comp),
                                              removed=num(removed)))
    return runs


def rate_cell(runs, config):
    if not runs:
        return "–"
    n = len(runs)
    failed = sum(r["fail"] for r in runs)
    cell = f"{round(100 * failed / n)} % of {n}"
    if config not in ("no-agent", "detect"):
        stale = sum(1 for r in runs if (r["stale"] or 0) > 0)
        cell += f" (stale {stale})"
    return cell


def rate(runs):
    return 100 * sum(r["fail"] for r in runs) / len(runs) if runs else None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_ms(v):
    return "–" if v is None else f"{v:,.0f}"


def largest(values):
    values = [v for v in values if v is not None]
    return max(values) if values else None


def fmt_ratio(a, b):
    return "–" if a is None or not b else f"{a / b:.2f}×"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", required=True)
    p.add_argument("--raw", required=True)
    p.add_argument("--configs", required=True)
    p.add_argument("--cost", help="raw lines of the fresh-JVM cost runs (no-agent, detect, sc)")
    p.add_argument("--mode", default="fork", help="serve (in-JVM repeats) or fork (a JVM per run)")
    p.add_argument("--triage")
    a = p.parse_args()
    rows = read_rows(a.rows)
    runs = read_raw(a.raw)
    cost = read_raw(a.cost) if a.cost else runs
    configs = a.configs.split()
    rate_configs = [c for c in configs if c != "detect"]

    triage = None
    if a.triage:
        with open(a.triage) as f:
            triage = json.load(f)
    verdicts = {r["field"]: r for r in triage["races"]} if triage else {}

    out = []
    out.append("### Observation rate per field and configuration, verdict reached")
    out.append("")
    how = ("all runs of a cell in one JVM through the launcher's trial server, a fresh jumble run (new buffers, that "
           "seed) per run" if a.mode == "serve" else "a fresh JVM per run")
    out.append("Cells: percent of runs whose test failed, of how many runs (" + how + "; seed = run number); in "
               "brackets, runs in which the agent served at least one stale value. *best*: the highest rate among the "
               "adversarial heuristics. *verdict*: what `racetriage triage benchmarks/corpus` concluded; *ok* when "
               "the table accepts it.")
    out.append("")
    head = ["field", "source", "expected"] + rate_configs + ["best", "verdict", "ok", "paper (Fig. 9)"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + " --- |" * len(head))
    summary = dict(destructive=0, destructive_90=0, benign_failed=[], verdict_ok=0, verdict_total=0, no_agent_failed=[],
                   sc_failed=[])
    for row in rows:
        f = row["field"]
        cells = [f"`{short(f)}`", row["source"], row["expected"]]
        for c in rate_configs:
            cells.append(rate_cell(runs.get((f, c), []), c))
        rates = {c: rate(runs.get((f, c), [])) for c in ADVERSARIAL}
        measured = {c: r for c, r in rates.items() if r is not None}
        best = max(measured.items(), key=lambda kv: kv[1]) if measured else None
        cells.append(f"{best[1]:.0f} % ({best[0]})" if best else "–")
        if row["expected"] == "destructive" and best:
            summary["destructive"] += 1
            if best[1] >= 90:
                summary["destructive_90"] += 1
        if row["expected"] != "destructive":
            for c in ["sc"] + ADVERSARIAL:
                r = rate(runs.get((f, c), []))
                if r:
                    summary["benign_failed"].append(f"{short(f)} under {c} ({r:.0f} %)")
        if rate(runs.get((f, "no-agent"), [])):
            summary["no_agent_failed"].append(short(f))
        if row["expected"] == "destructive" and rate(runs.get((f, "sc"), [])):
            summary["sc_failed"].append(short(f))
        if triage is not None:
            v = verdicts.get(f)
            verdict = v["verdict"] if v else "not detected"
            ok = verdict in row["acceptable"]
            summary["verdict_total"] += 1
            summary["verdict_ok"] += ok
            cells += [verdict, "yes" if ok else "**no**"]
        else:
            cells += ["–", "–"]
        cells.append(PAPER_FIG9.get(f, ""))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")

    if triage is not None:
        expected_fields = {r["field"] for r in rows}
        extra = [r for r in triage["races"] if r["field"] not in expected_fields]
        out.append("Races racetriage detected that the table does not list (false races, or a table to extend): "
                   + (", ".join(f"`{r['field']}` ({r['verdict']})" for r in extra) if extra else "none") + ".")
        out.append("")
        out.append("Evidence of every verdict (from the triage report):")
        out.append("")
        out.append("| field | verdict | evidence |")
        out.append("| --- | --- | --- |")
        for row in rows:
            v = verdicts.get(row["field"])
            if v:
                out.append(f"| `{short(row['field'])}` | {v['verdict']} | {v['evidence']['summary']} |")
        out.append("")
        stats = triage.get("stats", {})
        # `trials` counts runs; `trialJvms` the JVMs they ran in (the trial server repeats a test in one JVM)
        out.append(f"Triage cost: {stats.get('elapsedMillis', 0) / 1000:.0f} s in all, {stats.get('trials', '?')} trial "
                   f"runs in {stats.get('trialJvms', '?')} JVMs ({stats.get('trialMillis', 0) / 1000:.0f} s of trials, "
                   f"build {stats.get('buildMillis', 0) / 1000:.1f} s, baseline {stats.get('baselineMillis', 0) / 1000:.1f} s, "
                   f"detection {stats.get('detectMillis', 0) / 1000:.1f} s in {stats.get('detectRuns', 1)} run(s), "
                   f"races only a repeat found: {', '.join(short(f) for f in stats.get('lateRaces', [])) or 'none'}).")
        out.append("")
        # detection precision on the corpus and the static prefilter against what the agent detected
        detected = {r["field"] for r in triage["races"]}
        listed = expected_fields
        candidates = {c["field"] for c in triage.get("candidates", [])}
        tp = len(detected & listed)
        out.append(f"Detection against the table: {tp} of {len(listed)} listed racy fields detected, "
                   f"{len(detected - listed)} detected fields not listed.")
        if candidates:
            hit = len(candidates & detected)
            out.append(f"Static prefilter against the races the agent detected: {len(candidates)} candidates, "
                       f"{hit} of them raced (precision {100 * hit / len(candidates):.0f} %); "
                       f"{hit} of {len(detected)} detected races were candidates (recall "
                       f"{100 * hit / max(1, len(detected)):.0f} %). Missed: "
                       + (", ".join(f"`{short(f)}`" for f in sorted(detected - candidates)) or "none") + ".")
        out.append("")

    if any(k[1] in ("no-agent", "detect", "sc") for k in cost):
        out.append("### Cost per field (JUMBLE Figure 10 columns)")
        out.append("")
        out.append(f"Medians over fresh JVMs (the cost runs: {max((len(v) for v in cost.values()), default=0)} per "
                   "configuration). *test*: the JUnit test's own time as the launcher measured it; *JVM*: "
                   "the whole JVM (start-up, instrumentation, report). Slowdowns are to the no-agent medians; jumble "
                   "is the `sc` configuration, as in the paper. *instances*, *writes*, *reads*: locations of the field "
                   "that got a write buffer, buffered writes and reads per run (medians; the paper's Num. Instances "
                   "and Num. Writes). *max buffer*: the largest write buffer of any location of the field, largest over "
                   "the runs, without compression (the initial entry plus every write to that location, as if GC1, "
                   "GC2 and REMOVE OLDEST never applied) / with compression (what the buffer held after GC1 and GC2, "
                   "at most the bound 32; a `†` when REMOVE OLDEST had to drop entries) — the paper's last two columns.")
        out.append("")
        out.append("| field | base test ms | base JVM ms | detect slowdown (test / JVM) | jumble sc slowdown (test / JVM) | instances | writes | reads | max buffer (no comp. / with comp.) | paper (Fig. 10: Empty / Jumble) |")
        out.append("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | --- |")
        for row in rows:
            f = row["field"]
            base = cost.get((f, "no-agent"), [])
            det = cost.get((f, "detect"), [])
            sc = cost.get((f, "sc"), [])
            bt, bj = median([r["test_ms"] for r in base]), median([r["jvm_ms"] for r in base])
            dt, dj = median([r["test_ms"] for r in det]), median([r["jvm_ms"] for r in det])
            st, sj = median([r["test_ms"] for r in sc]), median([r["jvm_ms"] for r in sc])
            nocomp, comp = largest([r["nocomp"] for r in sc]), largest([r["comp"] for r in sc])
            removed = largest([r["removed"] for r in sc])
            sizes = "–" if comp is None else f"{fmt_ms(nocomp)} / {fmt_ms(comp)}{' †' if removed else ''}"
            out.append(f"| `{short(f)}` | {fmt_ms(bt)} | {fmt_ms(bj)} | {fmt_ratio(dt, bt)} / {fmt_ratio(dj, bj)} | "
                       f"{fmt_ratio(st, bt)} / {fmt_ratio(sj, bj)} | {fmt_ms(median([r['locations'] for r in sc]))} | "
                       f"{fmt_ms(median([r['writes'] for r in sc]))} | {fmt_ms(median([r['reads'] for r in sc]))} | "
                       f"{sizes} | {PAPER_FIG10.get(f, '')} |")
        out.append("")

    out.append("### Against the issue's targets")
    out.append("")
    out.append(f"- Destructive races exposed in ≥ 90 % of runs by the best heuristic: {summary['destructive_90']} of "
               f"{summary['destructive']} measured.")
    out.append("- Benign/qos races that ever failed (a false destructive observation): "
               + (", ".join(summary["benign_failed"]) or "none") + ".")
    out.append("- Failures without the agent: " + (", ".join(summary["no_agent_failed"]) or "none")
               + "; destructive races failing under `sc`: " + (", ".join(summary["sc_failed"]) or "none") + ".")
    if triage is not None:
        out.append(f"- Verdicts accepted by the table: {summary['verdict_ok']} of {summary['verdict_total']}.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
