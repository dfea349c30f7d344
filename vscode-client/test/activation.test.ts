import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  BUILT_DISTRIBUTION, fakeDistribution, fakeJdk, OPENJDK_17, racyProject, RACY_COUNTER, skipWithoutDistribution, tempDir,
} from './fixtures';
import { eventually, settle, textDocument, VscodeStub } from './vscodeStub';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** The bundle `npm run build` makes; `npm test` builds it first. */
const bundle = path.resolve(__dirname, '..', '..', 'dist', 'extension.js');
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
const posixOnly = process.platform === 'win32' ? 'fake JDKs are shell scripts' : false;

function context(extensionPath: string) {
  return { extensionPath, subscriptions: [] as Array<{ dispose(): void }> };
}

describe('activating the bundled extension (VS Code stubbed)', { skip: posixOnly }, () => {
  it('says a configured Java is missing, offers the setting, and the button opens it', async () => {
    const vscode = new VscodeStub();
    vscode.settings = { 'java.home': path.join(tempDir('nojdk'), 'jdk-17') };
    vscode.answer = 'Open Settings';
    const extension = vscode.load(bundle);
    const ctx = context(tempDir('ext'));
    await extension.activate(ctx);
    await settle();

    assert.equal(vscode.errors.length, 1);
    assert.match(vscode.errors[0].message, /cannot use the Java in racetriage\.java\.home/);
    assert.deepEqual(vscode.errors[0].items, ['Open Settings']);
    assert.deepEqual(vscode.executed, [['workbench.action.openSettings', 'racetriage.java.home']]);
    assert.equal(vscode.statusItems[0].text, '$(error) racetriage');
    assert.ok(vscode.output.some((l) => l.startsWith('java: skipped racetriage.java.home')));
    await extension.deactivate();
    ctx.subscriptions.forEach((d) => d.dispose());
  });

  it('says an extension without a server and without racetriage.server.path cannot start', async () => {
    const vscode = new VscodeStub();
    vscode.settings = { 'java.home': fakeJdk(tempDir('jdk'), { release: '17', prints: OPENJDK_17 }) };
    vscode.answer = 'Open Settings';
    const extension = vscode.load(bundle);
    await extension.activate(context(tempDir('bare-ext')));
    await settle();

    assert.equal(vscode.errors.length, 1);
    assert.match(vscode.errors[0].message, /no bundled server/);
    assert.deepEqual(vscode.executed, [['workbench.action.openSettings', 'racetriage.server.path']]);
    assert.ok(vscode.output.some((l) => /^java: Java 17 from racetriage\.java\.home/.test(l)));
    await extension.deactivate();
  });

  it('registers exactly the commands package.json contributes', async () => {
    const vscode = new VscodeStub();
    vscode.settings = { 'java.home': path.join(tempDir('nojdk2'), 'missing') };
    const extension = vscode.load(bundle);
    await extension.activate(context(tempDir('ext3')));
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual([...vscode.registered.keys()].sort(), contributed);
    for (const id of contributed) {
      assert.ok(!['racetriage.triageNow', 'racetriage.refresh', 'racetriage.openDashboard', 'racetriage.markTrustedBenign']
        .includes(id), `${id} is a server command id; the language client registers those itself`);
    }
    await extension.deactivate();
  });

  it('explains Triage Workspace in a folder that is not a Maven project', async () => {
    const vscode = new VscodeStub();
    const folder = tempDir('not-maven');
    vscode.settings = {
      'java.home': fakeJdk(tempDir('jdk2'), { release: '17', prints: OPENJDK_17 }),
      'server.path': path.join(tempDir('missing-dist'), 'nothing-here'),
    };
    vscode.folder(folder, 'not-maven');
    const extension = vscode.load(bundle);
    await extension.activate(context(tempDir('ext4')));
    vscode.errors.length = 0;
    // the distribution is fixed in the meantime: the command looks again instead of using a stale failure
    vscode.settings['server.path'] = fakeDistribution(tempDir('dist'));
    await vscode.registered.get('racetriage.client.triageWorkspace')!();
    await settle();
    assert.equal(vscode.errors.length, 1, JSON.stringify(vscode.errors));
    assert.match(vscode.errors[0].message, /no workspace folder is a Maven project/);
    await extension.deactivate();
  });
});

describe('the bundled extension with the real server (VS Code stubbed)', { skip: skipWithoutDistribution() }, () => {
  it('starts the server, counts its diagnostics, triages the field under the cursor and runs a workspace triage task',
    { timeout: 180000 }, async () => {
      const vscode = new VscodeStub();
      const { project, source } = racyProject();
      const port = await freePort();
      vscode.settings = { 'server.path': BUILT_DISTRIBUTION, 'dashboard.port': port };
      vscode.folder(project, 'project');
      const extension = vscode.load(bundle);
      const ctx = context(tempDir('ext-real'));
      try {
        await extension.activate(ctx);
        assert.deepEqual(vscode.errors, []);
        const status = vscode.statusItems[0];
        assert.equal(status.text, 'racetriage $(check) 0');

        const uri = pathToFileURL(source).toString();
        const document = textDocument(uri, 'java', RACY_COUNTER);
        vscode.textDocuments.push(document);
        vscode.onDidOpenTextDocument.fire(document);
        const published = await eventually('racetriage diagnostics for Counter.java',
          () => vscode.diagnostics.get(uri)?.find((d) => d.source === 'racetriage'));
        // a static candidate (its code names the pattern), keyed by field: not a destructive verdict
        assert.equal((published as unknown as { data: { fieldKey: string } }).data.fieldKey, 'demo.Counter.hits');
        assert.notEqual(published.code, 'destructive');
        assert.match(status.tooltip, /0 destructive races in the open files/);

        vscode.activeTextEditor = { document, selection: { active: published.range.start } };
        await vscode.registered.get('racetriage.client.triageFieldAtCursor')!();
        // the server answers racetriage.triageNow with a window/showMessage
        await eventually('the server\'s answer to racetriage.triageNow',
          () => vscode.infos.find((m) => /queued demo\.Counter\.hits for triage/.test(m)));
        // the key came from the published diagnostic the middleware recorded, not from the code-action fallback
        assert.ok(!vscode.executed.some((call) => call[0] === 'vscode.executeCodeActionProvider'));

        await vscode.registered.get('racetriage.client.triageWorkspace')!();
        assert.equal(vscode.tasks.length, 1);
        const task = vscode.tasks[0];
        assert.deepEqual(task.definition, { type: 'racetriage', task: 'triage', folder: project });
        assert.deepEqual(task.execution.args.slice(-2), ['triage', project]);
        assert.match(task.execution.args.join(' '), /-cp \S+racetriage-cli\.jar:\S+lib\/\* dev\.racetriage\.cli\.RacetriageCommand/);

        // the queued field created the project's triage database, so the dashboard can serve it
        assert.ok(fs.existsSync(path.join(project, '.racetriage', 'triage.db')));
        await vscode.registered.get('racetriage.client.openDashboard')!();
        assert.deepEqual(vscode.errors, []);
        assert.deepEqual(vscode.opened, [`http://127.0.0.1:${port}/`]);

        // the server also offers its own commands; the language client registers them beside ours
        assert.ok(vscode.registered.has('racetriage.triageNow'));
      } finally {
        await extension.deactivate();
        ctx.subscriptions.forEach((d) => d.dispose());
      }
    });
});

describe('the status bar with a scripted server (VS Code stubbed)', { skip: posixOnly }, () => {
  it('shows the daemon\'s progress and the destructive races, and the end of the work after a triage task', async () => {
    const vscode = new VscodeStub();
    const { project, source } = racyProject();
    const uri = pathToFileURL(source).toString();
    const launcher = path.join(tempDir('fake-launcher'), 'racetriage');
    fs.writeFileSync(launcher, `#!/bin/sh\nFAKE_SERVER_DOCUMENT='${uri}' exec '${process.execPath}' '${path.join(__dirname, 'fakeServer.js')}' "$@"\n`);
    fs.chmodSync(launcher, 0o755);
    vscode.settings = { 'java.home': fakeJdk(tempDir('jdk3'), { release: '17', prints: OPENJDK_17 }), 'server.path': launcher };
    vscode.folder(project, 'project');
    const extension = vscode.load(bundle);
    const ctx = context(tempDir('ext-fake'));
    try {
      await extension.activate(ctx);
      const status = vscode.statusItems[0];
      await eventually('the progress and the count in the status bar', () => status.text === '$(sync~spin) racetriage 25% $(bug) 2');
      assert.match(status.tooltip, /2 destructive races in the open files/);
      assert.match(status.tooltip, /racetriage: triaging races 25% 1\/4 — demo\.A\.f/);
      assert.equal(status.backgroundColor?.id, 'statusBarItem.errorBackground');
      assert.equal(vscode.diagnostics.get(uri)?.length, 4, 'the middleware passes the diagnostics on');

      // a finished triage task makes the extension send racetriage.refresh, after which this server ends its work
      await vscode.registered.get('racetriage.client.triageWorkspace')!();
      vscode.onDidEndTaskProcess.fire({ execution: { task: vscode.tasks[0] }, exitCode: 0 });
      await eventually('the end of the work', () => status.text === 'racetriage $(bug) 2');
      assert.match(status.tooltip, /racetriage: triage finished/);
      assert.ok(vscode.infos.some((m) => m.includes(`triage of ${path.basename(project)} finished`)), vscode.infos.join('\n'));
    } finally {
      await extension.deactivate();
      ctx.subscriptions.forEach((d) => d.dispose());
    }
  });
});
