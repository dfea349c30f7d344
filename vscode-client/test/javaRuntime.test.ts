import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  discoverJava, findOnPath, MINIMUM_JAVA, parseJavaVersionOutput, releaseVersion,
} from '../src/runtime/javaRuntime';
import { fakeJdk, JAVA_8, OPENJDK_17, OPENJDK_21, tempDir, wasRun } from './fixtures';

const posixOnly = { skip: process.platform === 'win32' ? 'fake JDKs are shell scripts' : false };

describe('Java runtime discovery against fake JDK directories', posixOnly, () => {
  it('finds none when no setting, no JAVA_HOME and no java on PATH, and says how to fix it', async () => {
    const emptyBin = tempDir('empty-path');
    const found = await discoverJava({ env: { PATH: emptyBin }, platform: 'linux' });
    assert.equal(found.ok, false);
    assert.ok(!found.ok);
    assert.deepEqual(found.rejected, []);
    assert.match(found.message, /found none/);
    assert.match(found.message, /racetriage\.java\.home/);
    assert.match(found.message, new RegExp(`JDK ${MINIMUM_JAVA} or newer`));
  });

  it('rejects Java 11 from its release file without starting it', async () => {
    const home = fakeJdk(tempDir('jdk11'), { release: '11', prints: 'openjdk version "11.0.21"' });
    const found = await discoverJava({ env: { JAVA_HOME: home, PATH: '' }, platform: 'linux' });
    assert.ok(!found.ok);
    assert.equal(found.rejected.length, 1);
    assert.equal(found.rejected[0].kind, 'too-old');
    assert.equal(found.rejected[0].source, 'JAVA_HOME');
    assert.match(found.message, /Java 11 .*older than Java 17/);
    assert.equal(wasRun(home), false, 'a release file saying 11 is enough; the JVM need not start');
  });

  it('rejects a Java 8 that has no release file by what java -version prints', async () => {
    const home = fakeJdk(tempDir('jdk8'), { prints: JAVA_8 });
    const found = await discoverJava({ configuredHome: home, env: {}, platform: 'linux' });
    assert.ok(!found.ok);
    assert.equal(found.rejected[0].kind, 'too-old');
    assert.match(found.rejected[0].detail, /Java 8/);
    assert.match(found.message, /cannot use the Java in racetriage\.java\.home/);
  });

  it('calls a java that exits non-zero broken and quotes what it printed', async () => {
    const home = fakeJdk(tempDir('broken'), {
      release: '17.0.2', exitCode: 1,
      prints: 'Error: Could not create the Java Virtual Machine.',
    });
    const found = await discoverJava({ env: { JAVA_HOME: home }, platform: 'linux' });
    assert.ok(!found.ok);
    assert.equal(found.rejected[0].kind, 'broken');
    assert.match(found.rejected[0].detail, /exit code 1/);
    assert.match(found.message, /Could not create the Java Virtual Machine/);
    assert.ok(wasRun(home));
  });

  it('calls a java whose output has no version broken', async () => {
    const home = fakeJdk(tempDir('mute'), { prints: 'hello' });
    const found = await discoverJava({ env: { JAVA_HOME: home }, platform: 'linux' });
    assert.ok(!found.ok);
    assert.equal(found.rejected[0].kind, 'broken');
    assert.match(found.rejected[0].detail, /no version/);
  });

  it('accepts a good Java 17 and reports its version, home and source', async () => {
    const home = fakeJdk(tempDir('jdk17'), { release: '17.0.9', prints: OPENJDK_17 });
    const found = await discoverJava({ env: { JAVA_HOME: home }, platform: 'linux' });
    assert.ok(found.ok);
    assert.deepEqual(found.runtime, {
      source: 'JAVA_HOME', home, executable: path.join(home, 'bin', 'java'), version: 17,
    });
  });

  it('prefers the setting over JAVA_HOME over PATH', async () => {
    const setting = fakeJdk(tempDir('setting'), { release: '21', prints: OPENJDK_21 });
    const javaHome = fakeJdk(tempDir('java-home'), { release: '17', prints: OPENJDK_17 });
    const onPath = fakeJdk(tempDir('on-path'), { release: '18', prints: 'openjdk version "18.0.2"' });
    const env = { JAVA_HOME: javaHome, PATH: path.join(onPath, 'bin') };

    const all = await discoverJava({ configuredHome: setting, env, platform: 'linux' });
    assert.ok(all.ok);
    assert.equal(all.runtime.source, 'racetriage.java.home');
    assert.equal(all.runtime.version, 21);

    const noSetting = await discoverJava({ configuredHome: '  ', env, platform: 'linux' });
    assert.ok(noSetting.ok);
    assert.equal(noSetting.runtime.source, 'JAVA_HOME');
    assert.equal(noSetting.runtime.home, javaHome);

    const pathOnly = await discoverJava({ env: { PATH: env.PATH }, platform: 'linux' });
    assert.ok(pathOnly.ok);
    assert.equal(pathOnly.runtime.source, 'PATH');
    assert.equal(pathOnly.runtime.version, 18);
    assert.equal(pathOnly.runtime.home, onPath);
  });

  it('falls back from an old JAVA_HOME to a good java on PATH, keeping why JAVA_HOME was skipped', async () => {
    const old = fakeJdk(tempDir('old-home'), { release: '11' });
    const good = fakeJdk(tempDir('good-path'), { release: '17', prints: OPENJDK_17 });
    const found = await discoverJava({ env: { JAVA_HOME: old, PATH: path.join(good, 'bin') }, platform: 'linux' });
    assert.ok(found.ok);
    assert.equal(found.runtime.source, 'PATH');
    assert.deepEqual(found.rejected.map((r) => [r.source, r.kind]), [['JAVA_HOME', 'too-old']]);
  });

  it('does not fall back when the configured Java is unusable: the setting is the user\'s explicit choice', async () => {
    const good = fakeJdk(tempDir('good-home'), { release: '17', prints: OPENJDK_17 });
    const missing = path.join(tempDir('nothing'), 'no-such-jdk');
    const found = await discoverJava({ configuredHome: missing, env: { JAVA_HOME: good }, platform: 'linux' });
    assert.ok(!found.ok);
    assert.deepEqual(found.rejected.map((r) => [r.source, r.kind]), [['racetriage.java.home', 'missing']]);
    assert.match(found.message, /neither a Java home .* nor a java executable/);
  });

  it('accepts the java executable itself in the setting and finds its home', async () => {
    const home = fakeJdk(tempDir('exe'), { release: '17', prints: OPENJDK_17 });
    const found = await discoverJava({ configuredHome: path.join(home, 'bin', 'java'), env: {}, platform: 'linux' });
    assert.ok(found.ok);
    assert.equal(found.runtime.home, home);
  });

  it('follows a linked java on PATH to its JDK, whose release file then counts', async () => {
    const home = fakeJdk(tempDir('linked'), { release: '11' });
    const bin = tempDir('usr-bin');
    fs.symlinkSync(path.join(home, 'bin', 'java'), path.join(bin, 'java'));
    const found = await discoverJava({ env: { PATH: bin }, platform: 'linux' });
    assert.ok(!found.ok);
    assert.equal(found.rejected[0].kind, 'too-old');
    assert.equal(wasRun(home), false);
  });
});

describe('Java version parsing', () => {
  it('reads the major version from java -version output of several vendors and eras', () => {
    assert.equal(parseJavaVersionOutput(OPENJDK_17), 17);
    assert.equal(parseJavaVersionOutput(OPENJDK_21), 21);
    assert.equal(parseJavaVersionOutput(JAVA_8), 8);
    assert.equal(parseJavaVersionOutput('openjdk version "23-ea" 2024-09-17'), 23);
    assert.equal(parseJavaVersionOutput('openjdk 17.0.2 2022-01-18\nOpenJDK Runtime Environment'), 17);
    assert.equal(parseJavaVersionOutput('Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "19.0.1"'), 19);
    assert.equal(parseJavaVersionOutput('no version here'), undefined);
  });

  it('reads the release file, and nothing when there is none', () => {
    const dir = tempDir('release');
    assert.equal(releaseVersion(dir), undefined);
    fs.writeFileSync(path.join(dir, 'release'), 'JAVA_VERSION="1.8.0_292"\n');
    assert.equal(releaseVersion(dir), 8);
    fs.writeFileSync(path.join(dir, 'release'), 'IMPLEMENTOR="Eclipse Adoptium"\r\nJAVA_VERSION="17.0.9"\r\n');
    assert.equal(releaseVersion(dir), 17);
  });
});

describe('java on PATH', () => {
  it('uses ; and java.exe on Windows, : and an executable java elsewhere', () => {
    const first = tempDir('win-a');
    const second = tempDir('win-b');
    fs.writeFileSync(path.join(second, 'java.exe'), '');
    assert.equal(findOnPath({ Path: `${first};"${second}"` }, 'win32'), path.join(second, 'java.exe'));
    assert.equal(findOnPath({ PATH: `${first}:${second}` }, 'linux'), undefined);
  });

  it('skips a java that is not executable', posixOnly, () => {
    const dir = tempDir('noexec');
    fs.writeFileSync(path.join(dir, 'java'), '#!/bin/sh\n');
    fs.chmodSync(path.join(dir, 'java'), 0o644);
    assert.equal(findOnPath({ PATH: dir }, 'linux'), undefined);
  });
});
