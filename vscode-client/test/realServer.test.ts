import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import {
  createProtocolConnection, ExecuteCommandRequest, ExitNotification, InitializeRequest, PublishDiagnosticsNotification,
  ShutdownRequest, StreamMessageReader, StreamMessageWriter, WorkDoneProgressCreateRequest, RegistrationRequest,
  DidOpenTextDocumentNotification, InitializedNotification, PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { serverSettings, readSettings } from '../src/config/settings';
import { fieldKeyFromActions, SERVER_COMMANDS } from '../src/editor/fieldAtCursor';
import { discoverJava } from '../src/runtime/javaRuntime';
import { locateDistribution, lspArgs, racetriageCommand } from '../src/server/serverLaunch';
import { DiagnosticsLedger } from '../src/status/raceStatus';
import { BUILT_DISTRIBUTION, racyProject, RACY_COUNTER, skipWithoutDistribution, tempDir } from './fixtures';

const skip = skipWithoutDistribution();

describe('the real racetriage language server, started with the command line the extension builds', { skip }, () => {
  it('initializes with the server commands the extension sends, publishes keyed diagnostics and queues a field', { timeout: 180000 }, async () => {
    const java = await discoverJava({ env: process.env, platform: process.platform });
    assert.ok(java.ok, java.ok ? '' : java.message);
    const located = locateDistribution(BUILT_DISTRIBUTION, tempDir('ext'));
    assert.ok(located.ok, located.ok ? '' : located.message);

    const { project, source } = racyProject();

    const line = racetriageCommand(located.distribution, java.runtime, lspArgs(), { platform: process.platform });
    const child = spawn(line.command, [...line.args], { cwd: project, env: { ...process.env, ...line.env }, shell: line.shell });
    const stderr: string[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const ledger = new DiagnosticsLedger();
    const uri = pathToFileURL(source).toString();
    let published: (p: PublishDiagnosticsParams) => void = () => {};
    const keyed = new Promise<PublishDiagnosticsParams>((resolve) => { published = resolve; });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      ledger.update(params.uri, params.diagnostics);
      if (params.uri === uri && params.diagnostics.some((d) => d.source === 'racetriage')) {
        published(params);
      }
    });
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => null);
    connection.onRequest(RegistrationRequest.type, () => null);
    connection.listen();
    try {
      const settings = readSettings(() => undefined, { baseDir: project }, () => {});
      const daemon = racetriageCommand(located.distribution, java.runtime, ['daemon'], { platform: process.platform });
      const options = serverSettings(settings, [daemon.command, ...daemon.args]);
      // no `mvn dependency:build-classpath` for a project without dependencies
      (options.racetriage as Record<string, unknown>).mavenClasspath = false;
      const init = await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid, rootUri: pathToFileURL(project).toString(), capabilities: {
          window: { workDoneProgress: true },
        },
        workspaceFolders: [{ uri: pathToFileURL(project).toString(), name: 'project' }],
        initializationOptions: options,
      });
      const commands = init.capabilities.executeCommandProvider?.commands ?? [];
      for (const command of Object.values(SERVER_COMMANDS)) {
        assert.ok(commands.includes(command), `the server does not offer ${command}; it offers ${commands.join(', ')}`);
      }
      await connection.sendNotification(InitializedNotification.type, {});
      await connection.sendNotification(DidOpenTextDocumentNotification.type,
        { textDocument: { uri, languageId: 'java', version: 1, text: RACY_COUNTER } });

      const diagnostics = await keyed;
      const hits = diagnostics.diagnostics.find((d) => d.source === 'racetriage');
      assert.ok(hits);
      const key = ledger.fieldKeyAt(uri, hits.range.start);
      assert.equal(key, 'demo.Counter.hits');

      const actions = await connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri }, range: hits.range, context: { diagnostics: [hits] },
      }) as Array<{ command?: { command: string; arguments?: unknown[] } }>;
      assert.equal(fieldKeyFromActions(actions), 'demo.Counter.hits');

      const answer = await connection.sendRequest(ExecuteCommandRequest.type,
        { command: SERVER_COMMANDS.triageNow, arguments: [key] });
      assert.match(String(answer), /queued demo\.Counter\.hits for triage/);

      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      assert.equal(await exited, 0, stderr.join(''));
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});
