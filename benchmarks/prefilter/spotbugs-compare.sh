#!/usr/bin/env bash
# racetriage scan vs SpotBugs' multithreaded-correctness detectors on one release of a real library.
# Downloads the library's -sources.jar and binary jar and SpotBugs from Maven Central into a temporary directory
# (nothing is kept), runs `racetriage scan --format json` on the sources and SpotBugs (only the detectors that report
# MT_CORRECTNESS bugs, only that category reported) on the binary jar, and prints time, lines per second, candidate
# and bug counts, and the overlap of flagged fields.
# The scan runs twice: with the launcher's JVM defaults, and with C1 only (RACETRIAGE_JAVA_OPTS=-XX:TieredStopAtLevel=1),
# which suits a one-shot batch scan (C2 compiling JDT's parser costs more CPU than it saves in a cold JVM).
# Usage (from the repository root): benchmarks/prefilter/spotbugs-compare.sh [GROUP:ARTIFACT:VERSION] [SPOTBUGS_VERSION]
#   default com.google.guava:guava:33.3.1-jre and 4.9.8; KEEP=1 keeps the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
gav=${1:-com.google.guava:guava:33.3.1-jre}
spotbugs_version=${2:-4.9.8}
IFS=: read -r group artifact version <<<"$gav"
work=$(mktemp -d -t spotbugs-compare.XXXXXX)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT

echo "== building racetriage (cli and what it needs)" >&2
mvn -B -q -pl cli -am package -DskipTests

echo "== downloading $gav (sources and binary) and SpotBugs $spotbugs_version" >&2
mvn -B -q dependency:copy -Dartifact="$group:$artifact:$version:jar:sources" -DoutputDirectory="$work" \
  -Dmdep.stripVersion=false
mvn -B -q dependency:copy -Dartifact="$group:$artifact:$version:jar" -DoutputDirectory="$work"
# SpotBugs' own class path, resolved by Maven from a throwaway pom
mkdir -p "$work/spotbugs"
cat >"$work/spotbugs/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>spotbugs-runner</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>com.github.spotbugs</groupId><artifactId>spotbugs</artifactId>
      <version>$spotbugs_version</version></dependency>
  </dependencies>
</project>
EOF
(cd "$work/spotbugs" && mvn -B -q dependency:build-classpath -Dmdep.outputFile="$work/spotbugs/cp.txt")
spotbugs_cp=$(cat "$work/spotbugs/cp.txt")
binary="$work/$artifact-$version.jar"
mkdir -p "$work/src"
unzip -q "$work/$artifact-$version-sources.jar" -d "$work/src"
rm -rf "$work/src/META-INF"
files=$(find "$work/src" -name '*.java' | wc -l)
lines=$(find "$work/src" -name '*.java' -print0 | xargs -0 cat | wc -l)

# the detectors that report some MT_CORRECTNESS pattern, read from SpotBugs' own plugin descriptor
spotbugs_jar=$(tr ':' '\n' <<<"$spotbugs_cp" | grep "/spotbugs-$spotbugs_version.jar$")
unzip -q -o "$spotbugs_jar" findbugs.xml -d "$work/spotbugs"
detectors=$(python3 - "$work/spotbugs/findbugs.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
mt = {b.get('type') for b in root.iter('BugPattern') if b.get('category') == 'MT_CORRECTNESS'}
print(','.join(sorted({d.get('class').split('.')[-1] for d in root.iter('Detector')
                       if set((d.get('reports') or '').split(',')) & mt})))
EOF
)
cat >"$work/mt-filter.xml" <<'EOF'
<FindBugsFilter><Match><Bug category="MT_CORRECTNESS"/></Match></FindBugsFilter>
EOF

echo "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
  "$(java -version 2>&1 | head -1), load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo "library: $gav, $files source files, $lines lines (sources jar, comments included)"

# wall and CPU (user + system, every thread) milliseconds of a command, into $work/$1.time
timed() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$work/$name.time" "$@"
}
wall_ms() { awk '{printf "%d", $1 * 1000}' "$work/$1.time"; }
cpu_ms() { awk '{printf "%d", ($2 + $3) * 1000}' "$work/$1.time"; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 1; }

scan() { # $1: JVM options for the launcher, $2: output name
  RACETRIAGE_SKIP_BUILD=1 RACETRIAGE_JAVA_OPTS="$1" timed "$2" ./racetriage scan "$work/src" --format json \
    >"$work/$2.json" 2>"$work/$2.err"
}
scan "" racetriage
scan "-XX:TieredStopAtLevel=1" racetriage-c1
scan_ms=$(wall_ms racetriage)
scan_c1_ms=$(wall_ms racetriage-c1)

timed spotbugs java -Xmx2g -cp "$spotbugs_cp" edu.umd.cs.findbugs.FindBugs2 -quiet -effort:default \
  -visitors "$detectors" -include "$work/mt-filter.xml" -xml:withMessages -output "$work/spotbugs.xml" "$binary" \
  2>"$work/spotbugs.err" || { echo "SpotBugs failed:" >&2; tail -20 "$work/spotbugs.err" >&2; exit 1; }
spotbugs_ms=$(wall_ms spotbugs)
echo "CPU time (user + system, all threads): racetriage scan $(cpu_ms racetriage) ms, C1 only $(cpu_ms racetriage-c1) ms,"\
  "SpotBugs $(cpu_ms spotbugs) ms; lines per CPU second: racetriage $((lines * 1000 / $(cpu_ms racetriage))),"\
  "C1 only $((lines * 1000 / $(cpu_ms racetriage-c1))), SpotBugs $((lines * 1000 / $(cpu_ms spotbugs)))"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work/racetriage.json" "$work/spotbugs.xml" "$scan_ms" "$spotbugs_ms" "$lines" "$work/racetriage-c1.json" \
  "$scan_c1_ms" <<'EOF'
import json, sys, collections, xml.etree.ElementTree as ET
ours_file, theirs_file, scan_ms, spotbugs_ms, lines = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
c1_file, scan_c1_ms = sys.argv[6], int(sys.argv[7])
report = json.load(open(ours_file))
c1 = json.load(open(c1_file))
assert [c['field'] for c in c1['candidates']] == [c['field'] for c in report['candidates']], 'C1 run differs'

ours = {}
for c in report['candidates']:
    ours.setdefault(c['field'].removesuffix('[]'), c['confidence'])  # array elements count as their field
high = {f for f, conf in ours.items() if conf >= 0.6}
bugs = ET.parse(theirs_file).getroot().findall('BugInstance')
by_type = collections.Counter(b.get('type') for b in bugs)
theirs = collections.defaultdict(set)
for b in bugs:
    for field in b.findall('Field'):
        theirs[field.get('classname') + '.' + field.get('name')].add(b.get('type'))
both = sorted(set(theirs) & set(ours))
only_theirs = sorted(set(theirs) - set(ours))
print(f"racetriage scan: {scan_ms} ms wall (JVM start included; in-process scan {report['stats']['millis']} ms,"
      f" classpath {report['stats'].get('classpath')}), {lines * 1000 // max(scan_ms, 1)} lines/s wall,"
      f" {lines * 1000 // max(report['stats']['millis'], 1)} lines/s in-process;"
      f" {len(report['candidates'])} candidates on {len(ours)} fields, {len(high)} with confidence >= 0.6")
print(f"racetriage scan, C1 only: {scan_c1_ms} ms wall (in-process {c1['stats']['millis']} ms),"
      f" {lines * 1000 // max(scan_c1_ms, 1)} lines/s wall, {lines * 1000 // max(c1['stats']['millis'], 1)} lines/s"
      f" in-process; same candidates")
print(f"SpotBugs MT_CORRECTNESS: {spotbugs_ms} ms wall; {len(bugs)} bugs {dict(by_type)}; {len(theirs)} fields")
print(f"time ratio SpotBugs / racetriage: {spotbugs_ms / max(scan_ms, 1):.2f} (default JVM),"
      f" {spotbugs_ms / max(scan_c1_ms, 1):.2f} (C1 only)")
print(f"fields flagged by racetriage only: {len(set(ours) - set(theirs))}")
print(f"fields flagged by both: {len(both)} of SpotBugs' {len(theirs)}"
      f" ({100 * len(both) // max(len(theirs), 1)}%); of those with confidence >= 0.6: {len(set(both) & high)}")
for f in both:
    print(f"  both: {f} {sorted(theirs[f])} confidence {ours[f]:.2f}")
for f in only_theirs:
    print(f"  SpotBugs only: {f} {sorted(theirs[f])}")
EOF
