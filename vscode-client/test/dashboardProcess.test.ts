import assert from 'node:assert/strict';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { dashboardArgs, ensureDashboard, isListening } from '../src/dashboard/dashboardProcess';

function listen(): Promise<http.Server> {
  const server = http.createServer((_, res) => res.end('ok'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function freePort(): Promise<number> {
  return listen().then((server) => new Promise((resolve) => {
    const port = (server.address() as AddressInfo).port;
    server.close(() => resolve(port));
  }));
}

/** A command line that runs a node script (a stand-in for `java ... dashboard` with the same behaviour). */
function node(script: string) {
  return { command: process.execPath, args: ['-e', script], env: {}, shell: false };
}

describe('starting the dashboard', () => {
  const servers: http.Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  it('tells a listening port from a closed one', async () => {
    const server = await listen();
    servers.push(server);
    assert.equal(await isListening((server.address() as AddressInfo).port), true);
    assert.equal(await isListening(await freePort()), false);
  });

  it('reuses a dashboard that already listens instead of starting another', async () => {
    const server = await listen();
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const started = await ensureDashboard({
      port, url: `http://127.0.0.1:${port}/`, cwd: process.cwd(), startTimeoutMs: 5000, log: () => {},
      command: node('process.exit(3)'),
    });
    assert.equal(started.process, undefined);
  });

  it('starts the dashboard process and returns once it listens', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const started = await ensureDashboard({
      port, url: `http://127.0.0.1:${port}/`, cwd: process.cwd(), startTimeoutMs: 30000, log: (l) => lines.push(l),
      command: node(`require('http').createServer((q, r) => r.end()).listen(${port}, '127.0.0.1',
        () => console.log('racetriage dashboard on http://127.0.0.1:${port}/'))`),
    });
    try {
      assert.ok(started.process);
      assert.equal(await isListening(port), true);
    } finally {
      started.process?.kill();
    }
  });

  it('rejects with what a dashboard that exits printed (it says what to do)', async () => {
    const port = await freePort();
    await assert.rejects(ensureDashboard({
      port, url: `http://127.0.0.1:${port}/`, cwd: process.cwd(), startTimeoutMs: 30000, log: () => {},
      command: node(`console.error("racetriage: no triage database at /p/.racetriage/triage.db: run 'racetriage triage' in the project first"); process.exit(1)`),
    }), /racetriage dashboard exited with code 1: racetriage: no triage database at \/p\/\.racetriage\/triage\.db: run 'racetriage triage'/);
  });

  it('passes the workspace database and project to racetriage dashboard', () => {
    assert.deepEqual(dashboardArgs(8080, '/w/p', '/w/p/.racetriage/triage.db'),
      ['dashboard', '--port', '8080', '--project', '/w/p', '--db', '/w/p/.racetriage/triage.db']);
  });
});
