import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StreamInfo,
} from 'vscode-languageclient/node';
import { ExtensionSettings, needsRestart, readSettings, serverSettings } from './config/settings';
import { dashboardArgs, ensureDashboard } from './dashboard/dashboardProcess';
import { checkFieldKey, fieldKeyFromActions, SERVER_COMMANDS } from './editor/fieldAtCursor';
import { RaceStatusItem } from './editor/statusItem';
import { discoverJava, JavaRuntime } from './runtime/javaRuntime';
import {
  CommandLine, displayCommand, locateDistribution, lspArgs, racetriageCommand, ServerDistribution,
} from './server/serverLaunch';

/** The extension's own commands (the server's, `racetriage.triageNow` etc., are registered by the language client). */
export const COMMANDS = {
  triageWorkspace: 'racetriage.client.triageWorkspace',
  triageField: 'racetriage.client.triageFieldAtCursor',
  openDashboard: 'racetriage.client.openDashboard',
  showOutput: 'racetriage.client.showOutput',
  restart: 'racetriage.client.restartServer',
} as const;

const TASK_TYPE = 'racetriage';

/** What a running server was started with; the other commands run `racetriage` with the same Java and jars. */
interface Launch {
  readonly java: JavaRuntime;
  readonly distribution: ServerDistribution;
  readonly settings: ExtensionSettings;
}

let session: Session | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  session = new Session(context);
  context.subscriptions.push(session);
  await session.start();
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}

class Session implements vscode.Disposable {
  private readonly output = vscode.window.createOutputChannel('racetriage');
  private readonly status = new RaceStatusItem(COMMANDS.showOutput);
  private readonly disposables: vscode.Disposable[] = [];
  private client: LanguageClient | undefined;
  private launch: Launch | undefined;
  private settings: ExtensionSettings;
  private dashboard: ChildProcess | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.settings = this.readSettings();
    this.disposables.push(
      this.output,
      this.status,
      vscode.commands.registerCommand(COMMANDS.showOutput, () => this.output.show(true)),
      vscode.commands.registerCommand(COMMANDS.restart, () => this.restart()),
      vscode.commands.registerCommand(COMMANDS.triageWorkspace, () => this.triageWorkspace()),
      vscode.commands.registerCommand(COMMANDS.triageField, () => this.triageFieldAtCursor()),
      vscode.commands.registerCommand(COMMANDS.openDashboard, () => this.openDashboard()),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
      vscode.tasks.onDidEndTaskProcess((e) => this.taskEnded(e)),
    );
  }

  private readSettings(): ExtensionSettings {
    const config = vscode.workspace.getConfiguration('racetriage');
    return readSettings((key) => config.get(key), { baseDir: firstFolder()?.uri.fsPath },
      (problem) => this.output.appendLine(`settings: ${problem}`));
  }

  async start(): Promise<void> {
    this.status.setState('starting');
    const launch = await this.prepareLaunch();
    if (!launch) {
      this.status.setState('failed');
      return;
    }
    this.launch = launch;
    const client = new LanguageClient('racetriage', 'racetriage', this.serverOptions(launch), this.clientOptions(launch));
    this.client = client;
    client.onDidChangeState((e) => {
      if (client !== this.client) {
        return;
      }
      if (e.newState === State.Running) {
        this.status.setState('running');
      } else if (e.newState === State.Stopped) {
        this.status.ledger.clear();
        this.status.setState('stopped');
      } else {
        this.status.setState('starting');
      }
    });
    try {
      await client.start();
    } catch (e) {
      this.status.setState('failed');
      this.output.appendLine(`the language server did not start: ${message(e)}`);
      void vscode.window.showErrorMessage(`racetriage: the language server did not start: ${message(e)}`, 'Show Output')
        .then((choice) => choice && this.output.show(true));
    }
  }

  /** Finds Java and the distribution; says what is wrong, with a button to the setting that fixes it. */
  private async prepareLaunch(): Promise<Launch | undefined> {
    const settings = this.settings = this.readSettings();
    const found = await discoverJava({ configuredHome: settings.javaHome, env: process.env, platform: process.platform });
    for (const rejected of found.rejected) {
      this.output.appendLine(`java: skipped ${rejected.source} (${rejected.location}): ${rejected.kind}: ${rejected.detail}`);
    }
    if (!found.ok) {
      this.output.appendLine(found.message);
      offerSetting(found.message, 'racetriage.java.home');
      return undefined;
    }
    this.output.appendLine(`java: Java ${found.runtime.version} from ${found.runtime.source}: ${found.runtime.executable}`);
    const located = locateDistribution(settings.serverPath, this.context.extensionPath);
    if (!located.ok) {
      this.output.appendLine(located.message);
      offerSetting(located.message, 'racetriage.server.path');
      return undefined;
    }
    return { java: found.runtime, distribution: located.distribution, settings };
  }

  private command(launch: Launch, args: readonly string[]): CommandLine {
    return racetriageCommand(launch.distribution, launch.java, args,
      { platform: process.platform, jvmArgs: launch.settings.jvmArgs });
  }

  private serverOptions(launch: Launch): ServerOptions {
    const port = launch.settings.debugPort;
    if (port > 0) {
      const hint = displayCommand(this.command(launch, lspArgs(port)), process.platform);
      this.output.appendLine(`server: attaching to 127.0.0.1:${port} (racetriage.server.debugPort)`);
      return () => new Promise<StreamInfo>((resolve, reject) => {
        const socket = net.connect({ port, host: '127.0.0.1' });
        socket.once('connect', () => resolve({ reader: socket, writer: socket }));
        socket.once('error', (e) => reject(new Error(`nothing accepts connections on 127.0.0.1:${port} (${e.message}); `
          + `start the server with: ${hint} — or set racetriage.server.debugPort to 0`)));
      });
    }
    const line = this.command(launch, lspArgs());
    this.output.appendLine(`server: ${displayCommand(line, process.platform)}`);
    return {
      command: line.command,
      args: [...line.args],
      // no `transport`: with TransportKind.stdio the client appends `--stdio`, which `racetriage lsp` refuses; without
      // one it still speaks over the process's stdin/stdout
      options: { env: { ...process.env, ...line.env }, shell: line.shell, cwd: firstFolder()?.uri.fsPath },
    };
  }

  private clientOptions(launch: Launch): LanguageClientOptions {
    const status = this.status;
    return {
      documentSelector: [{ scheme: 'file', language: 'java' }],
      outputChannel: this.output,
      initializationOptions: this.serverSettings(launch),
      middleware: {
        handleDiagnostics: (uri, diagnostics, next) => {
          status.ledger.update(uri.toString(), diagnostics);
          status.refresh();
          next(uri, diagnostics);
        },
        handleWorkDoneProgress: (token, params, next) => {
          status.progress.apply(token, params);
          status.refresh();
          next(token, params);
        },
      },
    };
  }

  private serverSettings(launch: Launch): object {
    const daemon = this.command({ ...launch, settings: this.settings }, ['daemon']);
    return serverSettings(this.settings, [daemon.command, ...daemon.args]);
  }

  private async configurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (!e.affectsConfiguration('racetriage')) {
      return;
    }
    const before = this.settings;
    this.settings = this.readSettings();
    if (needsRestart(before, this.settings) || !this.client) {
      this.output.appendLine('settings: the Java, server path or JVM options changed; restarting the server');
      await this.restart();
    } else if (this.launch && this.client.isRunning()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type,
        { settings: this.serverSettings(this.launch) });
    }
  }

  async restart(): Promise<void> {
    await this.stopClient();
    await this.start();
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.launch = undefined;
    this.status.ledger.clear();
    if (client) {
      try {
        await client.stop(5000);
      } catch (e) {
        this.output.appendLine(`the server did not stop cleanly: ${message(e)}`);
      }
    }
  }

  /** Runs `racetriage triage FOLDER` as a task (its output in a terminal), then has the server re-read the store. */
  private async triageWorkspace(): Promise<void> {
    const launch = await this.launchOrExplain();
    const folder = launch && await pickMavenFolder();
    if (!launch || !folder) {
      return;
    }
    const line = this.command(launch, ['triage', folder.uri.fsPath]);
    const options = { cwd: folder.uri.fsPath, env: { ...line.env } };
    const execution = line.shell
      ? new vscode.ShellExecution(line.command, [...line.args], options)
      : new vscode.ProcessExecution(line.command, [...line.args], options);
    const task = new vscode.Task({ type: TASK_TYPE, task: 'triage', folder: folder.uri.fsPath }, folder,
      `triage ${folder.name}`, 'racetriage', execution);
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated };
    this.output.appendLine(`triage: ${displayCommand(line, process.platform)}`);
    await vscode.tasks.executeTask(task);
  }

  private taskEnded(e: vscode.TaskProcessEndEvent): void {
    const definition = e.execution.task.definition;
    if (definition.type !== TASK_TYPE || definition.task !== 'triage') {
      return;
    }
    if (e.exitCode === 0) {
      void vscode.window.showInformationMessage(`racetriage: triage of ${path.basename(definition.folder)} finished; `
        + 'the verdicts are in the editor and the dashboard.');
    } else {
      void vscode.window.showErrorMessage(`racetriage: triage of ${definition.folder} failed (exit code ${e.exitCode}); `
        + 'its terminal says why.');
    }
    void this.sendServerCommand(SERVER_COMMANDS.refresh, []);
  }

  /**
   * Sends the server's `racetriage.triageNow [fieldKey]` for the field under the cursor: the key from the racetriage
   * diagnostic there, else from the server's "Triage `f` now" quick fix there, else as typed by the user.
   */
  private async triageFieldAtCursor(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!this.client?.isRunning()) {
      void vscode.window.showWarningMessage('racetriage: the language server is not running; see its output.', 'Show Output')
        .then((choice) => choice && this.output.show(true));
      return;
    }
    let fieldKey: string | undefined;
    if (editor && editor.document.languageId === 'java') {
      const position = editor.selection.active;
      fieldKey = this.status.ledger.fieldKeyAt(editor.document.uri.toString(), position);
      if (!fieldKey) {
        const actions = await vscode.commands.executeCommand<Array<vscode.Command | vscode.CodeAction>>(
          'vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(position, position),
          vscode.CodeActionKind.QuickFix.value);
        fieldKey = fieldKeyFromActions(actions as never);
      }
    }
    if (!fieldKey) {
      fieldKey = await vscode.window.showInputBox({
        title: 'racetriage: triage a field',
        prompt: 'No racy field under the cursor. Which field should the daemon triage next?',
        placeHolder: 'com.example.Cache.hash',
        validateInput: (text) => checkFieldKey(text),
      });
    }
    if (fieldKey) {
      await this.sendServerCommand(SERVER_COMMANDS.triageNow, [fieldKey.trim()]);
    }
  }

  private async sendServerCommand(command: string, args: unknown[]): Promise<void> {
    if (!this.client?.isRunning()) {
      return;
    }
    try {
      await this.client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    } catch (e) {
      void vscode.window.showErrorMessage(`racetriage: ${command} failed: ${message(e)}`);
    }
  }

  /** Opens the dashboard on the configured port, starting `racetriage dashboard` for the workspace when none listens. */
  private async openDashboard(): Promise<void> {
    const launch = await this.launchOrExplain();
    const folder = launch && await pickMavenFolder();
    if (!launch || !folder) {
      return;
    }
    const port = this.settings.dashboardPort;
    const url = `http://127.0.0.1:${port}/`;
    const project = folder.uri.fsPath;
    const database = path.join(project, '.racetriage', 'triage.db');
    try {
      const started = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `racetriage: starting the dashboard on port ${port}` },
        () => ensureDashboard({
          port, url, cwd: project, startTimeoutMs: 60000,
          command: this.command(launch, dashboardArgs(port, project, database)),
          log: (line) => this.output.appendLine(line),
        }));
      if (started.process) {
        this.dashboard?.kill();
        this.dashboard = started.process;
      }
      await vscode.env.openExternal(vscode.Uri.parse(url));
    } catch (e) {
      const noDatabase = !fs.existsSync(database);
      const choice = await vscode.window.showErrorMessage(`racetriage: ${message(e)}`,
        ...(noDatabase ? ['Triage Workspace'] : []), 'Open Settings');
      if (choice === 'Triage Workspace') {
        await vscode.commands.executeCommand(COMMANDS.triageWorkspace);
      } else if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'racetriage.dashboard.port');
      }
    }
  }

  /** The launch of the running server, or a fresh look for Java and the distribution (which explains failures). */
  private async launchOrExplain(): Promise<Launch | undefined> {
    return this.launch ?? this.prepareLaunch();
  }

  async stop(): Promise<void> {
    this.dashboard?.kill();
    this.dashboard = undefined;
    await this.stopClient();
  }

  dispose(): void {
    this.dashboard?.kill();
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** The workspace folder to triage: the only one with a pom.xml, or the user's pick among several. */
async function pickMavenFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const maven = folders.filter((f) => f.uri.scheme === 'file' && fs.existsSync(path.join(f.uri.fsPath, 'pom.xml')));
  if (maven.length === 1) {
    return maven[0];
  }
  if (maven.length === 0) {
    void vscode.window.showErrorMessage('racetriage: no workspace folder is a Maven project (a folder with pom.xml); '
      + 'open the project folder that holds pom.xml.');
    return undefined;
  }
  return vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which Maven project?' })
    .then((f) => (f && maven.includes(f) ? f : undefined));
}

function offerSetting(text: string, setting: string): void {
  void vscode.window.showErrorMessage(text, 'Open Settings').then((choice) => {
    if (choice) {
      void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    }
  });
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
