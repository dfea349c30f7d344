# Sourced by the jumble benchmarks: sets AGENT, CP (examples' test classpath + JUnit launcher + racetriage launcher
# + agent) and JAVA_OPTS for JVMs that run examples/racy-shapes tests through dev.racetriage.launcher.TestLauncherMain.
# Needs ROOT and OUT; the agent and launcher jars built in this checkout (or AGENT=jar).
AGENT="${AGENT:-$(ls "$ROOT"/dynamic-runner/agent/target/racetriage-agent-*.jar | grep -v original | head -1)}"
LAUNCHER="$(ls "$ROOT"/dynamic-runner/launcher/target/racetriage-launcher-*.jar | head -1)"
EXAMPLES="$ROOT/examples/racy-shapes"
# short-lived JVMs: C1 only and the serial collector halve the CPU per run (the machine is shared); override to compare
JAVA_OPTS="${JAVA_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
mkdir -p "$OUT"
(cd "$EXAMPLES" && mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile="$OUT/deps.txt" >/dev/null)
PLATFORM_VERSION="$(tr ':' '\n' < "$OUT/deps.txt" | sed -n 's#.*/junit-platform-engine/\([^/]*\)/.*#\1#p' | head -1)"
LAUNCHER_API="$HOME/.m2/repository/org/junit/platform/junit-platform-launcher/$PLATFORM_VERSION/junit-platform-launcher-$PLATFORM_VERSION.jar"
[ -f "$LAUNCHER_API" ] || { echo "missing $LAUNCHER_API: run 'mvn dependency:get -Dartifact=org.junit.platform:junit-platform-launcher:$PLATFORM_VERSION'" >&2; exit 1; }
# the launcher uses the agent's JSON writer, so the agent jar is on the class path as the runner puts it there
CP="$EXAMPLES/target/test-classes:$EXAMPLES/target/classes:$(cat "$OUT/deps.txt"):$LAUNCHER_API:$LAUNCHER:$AGENT"
