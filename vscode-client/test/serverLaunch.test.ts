import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  classpath, displayCommand, locateDistribution, lspArgs, MAIN_CLASS, racetriageCommand, ServerDistribution, VM_OUTPUT_TO_STDERR,
} from '../src/server/serverLaunch';
import { fakeDistribution, tempDir } from './fixtures';

const java = { executable: '/opt/jdk-17/bin/java', home: '/opt/jdk-17' };

describe('locating the server distribution', () => {
  it('uses the copy bundled in the extension when nothing is configured', () => {
    const extension = tempDir('ext');
    fakeDistribution(path.join(extension, 'server'));
    const found = locateDistribution(undefined, extension);
    assert.ok(found.ok);
    assert.deepEqual(found.distribution, {
      kind: 'jars', origin: 'bundled',
      jar: path.join(extension, 'server', 'racetriage-cli.jar'), libDir: path.join(extension, 'server', 'lib'),
    });
  });

  it('says how to fix an extension packaged without its server', () => {
    const found = locateDistribution('', tempDir('bare-ext'));
    assert.ok(!found.ok);
    assert.match(found.message, /no bundled server/);
    assert.match(found.message, /racetriage\.server\.path/);
  });

  it('takes a configured folder with the jar and lib/ over the bundled copy', () => {
    const extension = tempDir('ext2');
    fakeDistribution(path.join(extension, 'server'));
    const dist = fakeDistribution(tempDir('dist'));
    const found = locateDistribution(dist, extension);
    assert.ok(found.ok);
    assert.equal(found.distribution.kind, 'jars');
    assert.equal((found.distribution as { jar: string }).jar, path.join(dist, 'racetriage-cli.jar'));
    assert.equal((found.distribution as { origin: string }).origin, 'configured');
  });

  it('finds cli/target in a configured racetriage checkout, and takes a configured jar directly', () => {
    const checkout = tempDir('checkout');
    fakeDistribution(path.join(checkout, 'cli', 'target'));
    const fromCheckout = locateDistribution(checkout, tempDir('ext3'));
    assert.ok(fromCheckout.ok);
    assert.equal((fromCheckout.distribution as { libDir: string }).libDir, path.join(checkout, 'cli', 'target', 'lib'));

    const jar = path.join(checkout, 'cli', 'target', 'racetriage-cli.jar');
    const fromJar = locateDistribution(jar, tempDir('ext4'));
    assert.ok(fromJar.ok);
    assert.deepEqual(fromJar.distribution,
      { kind: 'jars', jar, libDir: path.join(checkout, 'cli', 'target', 'lib'), origin: 'configured' });
  });

  it('treats any other configured file as a launcher script', () => {
    const script = path.join(tempDir('launcher'), 'racetriage');
    fs.writeFileSync(script, '#!/bin/sh\n');
    const found = locateDistribution(script, tempDir('ext5'));
    assert.ok(found.ok);
    assert.deepEqual(found.distribution, { kind: 'launcher', script });
  });

  it('explains a configured path that does not exist or holds no distribution', () => {
    const missing = locateDistribution('/no/such/racetriage', tempDir('ext6'));
    assert.ok(!missing.ok);
    assert.match(missing.message, /\/no\/such\/racetriage, which does not exist/);
    const empty = locateDistribution(tempDir('empty'), tempDir('ext7'));
    assert.ok(!empty.ok);
    assert.match(empty.message, /holds no racetriage-cli\.jar/);
  });
});

describe('building the racetriage command line', () => {
  const jars: ServerDistribution = { kind: 'jars', jar: '/ext/server/racetriage-cli.jar', libDir: '/ext/server/lib', origin: 'bundled' };

  it('runs the CLI main class with the jar and lib/* on the classpath (POSIX)', () => {
    const line = racetriageCommand(jars, java, lspArgs(), { platform: 'linux' });
    assert.deepEqual(line, {
      command: '/opt/jdk-17/bin/java',
      args: [...VM_OUTPUT_TO_STDERR, '-XX:TieredStopAtLevel=1', '-cp', '/ext/server/racetriage-cli.jar:/ext/server/lib/*', MAIN_CLASS, 'lsp'],
      env: {}, shell: false,
    });
  });

  it('uses ; and backslashes for the classpath on Windows', () => {
    const windowsJars: ServerDistribution = {
      kind: 'jars', jar: 'C:\\ext\\server\\racetriage-cli.jar', libDir: 'C:\\ext\\server\\lib', origin: 'bundled',
    };
    assert.equal(classpath(windowsJars, 'win32'), 'C:\\ext\\server\\racetriage-cli.jar;C:\\ext\\server\\lib\\*');
    const line = racetriageCommand(windowsJars, { executable: 'C:\\jdk\\bin\\java.exe', home: 'C:\\jdk' }, ['lsp'],
      { platform: 'win32' });
    assert.equal(line.args[line.args.indexOf('-cp') + 1], 'C:\\ext\\server\\racetriage-cli.jar;C:\\ext\\server\\lib\\*');
    assert.equal(line.shell, false);
  });

  it('puts JVM options before the classpath and the socket option after lsp', () => {
    const line = racetriageCommand(jars, java, lspArgs(5007), { platform: 'linux', jvmArgs: ['-Xmx2g', '-Dx=y'] });
    assert.deepEqual(line.args,
      ['-XX:+DisplayVMOutputToStderr', '-Xlog:disable', '-Xlog:all=warning:stderr', '-Xmx2g', '-Dx=y', '-cp', '/ext/server/racetriage-cli.jar:/ext/server/lib/*', MAIN_CLASS, 'lsp', '--socket', '5007']);
    assert.deepEqual(lspArgs(0), ['lsp']);
    assert.deepEqual(lspArgs(undefined), ['lsp']);
  });

  it('starts lsp and scan with the C1 compiler alone unless the user gives JVM options, as the launcher does', () => {
    assert.deepEqual(racetriageCommand(jars, java, lspArgs(0), { platform: 'linux' }).args,
      [...VM_OUTPUT_TO_STDERR, '-XX:TieredStopAtLevel=1', '-cp', '/ext/server/racetriage-cli.jar:/ext/server/lib/*', MAIN_CLASS, 'lsp']);
    assert.ok(racetriageCommand(jars, java, ['scan', '/p'], { platform: 'linux' }).args.includes('-XX:TieredStopAtLevel=1'));
    assert.ok(!racetriageCommand(jars, java, ['daemon', '/p'], { platform: 'linux' }).args.includes('-XX:TieredStopAtLevel=1'));
    assert.ok(!racetriageCommand(jars, java, ['lsp'], { platform: 'linux', jvmArgs: ['-Xmx1g'] }).args
      .includes('-XX:TieredStopAtLevel=1'));
    // the launcher script applies the same default itself when RACETRIAGE_JAVA_OPTS is unset
    assert.deepEqual(racetriageCommand({ kind: 'launcher', script: '/src/racetriage/racetriage' }, java, ['lsp'],
      { platform: 'linux' }).env, { JAVA_HOME: '/opt/jdk-17' });
  });

  it('hands Java and JVM options to a launcher script through its environment', () => {
    const line = racetriageCommand({ kind: 'launcher', script: '/src/racetriage/racetriage' }, java, ['triage', '/p'],
      { platform: 'linux', jvmArgs: ['-Xmx1g'] });
    assert.deepEqual(line, {
      command: '/src/racetriage/racetriage', args: ['triage', '/p'],
      env: { JAVA_HOME: '/opt/jdk-17', RACETRIAGE_JAVA_OPTS: '-Xmx1g' }, shell: false,
    });
  });

  it('runs a .cmd launcher through the shell on Windows only', () => {
    const cmd: ServerDistribution = { kind: 'launcher', script: 'C:\\racetriage\\racetriage.cmd' };
    assert.equal(racetriageCommand(cmd, java, ['lsp'], { platform: 'win32' }).shell, true);
    assert.equal(racetriageCommand(cmd, java, ['lsp'], { platform: 'linux' }).shell, false);
    assert.deepEqual(racetriageCommand(cmd, { executable: 'java', home: undefined }, ['lsp'], { platform: 'win32' }).env, {});
  });

  it('shows a command line that can be pasted into a shell', () => {
    const line = racetriageCommand(jars, { executable: '/opt/my jdk/bin/java', home: undefined }, lspArgs(5007),
      { platform: 'linux' });
    assert.equal(displayCommand(line, 'linux'),
      `'/opt/my jdk/bin/java' ${VM_OUTPUT_TO_STDERR.join(' ')} -XX:TieredStopAtLevel=1 -cp '/ext/server/racetriage-cli.jar:/ext/server/lib/*' ${MAIN_CLASS} lsp --socket 5007`);
    const launcher = racetriageCommand({ kind: 'launcher', script: 'C:\\rt\\racetriage.cmd' },
      { executable: 'java', home: 'C:\\Program Files\\jdk' }, ['lsp'], { platform: 'win32' });
    assert.equal(displayCommand(launcher, 'win32'), 'set "JAVA_HOME=C:\\Program Files\\jdk" && C:\\rt\\racetriage.cmd lsp');
  });
});
