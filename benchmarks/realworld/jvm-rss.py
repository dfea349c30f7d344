#!/usr/bin/env python3
"""Peak RSS of each test JVM racetriage starts, sampled from /proc while a run goes on (Linux only).

Usage: jvm-rss.py OUT_JSON [INTERVAL_SECONDS]

Until it gets SIGTERM or SIGINT, every INTERVAL seconds (default 0.2) it reads the kernel's high-water mark
(VmHWM in /proc/PID/status) of every process running racetriage's launcher (dev.racetriage.launcher.TestLauncherMain)
and keeps the largest per process. A process's kind comes from its command line: "detect" (the agent in detect mode),
"trial" (the agent in any other mode) or "baseline" (no agent); its -Xmx, if any, is kept too. On exit it writes
OUT_JSON: {"jvms": [{"pid", "kind", "peakKb", "xmx"}...], "peakKb": {kind: largest peak}}. VmHWM is the process's own
peak, so a sample late in its life sees growth that happened between samples; only the growth in its last interval
before it exits can be missed.
"""
import json
import os
import signal
import sys
import time

LAUNCHER = b"dev.racetriage.launcher.TestLauncherMain"


def kind_of(args):
    agent = [a for a in args if a.startswith(b"-javaagent:") and b"racetriage-agent" in a]
    if not agent:
        return "baseline"
    return "detect" if b"mode=detect" in agent[0] else "trial"


def sample(seen):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
            if LAUNCHER not in args:
                continue
            with open(f"/proc/{pid}/status") as f:
                hwm = next((int(l.split()[1]) for l in f if l.startswith("VmHWM:")), 0)
            with open(f"/proc/{pid}/stat") as f:
                started = f.read().rsplit(")", 1)[1].split()[19]  # a reused pid is another process
        except (OSError, ValueError):
            continue  # gone between the listing and the reads
        xmx = next((a.decode()[4:] for a in reversed(args) if a.startswith(b"-Xmx")), None)
        entry = seen.setdefault((pid, started), {"pid": int(pid), "kind": kind_of(args), "peakKb": 0, "xmx": xmx})
        entry["peakKb"] = max(entry["peakKb"], hwm)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    interval = float(sys.argv[2]) if len(sys.argv) == 3 else 0.2
    seen = {}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    while not stop:
        sample(seen)
        time.sleep(interval)
    sample(seen)
    jvms = list(seen.values())
    peaks = {}
    for e in jvms:
        peaks[e["kind"]] = max(peaks.get(e["kind"], 0), e["peakKb"])
    with open(out, "w") as f:
        json.dump({"jvms": jvms, "peakKb": peaks}, f, indent=1)


if __name__ == "__main__":
    main()
