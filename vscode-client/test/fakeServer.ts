// A scripted language server for the status bar test: it reports daemon progress and publishes destructive
// diagnostics the way racetriage's server does, and ends the progress when the client sends racetriage.refresh.
// Started through a launcher script, as `racetriage.server.path` allows.
import {
  createProtocolConnection, ExecuteCommandRequest, InitializedNotification, InitializeRequest,
  PublishDiagnosticsNotification, ShutdownRequest, ExitNotification, StreamMessageReader, StreamMessageWriter,
  WorkDoneProgress, WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';

const documentUri = process.env.FAKE_SERVER_DOCUMENT ?? 'file:///A.java';
const token = 'racetriage-daemon-1';
const connection = createProtocolConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));

function diagnostic(line: number, code: string, fieldKey: string) {
  return {
    range: { start: { line, character: 2 }, end: { line, character: 6 } },
    severity: code === 'destructive' ? 1 : 2, source: 'racetriage', code, message: `${code} data race`,
    data: { fieldKey, status: code },
  };
}

connection.onRequest(InitializeRequest.method, () => ({
  capabilities: { textDocumentSync: 1, executeCommandProvider: { commands: ['racetriage.triageNow', 'racetriage.refresh'] } },
}));
connection.onNotification(InitializedNotification.type, async () => {
  await connection.sendRequest(WorkDoneProgressCreateRequest.type, { token });
  await connection.sendProgress(WorkDoneProgress.type, token,
    { kind: 'begin', title: 'racetriage: triaging races', message: '1/4 — demo.A.f', percentage: 25 });
  await connection.sendNotification(PublishDiagnosticsNotification.method, {
    uri: documentUri,
    diagnostics: [
      diagnostic(3, 'destructive', 'demo.A.f'),
      diagnostic(7, 'destructive', 'demo.A.f'),
      diagnostic(9, 'destructive', 'demo.A.g'),
      diagnostic(11, 'qos', 'demo.A.h'),
    ],
  });
});
connection.onRequest(ExecuteCommandRequest.type, async (params) => {
  if (params.command === 'racetriage.refresh') {
    await connection.sendProgress(WorkDoneProgress.type, token, { kind: 'end', message: 'racetriage: triage finished' });
  }
  return null;
});
connection.onRequest(ShutdownRequest.type, () => null);
connection.onNotification(ExitNotification.type, () => process.exit(0));
connection.listen();
