import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A fresh temporary directory, removed when the test process ends. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `racetriage-vscode-${prefix}-`));
  made.push(dir);
  return dir;
}

export interface FakeJdk {
  /** JAVA_VERSION in the `release` file; no file when undefined. */
  readonly release?: string;
  /** What `java -version` prints on stderr. */
  readonly prints?: string;
  /** `java`'s exit code. */
  readonly exitCode?: number;
}

/**
 * A directory shaped like a JDK whose `bin/java` is a shell script: it prints what a real one prints and exits as
 * told, and leaves a `ran` file behind so that tests can tell whether it was started at all.
 */
export function fakeJdk(home: string, jdk: FakeJdk): string {
  fs.mkdirSync(path.join(home, 'bin'), { recursive: true });
  if (jdk.release !== undefined) {
    fs.writeFileSync(path.join(home, 'release'), `IMPLEMENTOR="Fake"\nJAVA_VERSION="${jdk.release}"\nOS_NAME="Linux"\n`);
  }
  const java = path.join(home, 'bin', 'java');
  const prints = (jdk.prints ?? '').replace(/'/g, `'\\''`);
  fs.writeFileSync(java, `#!/bin/sh\ntouch '${path.join(home, 'ran')}'\nprintf '%s\\n' '${prints}' >&2\nexit ${jdk.exitCode ?? 0}\n`);
  fs.chmodSync(java, 0o755);
  return home;
}

export function wasRun(home: string): boolean {
  return fs.existsSync(path.join(home, 'ran'));
}

export const OPENJDK_17 = 'openjdk version "17.0.9" 2023-10-17\nOpenJDK Runtime Environment (build 17.0.9+9)';
export const OPENJDK_21 = 'openjdk version "21.0.1" 2023-10-17 LTS';
export const JAVA_8 = 'java version "1.8.0_392"\nJava(TM) SE Runtime Environment (build 1.8.0_392-b08)';

/** A racetriage distribution layout (the jar and lib/ with one jar) under dir. */
export function fakeDistribution(dir: string): string {
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'racetriage-cli.jar'), 'not really a jar');
  fs.writeFileSync(path.join(dir, 'lib', 'racetriage-lsp-server-0.1.0.jar'), 'not really a jar');
  return dir;
}

/** A Maven project with one class whose field a thread writes without a lock (a static race candidate). */
export const RACY_COUNTER = `package demo;

public class Counter {
  private int hits;

  public void start() {
    new Thread(() -> { hits = hits + 1; }).start();
  }

  public int hits() {
    return hits;
  }
}
`;

export function racyProject(): { project: string; source: string } {
  const project = tempDir('project');
  fs.writeFileSync(path.join(project, 'pom.xml'), '<project><modelVersion>4.0.0</modelVersion>'
    + '<groupId>demo</groupId><artifactId>demo</artifactId><version>1</version></project>\n');
  const source = path.join(project, 'src', 'main', 'java', 'demo', 'Counter.java');
  fs.mkdirSync(path.dirname(source), { recursive: true });
  fs.writeFileSync(source, RACY_COUNTER);
  return { project, source };
}

/**
 * The distribution the real-server tests start: the folder named by RACETRIAGE_TEST_DISTRIBUTION (racetriage-cli.jar
 * and lib/), else the one `mvn -B package` builds in the repository (what `npm run package` copies into the .vsix).
 */
export const BUILT_DISTRIBUTION = process.env.RACETRIAGE_TEST_DISTRIBUTION
  ? path.resolve(process.env.RACETRIAGE_TEST_DISTRIBUTION)
  : path.resolve(__dirname, '..', '..', '..', 'cli', 'target');

/**
 * Tests of the real server skip without a built distribution, except under CI=true, where .ci/run has built it and
 * its absence is a failure.
 */
export function skipWithoutDistribution(): string | false {
  const built = fs.existsSync(path.join(BUILT_DISTRIBUTION, 'racetriage-cli.jar'))
    && fs.existsSync(path.join(BUILT_DISTRIBUTION, 'lib'));
  return built || process.env.CI === 'true' ? false
    : `no racetriage distribution in ${BUILT_DISTRIBUTION} (mvn -B package, or set RACETRIAGE_TEST_DISTRIBUTION)`;
}
