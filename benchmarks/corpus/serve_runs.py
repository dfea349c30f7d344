#!/usr/bin/env python3
"""Runs one corpus cell (field, configuration) RUNS times inside one JVM through the launcher's trial server
(`TestLauncherMain --serve`: one `run HEURISTIC SEED` per stdin line, one JSON answer per line on stdout, a fresh
jumble run each time), and prints the same raw.tsv lines as run.sh's one-JVM-per-run mode: field, config, seed,
outcome, reads, staleReads, writes, JVM millis (here: the run's share, the answer's wall time), test millis, and the
agent's locations, maxBufferUncompressed, maxBufferCompressed and removedOldest ("-" when not reported).

A run that does not answer within --timeout seconds is a hang: it counts as a failure, the JVM is killed, and the
remaining seeds go to a fresh JVM; so does a JVM that dies. Standard library only.

    serve_runs.py --field F --config oldest --seeds 1 100 --timeout 60 -- java -javaagent:…=mode=jumble;… -cp … \
        dev.racetriage.launcher.TestLauncherMain --serve --results FILE --select-method T
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time

# JUMBLE Figure 10's counts in the trial server's answer, in raw.tsv's column order after test millis
SIZES = ("locations", "maxBufferUncompressed", "maxBufferCompressed", "removedOldest")


def start(command, log):
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
    return proc


def read_line(proc, deadline):
    """The next stdout line, or None when the deadline passes or the JVM closes stdout."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            line = proc.stdout.readline()
            return line if line else None


def stop(proc):
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--field", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--seeds", nargs=2, type=int, required=True, metavar=("FIRST", "LAST"))
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--log", required=True, help="file for the JVMs' stderr")
    p.add_argument("--noise", action="store_true", help="schedule noise at jumbled accesses ('run H SEED noise')")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    jumble = a.config not in ("no-agent", "detect")
    seeds = list(range(a.seeds[0], a.seeds[1] + 1))
    out = sys.stdout
    with open(a.log, "a") as log:
        while seeds:
            proc = start(command, log)
            hello = read_line(proc, time.monotonic() + max(a.timeout, 120))
            if hello is None or json.loads(hello).get("event") != "ready":
                stop(proc)
                sys.exit(f"serve_runs: the trial server did not start for {a.field} {a.config} (see {a.log})")
            while seeds:
                seed = seeds[0]
                try:
                    proc.stdin.write(f"run {a.config} {seed}{' noise' if a.noise else ''}\n" if jumble else "run\n")
                    proc.stdin.flush()
                except BrokenPipeError:  # the JVM ended after its last answer: the seed did not run yet
                    stop(proc)
                    break
                began = time.monotonic()
                line = read_line(proc, began + a.timeout)
                wall = int(1000 * (time.monotonic() - began))
                seeds.pop(0)
                if line is None:  # hang or crash: a failure, and the JVM cannot be trusted for the next run
                    out.write(f"{a.field}\t{a.config}\t{seed}\tfail\t-\t-\t-\t{wall}\t-" + "\t-" * len(SIZES) + "\n")
                    proc.kill()
                    proc.wait()
                    break
                answer = json.loads(line)
                if answer.get("event") != "run":
                    stop(proc)
                    sys.exit(f"serve_runs: unexpected answer {line.strip()} for {a.field} {a.config}")
                fields = [f for f in answer.get("fields", []) if f["field"] == a.field]
                reads = stale = writes = "-"
                sizes = ["-"] * len(SIZES)
                if fields:
                    reads, stale, writes = fields[0]["reads"], fields[0]["staleReads"], fields[0]["writes"]
                    sizes = [fields[0].get(k, "-") for k in SIZES]
                outcome = "pass" if answer["status"] == "passed" else "fail"
                out.write(f"{a.field}\t{a.config}\t{seed}\t{outcome}\t{reads}\t{stale}\t{writes}\t{wall}\t"
                          f"{answer.get('millis', '-')}\t" + "\t".join(str(v) for v in sizes) + "\n")
                out.flush()
                if answer.get("threadsLeft"):
                    # leftover threads would run into the next run: start a fresh JVM for the rest
                    stop(proc)
                    break
            else:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                stop(proc)


if __name__ == "__main__":
    main()
