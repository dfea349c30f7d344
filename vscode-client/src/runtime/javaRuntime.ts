import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The oldest Java that runs the racetriage server (the project is built with release 17). */
export const MINIMUM_JAVA = 17;

/** Where a Java runtime came from, in the order they are tried. */
export type JavaSource = 'racetriage.java.home' | 'JAVA_HOME' | 'PATH';

export interface JavaRuntime {
  readonly source: JavaSource;
  /** The JDK/JRE home, when it could be told (a `java` on PATH is followed through symbolic links to find it). */
  readonly home: string | undefined;
  readonly executable: string;
  readonly version: number;
}

/** Why one candidate was not used. */
export interface Rejection {
  readonly source: JavaSource;
  readonly location: string;
  readonly kind: 'missing' | 'too-old' | 'broken';
  readonly detail: string;
}

export type Discovery =
  | { readonly ok: true; readonly runtime: JavaRuntime; readonly rejected: readonly Rejection[] }
  | { readonly ok: false; readonly rejected: readonly Rejection[]; readonly message: string };

export interface VersionProbeResult {
  readonly exitCode: number | null;
  readonly output: string;
  readonly error?: string;
}

export interface DiscoveryOptions {
  /** The `racetriage.java.home` setting: a Java home, or the `java` executable itself. */
  readonly configuredHome?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /** Runs `java -version`; replaceable so that callers can bound or log it. */
  readonly probe?: (executable: string) => Promise<VersionProbeResult>;
}

/**
 * Finds a Java 17+ runtime: the setting, then JAVA_HOME, then PATH. A configured setting is the user's explicit choice,
 * so when it is unusable that is the answer (no silent fallback to another Java); JAVA_HOME and PATH are tried in turn
 * and the first usable one wins.
 */
export async function discoverJava(options: DiscoveryOptions): Promise<Discovery> {
  const probe = options.probe ?? runJavaVersion;
  const rejected: Rejection[] = [];
  const configured = options.configuredHome?.trim();
  const candidates: Array<{ source: JavaSource; location: string }> = [];
  if (configured) {
    candidates.push({ source: 'racetriage.java.home', location: configured });
  } else {
    const javaHome = options.env.JAVA_HOME?.trim();
    if (javaHome) {
      candidates.push({ source: 'JAVA_HOME', location: javaHome });
    }
    const onPath = findOnPath(options.env, options.platform);
    if (onPath) {
      candidates.push({ source: 'PATH', location: onPath });
    }
  }
  for (const candidate of candidates) {
    const result = await examine(candidate.source, candidate.location, options.platform, probe);
    if ('executable' in result) {
      return { ok: true, runtime: result, rejected };
    }
    rejected.push(result);
  }
  return { ok: false, rejected, message: failureMessage(rejected, Boolean(configured)) };
}

async function examine(source: JavaSource, location: string, platform: NodeJS.Platform,
    probe: (executable: string) => Promise<VersionProbeResult>): Promise<JavaRuntime | Rejection> {
  const located = locateExecutable(location, platform);
  if (!located) {
    return { source, location, kind: 'missing',
      detail: `${location} is neither a Java home (with ${binJava(platform)}) nor a java executable` };
  }
  const released = located.home ? releaseVersion(located.home) : undefined;
  if (released !== undefined && released < MINIMUM_JAVA) {
    // the release file is enough to say no; no need to start that JVM
    return { source, location, kind: 'too-old', detail: `Java ${released} (from ${path.join(located.home!, 'release')})` };
  }
  const run = await probe(located.executable);
  if (run.error !== undefined || run.exitCode !== 0) {
    const why = run.error ?? `exit code ${run.exitCode}`;
    return { source, location, kind: 'broken',
      detail: `'${located.executable} -version' failed (${why})${lastLines(run.output)}` };
  }
  const version = parseJavaVersionOutput(run.output) ?? released;
  if (version === undefined) {
    return { source, location, kind: 'broken',
      detail: `'${located.executable} -version' printed no version we could read${lastLines(run.output)}` };
  }
  if (version < MINIMUM_JAVA) {
    return { source, location, kind: 'too-old', detail: `Java ${version} (from '${located.executable} -version')` };
  }
  return { source, home: located.home, executable: located.executable, version };
}

function binJava(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'bin\\java.exe' : 'bin/java';
}

/** A Java home, or the path of a java executable (whose home is two levels up when it sits in `bin`). */
function locateExecutable(location: string, platform: NodeJS.Platform): { executable: string; home?: string } | undefined {
  const stat = statOrUndefined(location);
  if (stat?.isDirectory()) {
    const executable = path.join(location, 'bin', platform === 'win32' ? 'java.exe' : 'java');
    return isFile(executable) ? { executable, home: location } : undefined;
  }
  if (stat?.isFile()) {
    return { executable: location, home: homeOfExecutable(location) };
  }
  return undefined;
}

function homeOfExecutable(executable: string): string | undefined {
  let real = executable;
  try {
    // /usr/bin/java is usually a chain of links to <jdk>/bin/java; the home is where the chain ends
    real = fs.realpathSync(executable);
  } catch {
    return undefined;
  }
  const bin = path.dirname(real);
  return path.basename(bin) === 'bin' ? path.dirname(bin) : undefined;
}

/** The first `java` on PATH (`java.exe` on Windows, where the variable may be spelled `Path`). */
export function findOnPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const value = env.PATH ?? env.Path ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  const name = platform === 'win32' ? 'java.exe' : 'java';
  for (const dir of value.split(delimiter)) {
    if (!dir) {
      continue;
    }
    const candidate = path.join(dir.replace(/^"(.*)"$/, '$1'), name);
    if (isFile(candidate) && (platform === 'win32' || isExecutable(candidate))) {
      return candidate;
    }
  }
  return undefined;
}

/** The major version in a Java home's `release` file (`JAVA_VERSION="17.0.2"`, `"11"`, `"1.8.0_292"`). */
export function releaseVersion(home: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(home, 'release'), 'utf8');
  } catch {
    return undefined;
  }
  const match = /^JAVA_VERSION="?([^"\r\n]+)"?/m.exec(text);
  return match ? majorOf(match[1]) : undefined;
}

/** The major version in what `java -version` prints (`openjdk version "21.0.1"`, `java version "1.8.0_392"`). */
export function parseJavaVersionOutput(output: string): number | undefined {
  const quoted = /version "([^"]+)"/.exec(output);
  if (quoted) {
    return majorOf(quoted[1]);
  }
  // `java --version` style, and some vendors: "openjdk 17.0.2 2022-01-18"
  const bare = /^(?:openjdk|java)\s+(\d[\w.+-]*)/m.exec(output);
  return bare ? majorOf(bare[1]) : undefined;
}

function majorOf(version: string): number | undefined {
  const match = /^(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!match) {
    return undefined;
  }
  const first = Number(match[1]);
  // before Java 9 the version was 1.x
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/** Runs `java -version` with a time limit: a JVM that hangs counts as broken, not as a stuck extension. */
export function runJavaVersion(executable: string, timeoutMs = 15000): Promise<VersionProbeResult> {
  return new Promise((resolve) => {
    execFile(executable, ['-version'], { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      const output = `${stderr ?? ''}${stdout ?? ''}`;
      if (error && typeof error.code === 'number') {
        resolve({ exitCode: error.code, output });
      } else if (error) {
        resolve({ exitCode: null, output, error: error.killed ? `no answer within ${timeoutMs / 1000} s` : error.message });
      } else {
        resolve({ exitCode: 0, output });
      }
    });
  });
}

function failureMessage(rejected: readonly Rejection[], configured: boolean): string {
  const fix = `Install a JDK ${MINIMUM_JAVA} or newer and set racetriage.java.home to its folder (or JAVA_HOME).`;
  if (rejected.length === 0) {
    return `racetriage needs Java ${MINIMUM_JAVA} or newer to run its language server, and found none: `
      + `racetriage.java.home is not set, JAVA_HOME is not set and there is no java on PATH. ${fix}`;
  }
  const reasons = rejected.map((r) => `${r.source} (${r.location}): ${describe(r)}`).join('; ');
  const head = configured
    ? `racetriage cannot use the Java in racetriage.java.home: ${reasons}.`
    : `racetriage needs Java ${MINIMUM_JAVA} or newer and found no usable one: ${reasons}.`;
  return `${head} ${fix}`;
}

function describe(rejection: Rejection): string {
  switch (rejection.kind) {
    case 'missing':
      return `not found — ${rejection.detail}`;
    case 'too-old':
      return `${rejection.detail} is older than Java ${MINIMUM_JAVA}`;
    case 'broken':
      return `does not run — ${rejection.detail}`;
  }
}

function lastLines(output: string): string {
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  return lines.length === 0 ? '' : `: ${lines.slice(-2).join(' / ')}`;
}

function statOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

function isFile(p: string): boolean {
  return statOrUndefined(p)?.isFile() ?? false;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
