import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  dashboardUrl, DEFAULT_DASHBOARD_PORT, ExtensionSettings, needsRestart, readSettings, serverSettings,
} from '../src/config/settings';

function read(values: Record<string, unknown>, baseDir: string | null = '/work/project') {
  const problems: string[] = [];
  const settings = readSettings((key) => values[key], { baseDir: baseDir ?? undefined, homeDir: '/home/dev' }, (p) => problems.push(p));
  return { settings, problems };
}

describe('reading the racetriage settings', () => {
  it('has defaults that start the bundled server with the Java it finds', () => {
    const { settings, problems } = read({});
    assert.deepEqual(settings, {
      javaHome: undefined, serverPath: undefined, jvmArgs: [], debugPort: 0, startDaemon: false,
      dashboardPort: DEFAULT_DASHBOARD_PORT, traceServer: 'off',
    });
    assert.deepEqual(problems, []);
  });

  it('reads every key VS Code declares for the extension', () => {
    const { settings, problems } = read({
      'java.home': '/opt/jdk-21', 'server.path': '/opt/racetriage', 'server.vmargs': ['-Xmx2g'],
      'server.debugPort': 5007, startDaemon: true, 'dashboard.port': 8080, 'trace.server': 'verbose',
    });
    assert.deepEqual(settings, {
      javaHome: '/opt/jdk-21', serverPath: '/opt/racetriage', jvmArgs: ['-Xmx2g'], debugPort: 5007,
      startDaemon: true, dashboardPort: 8080, traceServer: 'verbose',
    });
    assert.deepEqual(problems, []);
  });

  it('resolves ~ and relative paths (from the first workspace folder); blank means unset', () => {
    assert.equal(read({ 'java.home': '~/jdks/17' }).settings.javaHome, path.join('/home/dev', 'jdks/17'));
    assert.equal(read({ 'server.path': '../racetriage' }).settings.serverPath, path.resolve('/work/project', '../racetriage'));
    assert.equal(read({ 'server.path': 'racetriage' }, null).settings.serverPath, 'racetriage');
    assert.equal(read({ 'java.home': '   ' }).settings.javaHome, undefined);
  });

  it('splits JVM options given as one string', () => {
    assert.deepEqual(read({ 'server.vmargs': ' -Xmx2g  -Dfoo=bar ' }).settings.jvmArgs, ['-Xmx2g', '-Dfoo=bar']);
  });

  it('keeps the default for a value of the wrong type and names the key and what it should be', () => {
    const { settings, problems } = read({
      'java.home': 17, startDaemon: 'yes', 'dashboard.port': 70000, 'server.debugPort': -1,
      'trace.server': 'loud', 'server.vmargs': [1, 2],
    });
    assert.equal(settings.javaHome, undefined);
    assert.equal(settings.startDaemon, false);
    assert.equal(settings.dashboardPort, DEFAULT_DASHBOARD_PORT);
    assert.equal(settings.debugPort, 0);
    assert.equal(settings.traceServer, 'off');
    assert.deepEqual(settings.jvmArgs, []);
    assert.equal(problems.length, 6);
    assert.ok(problems.some((p) => /racetriage\.dashboard\.port must be a TCP port \(1-65535\), not 70000/.test(p)));
    assert.ok(problems.some((p) => /racetriage\.trace\.server must be "off", "messages" or "verbose"/.test(p)));
    assert.ok(problems.some((p) => /racetriage\.startDaemon must be true or false/.test(p)));
  });

  it('refuses dashboard port 0 but allows debug port 0 (off)', () => {
    assert.equal(read({ 'dashboard.port': 0 }).problems.length, 1);
    assert.equal(read({ 'server.debugPort': 0 }).problems.length, 0);
  });
});

describe('what the language server is told', () => {
  const base = read({}).settings;

  it('uses the keys the server reads: startDaemon, dashboardUrl and the daemon command with our Java and jars', () => {
    const settings: ExtensionSettings = { ...base, startDaemon: true, dashboardPort: 8123 };
    const daemon = ['/opt/jdk/bin/java', '-cp', '/ext/server/racetriage-cli.jar:/ext/server/lib/*',
      'dev.racetriage.cli.RacetriageCommand', 'daemon'];
    assert.deepEqual(serverSettings(settings, daemon), {
      racetriage: { startDaemon: true, dashboardUrl: 'http://127.0.0.1:8123/', daemonCommand: daemon },
    });
    assert.equal(dashboardUrl(base), 'http://127.0.0.1:7070/');
  });

  it('restarts the server only for settings that change how it is started', () => {
    assert.equal(needsRestart(base, { ...base, startDaemon: true, dashboardPort: 9000, traceServer: 'messages' }), false);
    assert.equal(needsRestart(base, { ...base, javaHome: '/opt/jdk-21' }), true);
    assert.equal(needsRestart(base, { ...base, serverPath: '/opt/racetriage' }), true);
    assert.equal(needsRestart(base, { ...base, jvmArgs: ['-Xmx2g'] }), true);
    assert.equal(needsRestart(base, { ...base, debugPort: 5007 }), true);
  });
});
