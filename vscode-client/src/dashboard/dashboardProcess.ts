import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import type { CommandLine } from '../server/serverLaunch';

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (result: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface DashboardStart {
  readonly url: string;
  /** The process this call started; undefined when a dashboard was already listening on the port. */
  readonly process: ChildProcess | undefined;
}

export interface DashboardOptions {
  readonly port: number;
  readonly url: string;
  /** `racetriage dashboard --port N ...` (see dashboardArgs). */
  readonly command: CommandLine;
  readonly cwd: string;
  /** How long the dashboard may take to listen (a JVM start plus opening the store). */
  readonly startTimeoutMs: number;
  readonly log: (line: string) => void;
}

/** `dashboard --port N --project DIR --db DIR/.racetriage/triage.db`: the workspace's own database. */
export function dashboardArgs(port: number, project: string, database: string): string[] {
  return ['dashboard', '--port', String(port), '--project', project, '--db', database];
}

/**
 * Reuses a dashboard that already listens on the port, or starts one and waits until it listens. A dashboard that
 * exits first (no triage database yet, the port taken by something else) rejects with what it printed, which says
 * what to do.
 */
export async function ensureDashboard(options: DashboardOptions): Promise<DashboardStart> {
  if (await isListening(options.port)) {
    return { url: options.url, process: undefined };
  }
  const child = spawn(options.command.command, [...options.command.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.command.env },
    shell: options.command.shell,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split(/\r?\n/)) {
      if (line.trim()) {
        output.push(line.trim());
        options.log(`[dashboard] ${line.trim()}`);
      }
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (e) => resolve(`could not start ${options.command.command}: ${e.message}`));
    child.once('exit', (code, signal) => resolve(`exited with ${signal ?? `code ${code}`}`));
  });
  let exitReason: string | undefined;
  void exited.then((reason) => { exitReason = reason; });
  const deadline = Date.now() + options.startTimeoutMs;
  while (Date.now() < deadline) {
    if (exitReason !== undefined) {
      break;
    }
    if (await isListening(options.port)) {
      return { url: options.url, process: child };
    }
    await Promise.race([exited, delay(250)]);
  }
  if (exitReason === undefined) {
    child.kill();
    exitReason = `did not listen on port ${options.port} within ${Math.round(options.startTimeoutMs / 1000)} s`;
  }
  const said = output.slice(-3).join(' / ');
  throw new Error(`racetriage dashboard ${exitReason}${said ? `: ${said}` : ''}`);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
