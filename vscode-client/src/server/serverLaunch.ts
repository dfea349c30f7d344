import * as fs from 'node:fs';
import * as path from 'node:path';

/** The CLI's entry point in the distribution (see the repository's `racetriage` launcher script). */
export const MAIN_CLASS = 'dev.racetriage.cli.RacetriageCommand';
export const CLI_JAR = 'racetriage-cli.jar';

/**
 * Where the racetriage distribution is: the jar and its `lib/` folder (bundled in the extension, or configured), or a
 * launcher script such as the repository's `racetriage` that finds its own jars.
 */
export type ServerDistribution =
  | { readonly kind: 'jars'; readonly jar: string; readonly libDir: string; readonly origin: 'bundled' | 'configured' }
  | { readonly kind: 'launcher'; readonly script: string };

export type Located =
  | { readonly ok: true; readonly distribution: ServerDistribution }
  | { readonly ok: false; readonly message: string };

/**
 * `racetriage.server.path` when set (a launcher script, the jar, a folder with the jar and `lib/`, or a racetriage
 * checkout whose `cli/target` holds them), otherwise the copy packaged into the extension's `server/` folder.
 */
export function locateDistribution(configuredPath: string | undefined, extensionDir: string): Located {
  if (configuredPath && configuredPath.trim()) {
    return locateConfigured(configuredPath.trim());
  }
  const bundled = jarsIn(path.join(extensionDir, 'server'), 'bundled');
  if (bundled) {
    return { ok: true, distribution: bundled };
  }
  return {
    ok: false,
    message: `This racetriage extension has no bundled server (no ${path.join(extensionDir, 'server', CLI_JAR)}; `
      + `it was packaged without 'npm run package'). Set racetriage.server.path to a racetriage distribution: the `
      + `'racetriage' launcher script, or a folder with ${CLI_JAR} and lib/.`,
  };
}

function locateConfigured(configured: string): Located {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(configured);
  } catch {
    return { ok: false, message: `racetriage.server.path is ${configured}, which does not exist. Point it at the `
      + `'racetriage' launcher script or at a folder with ${CLI_JAR} and lib/, or clear it to use the bundled server.` };
  }
  if (stat.isFile()) {
    if (configured.toLowerCase().endsWith('.jar')) {
      const dir = path.dirname(configured);
      return { ok: true, distribution: { kind: 'jars', jar: configured, libDir: path.join(dir, 'lib'), origin: 'configured' } };
    }
    return { ok: true, distribution: { kind: 'launcher', script: configured } };
  }
  const found = jarsIn(configured, 'configured') ?? jarsIn(path.join(configured, 'cli', 'target'), 'configured');
  if (found) {
    return { ok: true, distribution: found };
  }
  return { ok: false, message: `racetriage.server.path is the folder ${configured}, which holds no ${CLI_JAR} with a `
    + `lib/ folder beside it (nor cli/target/${CLI_JAR} of a built racetriage checkout: run 'mvn -B package' there).` };
}

function jarsIn(dir: string, origin: 'bundled' | 'configured'): ServerDistribution | undefined {
  const jar = path.join(dir, CLI_JAR);
  const libDir = path.join(dir, 'lib');
  return isFile(jar) && isDirectory(libDir) ? { kind: 'jars', jar, libDir, origin } : undefined;
}

export interface JavaChoice {
  readonly executable: string;
  readonly home: string | undefined;
}

/** A process to start: what `child_process.spawn` and VS Code's ProcessExecution both take. */
export interface CommandLine {
  readonly command: string;
  readonly args: readonly string[];
  /** Variables to add to the inherited environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Windows runs `.cmd`/`.bat` launchers only through the shell. */
  readonly shell: boolean;
}

export interface BuildOptions {
  readonly platform: NodeJS.Platform;
  /** Extra JVM options (`racetriage.server.vmargs`). */
  readonly jvmArgs?: readonly string[];
}

/**
 * The JVM's own output (warnings such as "CodeCache is full", unified-logging warnings) goes to standard output by
 * default, where it would corrupt the LSP stream of a server on stdio; these send it to standard error. The
 * `racetriage` launcher script adds the same options itself.
 */
export const VM_OUTPUT_TO_STDERR: readonly string[] =
  ['-XX:+DisplayVMOutputToStderr', '-Xlog:disable', '-Xlog:all=warning:stderr'];

/**
 * The JVM options the `racetriage` launcher script chooses when the user gives none: `scan` (a short burst of parsing)
 * and `lsp` run with the C1 compiler alone, which on 2 cores halves the server's time to its first complete
 * diagnostics (benchmarks/RESULTS.md, "Language server: start"). Long-lived trial work (`daemon`) keeps the defaults.
 */
export function defaultJvmArgs(args: readonly string[]): readonly string[] {
  return args[0] === 'lsp' || args[0] === 'scan' ? ['-XX:TieredStopAtLevel=1'] : [];
}

/** The command line for `racetriage <args>` with the chosen Java and distribution. */
export function racetriageCommand(distribution: ServerDistribution, java: JavaChoice, args: readonly string[],
    options: BuildOptions): CommandLine {
  // as in the launcher script, the user's options replace the defaults rather than adding to them
  const jvmArgs = options.jvmArgs && options.jvmArgs.length > 0 ? options.jvmArgs : defaultJvmArgs(args);
  if (distribution.kind === 'launcher') {
    // the launcher picks Java from JAVA_HOME and JVM options from RACETRIAGE_JAVA_OPTS (its own defaults when unset)
    const env: Record<string, string> = {};
    if (java.home) {
      env.JAVA_HOME = java.home;
    }
    if (options.jvmArgs && options.jvmArgs.length > 0) {
      env.RACETRIAGE_JAVA_OPTS = options.jvmArgs.join(' ');
    }
    return { command: distribution.script, args: [...args], env,
      shell: options.platform === 'win32' && /\.(cmd|bat)$/i.test(distribution.script) };
  }
  return {
    command: java.executable,
    args: [...VM_OUTPUT_TO_STDERR, ...jvmArgs, '-cp', classpath(distribution, options.platform), MAIN_CLASS,
      ...args],
    env: {},
    shell: false,
  };
}

/**
 * `jar<sep>lib/*`: the JVM expands the `lib/*` wildcard itself, so no shell is involved; the separator is the
 * platform's (`;` on Windows, `:` elsewhere).
 */
export function classpath(distribution: Extract<ServerDistribution, { kind: 'jars' }>, platform: NodeJS.Platform): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  return `${distribution.jar}${platform === 'win32' ? ';' : ':'}${paths.join(distribution.libDir, '*')}`;
}

/** `racetriage lsp`, or `racetriage lsp --socket PORT` for a server a debugger starts and a client attaches to. */
export function lspArgs(socketPort?: number): string[] {
  return socketPort !== undefined && socketPort > 0 ? ['lsp', '--socket', String(socketPort)] : ['lsp'];
}

/** A command line as a user would type it in a POSIX shell or cmd.exe (for messages and the output channel). */
export function displayCommand(line: CommandLine, platform: NodeJS.Platform): string {
  const quote = (part: string) => {
    const special = platform === 'win32' ? /[\s"&|<>^%()]/ : /[\s"'$`\\*?;&|<>()]/;
    if (part.length > 0 && !special.test(part)) {
      return part;
    }
    return platform === 'win32' ? `"${part.replace(/"/g, '""')}"` : `'${part.replace(/'/g, `'\\''`)}'`;
  };
  const env = Object.entries(line.env).map(([k, v]) => (platform === 'win32' ? `set "${k}=${v}" && ` : `${k}=${quote(v)} `));
  return `${env.join('')}${[line.command, ...line.args].map(quote).join(' ')}`;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
