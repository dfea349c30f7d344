import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { checkVsix } from '../src/packaging/vsixCheck';
import { zipEntryNames, zipEntryText } from '../src/packaging/zipListing';
import { tempDir } from './fixtures';
import { zipOf } from './zipWriter';

/** The extension's own package.json, as vsce puts it into the .vsix. */
const manifest = fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8');

function vsix(entries: Array<{ name: string; text: string; deflate?: boolean }>): string {
  const file = path.join(tempDir('vsix'), 'racetriage.vsix');
  fs.writeFileSync(file, zipOf(entries));
  return file;
}

const complete = [
  { name: '[Content_Types].xml', text: '<Types/>' },
  { name: 'extension.vsixmanifest', text: '<PackageManifest/>' },
  { name: 'extension/package.json', text: manifest, deflate: true },
  { name: 'extension/dist/extension.js', text: 'exports.activate = () => {};', deflate: true },
  { name: 'extension/server/racetriage-cli.jar', text: 'PK' },
  { name: 'extension/server/lib/racetriage-lsp-server-0.1.0-SNAPSHOT.jar', text: 'PK' },
];

describe('reading a zip', () => {
  it('lists the entries and reads stored and deflated ones', () => {
    const file = vsix(complete);
    assert.deepEqual(zipEntryNames(file), complete.map((e) => e.name));
    assert.equal(zipEntryText(file, 'extension/package.json'), manifest);
    assert.equal(zipEntryText(file, 'extension.vsixmanifest'), '<PackageManifest/>');
    assert.throws(() => zipEntryText(file, 'extension/missing.txt'), /has no entry extension\/missing\.txt/);
  });

  it('lists what unzip lists', { skip: fs.existsSync('/usr/bin/unzip') ? false : 'no unzip here' }, () => {
    const file = vsix(complete);
    const listed = execFileSync('/usr/bin/unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(zipEntryNames(file), listed);
  });

  it('says when a file is not a zip', () => {
    const file = path.join(tempDir('notzip'), 'x.vsix');
    fs.writeFileSync(file, 'just text, no central directory');
    assert.throws(() => zipEntryNames(file), /not a zip file/);
  });
});

describe('checking a packaged .vsix', () => {
  it('accepts a package with a valid manifest, the bundle and the server distribution', () => {
    assert.deepEqual(checkVsix(vsix(complete)), []);
  });

  it('names what is missing: the server jar, the language server in lib/, the bundle', () => {
    const problems = checkVsix(vsix(complete.filter((e) => !e.name.startsWith('extension/server/')
      && e.name !== 'extension/dist/extension.js')));
    assert.ok(problems.some((p) => p.endsWith('lacks extension/server/racetriage-cli.jar')), problems.join('\n'));
    assert.ok(problems.some((p) => p.endsWith('lacks extension/dist/extension.js')));
    assert.ok(problems.some((p) => /lacks the language server's jar/.test(p)));
    assert.ok(problems.some((p) => /main \(\.\/dist\/extension\.js\) is not in the package/.test(p)));
  });

  it('finds a manifest that lost its activation events, settings or name', () => {
    const broken = JSON.parse(manifest);
    broken.activationEvents = ['onLanguage:java'];
    delete broken.contributes.configuration.properties['racetriage.java.home'];
    delete broken.publisher;
    const problems = checkVsix(vsix(complete.map((e) => (e.name === 'extension/package.json'
      ? { ...e, text: JSON.stringify(broken) } : e))));
    assert.deepEqual(problems, [
      'extension/package.json has no "publisher"',
      'extension/package.json does not activate on workspaceContains:pom.xml',
      'extension/package.json does not declare the setting racetriage.java.home',
    ]);
  });

  it('refuses a package that ships node_modules or sources', () => {
    const problems = checkVsix(vsix([...complete, { name: 'extension/node_modules/x/index.js', text: '' }]));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /ships development files/);
  });
});
