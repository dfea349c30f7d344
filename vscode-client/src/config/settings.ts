import * as os from 'node:os';
import * as path from 'node:path';

export type TraceLevel = 'off' | 'messages' | 'verbose';

/** What the user configures under `racetriage.*` (package.json `contributes.configuration` declares each key). */
export interface ExtensionSettings {
  /** `racetriage.java.home`: a Java 17+ home (or its java executable); empty means JAVA_HOME, then PATH. */
  readonly javaHome: string | undefined;
  /** `racetriage.server.path`: a launcher script or a distribution folder; empty means the bundled server. */
  readonly serverPath: string | undefined;
  /** `racetriage.server.vmargs`: extra JVM options for the server. */
  readonly jvmArgs: readonly string[];
  /** `racetriage.server.debugPort`: attach to `racetriage lsp --socket PORT` started elsewhere (0 = start our own). */
  readonly debugPort: number;
  /** `racetriage.startDaemon`: whether the server starts the triage daemon for the workspace. */
  readonly startDaemon: boolean;
  /** `racetriage.dashboard.port`: where `racetriage dashboard` listens (and what the server's command opens). */
  readonly dashboardPort: number;
  /** `racetriage.trace.server`: the LSP traffic log (vscode-languageclient reads this key itself). */
  readonly traceServer: TraceLevel;
}

export const DEFAULT_DASHBOARD_PORT = 7070;

/** Reads a setting by its key below `racetriage.` (what `WorkspaceConfiguration.get` does). */
export type SettingGetter = (key: string) => unknown;

export interface ReadContext {
  /** Relative paths in settings are taken from here (the first workspace folder). */
  readonly baseDir: string | undefined;
  readonly homeDir?: string;
}

/**
 * Reads and checks the settings. A value of the wrong type or out of range falls back to the default and is reported
 * through `problems` (naming the key and what it should be), so one typo never stops the extension.
 */
export function readSettings(get: SettingGetter, context: ReadContext, problems: (message: string) => void): ExtensionSettings {
  const home = context.homeDir ?? os.homedir();
  return {
    javaHome: pathSetting(get, 'java.home', context.baseDir, home, problems),
    serverPath: pathSetting(get, 'server.path', context.baseDir, home, problems),
    jvmArgs: stringList(get, 'server.vmargs', problems),
    debugPort: port(get, 'server.debugPort', 0, true, problems),
    startDaemon: bool(get, 'startDaemon', false, problems),
    dashboardPort: port(get, 'dashboard.port', DEFAULT_DASHBOARD_PORT, false, problems),
    traceServer: trace(get, problems),
  };
}

function pathSetting(get: SettingGetter, key: string, baseDir: string | undefined, home: string,
    problems: (message: string) => void): string | undefined {
  const value = get(key);
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    problems(`racetriage.${key} must be a path (a string), not ${JSON.stringify(value)}; ignoring it`);
    return undefined;
  }
  let p = value.trim();
  if (p === '') {
    return undefined;
  }
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    p = path.join(home, p.slice(1));
  }
  if (!path.isAbsolute(p) && baseDir) {
    p = path.resolve(baseDir, p);
  }
  return p;
}

function stringList(get: SettingGetter, key: string, problems: (message: string) => void): string[] {
  const value = get(key);
  if (value === undefined || value === null || value === '') {
    return [];
  }
  if (typeof value === 'string') {
    return value.trim().split(/\s+/).filter((s) => s.length > 0);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return value.filter((v) => v.length > 0);
  }
  problems(`racetriage.${key} must be a list of JVM options like ["-Xmx2g"], not ${JSON.stringify(value)}; ignoring it`);
  return [];
}

function bool(get: SettingGetter, key: string, fallback: boolean, problems: (message: string) => void): boolean {
  const value = get(key);
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value === 'boolean') {
    return value;
  }
  problems(`racetriage.${key} must be true or false, not ${JSON.stringify(value)}; using ${fallback}`);
  return fallback;
}

function port(get: SettingGetter, key: string, fallback: number, zeroAllowed: boolean,
    problems: (message: string) => void): number {
  const value = get(key);
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value <= 65535 && (value > 0 || (zeroAllowed && value === 0))) {
    return value;
  }
  problems(`racetriage.${key} must be a TCP port (${zeroAllowed ? '0' : '1'}-65535), not ${JSON.stringify(value)}; `
    + `using ${fallback}`);
  return fallback;
}

function trace(get: SettingGetter, problems: (message: string) => void): TraceLevel {
  const value = get('trace.server');
  if (value === undefined || value === null) {
    return 'off';
  }
  if (value === 'off' || value === 'messages' || value === 'verbose') {
    return value;
  }
  problems(`racetriage.trace.server must be "off", "messages" or "verbose", not ${JSON.stringify(value)}; using "off"`);
  return 'off';
}

/** The URL the dashboard has on this machine with the configured port. */
export function dashboardUrl(settings: Pick<ExtensionSettings, 'dashboardPort'>): string {
  return `http://127.0.0.1:${settings.dashboardPort}/`;
}

/**
 * What the language server is told (initializationOptions and workspace/didChangeConfiguration), in the shape its
 * SettingsReader reads: `{"racetriage": {"startDaemon", "dashboardUrl", "daemonCommand"}}`. The daemon command is
 * the same Java and distribution as the server, because a bare `racetriage` is rarely on an editor's PATH.
 */
export function serverSettings(settings: ExtensionSettings, daemonCommand: readonly string[]): { racetriage: Record<string, unknown> } {
  return {
    racetriage: {
      startDaemon: settings.startDaemon,
      dashboardUrl: dashboardUrl(settings),
      daemonCommand: [...daemonCommand],
    },
  };
}

/** Settings that change how the server process is started: changing one restarts the server. */
export function needsRestart(before: ExtensionSettings, after: ExtensionSettings): boolean {
  return before.javaHome !== after.javaHome
    || before.serverPath !== after.serverPath
    || before.debugPort !== after.debugPort
    || before.jvmArgs.join('\u0000') !== after.jvmArgs.join('\u0000');
}
