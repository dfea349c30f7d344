/* eslint-disable @typescript-eslint/no-explicit-any */
import Module from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

/** vscode.EventEmitter: listeners, fire, and an `event` function as VS Code's. */
export class Emitter<T> {
  private listeners: Array<(value: T) => unknown> = [];
  readonly event = (listener: (value: T) => unknown, thisArg?: unknown, disposables?: Array<{ dispose(): void }>) => {
    const bound = thisArg ? listener.bind(thisArg) : listener;
    this.listeners.push(bound);
    const disposable = { dispose: () => { this.listeners = this.listeners.filter((l) => l !== bound); } };
    disposables?.push(disposable);
    return disposable;
  };

  fire(value: T): void {
    [...this.listeners].forEach((l) => l(value));
  }

  dispose(): void {
    this.listeners = [];
  }
}

class Uri {
  private constructor(readonly scheme: string, readonly fsPath: string, private readonly text: string) {}
  static parse(text: string): Uri {
    const scheme = text.slice(0, Math.max(0, text.indexOf(':')));
    return new Uri(scheme, scheme === 'file' ? fileURLToPath(text) : text, text);
  }
  static file(path: string): Uri {
    return Uri.parse(pathToFileURL(path).toString());
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

class Position {
  constructor(readonly line: number, readonly character: number) {}
}

class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: any, b: any, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : b;
  }
}

class Diagnostic {
  source?: string;
  code?: unknown;
  constructor(readonly range: Range, readonly message: string, readonly severity?: number) {}
}

/** A document as the language client reads it (text sync sends getText(), uri, languageId, version). */
export function textDocument(uri: string, languageId: string, text: string): any {
  const parsed = Uri.parse(uri);
  return {
    uri: parsed, fileName: parsed.fsPath, languageId, version: 1, isClosed: false, isUntitled: false, isDirty: false,
    lineCount: text.split('\n').length, eol: 1, getText: () => text,
  };
}

/**
 * Enough of the `vscode` module to load the bundled extension in node, activate it — language client included — and
 * record what it asks VS Code to do. Names nobody here reads are empty classes (top level) or functions returning a
 * disposable (namespace members), so the language client's feature set loads as it is.
 */
export class VscodeStub {
  readonly registered = new Map<string, (...args: any[]) => unknown>();
  readonly executed: unknown[][] = [];
  readonly errors: Array<{ message: string; items: string[] }> = [];
  readonly infos: string[] = [];
  readonly output: string[] = [];
  readonly statusItems: any[] = [];
  readonly opened: string[] = [];
  /** What the language client put in its diagnostic collection, per document URI. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly onDidOpenTextDocument = new Emitter<any>();
  readonly onDidEndTaskProcess = new Emitter<any>();
  readonly tasks: any[] = [];
  readonly textDocuments: any[] = [];
  activeTextEditor: any;
  /** The button the user "clicks" on the next error message. */
  answer: string | undefined;
  settings: Record<string, unknown> = {};
  folders: Array<{ uri: Uri; name: string; index: number }> = [];

  folder(path: string, name: string): void {
    this.folders.push({ uri: Uri.file(path), name, index: this.folders.length });
  }

  module(): any {
    const stub = this;
    const event = () => new Emitter<any>().event;
    const permissive = (members: Record<string, unknown>) => new Proxy(members, {
      get(target, name) {
        if (typeof name === 'string' && !(name in target)) {
          target[name] = name.startsWith('on') ? event() : () => ({ dispose() {} });
        }
        return target[name as string];
      },
    });
    const known: Record<string, unknown> = {
      // the bundle then uses this object as it is instead of copying the names it has now
      __esModule: true,
      version: '1.85.0',
      Uri, Position, Range, Diagnostic, EventEmitter: Emitter,
      CancellationError: class extends Error {},
      CancellationTokenSource: class {
        private readonly cancelled = new Emitter<void>();
        readonly token = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
        cancel() { this.token.isCancellationRequested = true; this.cancelled.fire(); }
        dispose() {}
      },
      Disposable: class {
        constructor(private readonly fn: () => void) {}
        static from(...all: Array<{ dispose(): void }>) { return { dispose: () => all.forEach((d) => d.dispose()) }; }
        dispose() { this.fn(); }
      },
      // the bundle copies the names of `vscode` when it loads: what the extension's own code uses must be here
      CodeActionKind: { QuickFix: { value: 'quickfix' } },
      Task: class { presentationOptions: unknown; constructor(readonly definition: any, readonly scope: unknown,
        readonly name: string, readonly source: string, readonly execution: any) {} },
      ProcessExecution: class { constructor(readonly process: string, readonly args: string[], readonly options: any) {} },
      ShellExecution: class { constructor(readonly command: string, readonly args: string[], readonly options: any) {} },
      TaskRevealKind: { Always: 1, Silent: 2, Never: 3 },
      TaskPanelKind: { Shared: 1, Dedicated: 2, New: 3 },
      tasks: permissive({
        executeTask: (task: any) => { stub.tasks.push(task); return Promise.resolve({ task }); },
        onDidEndTaskProcess: stub.onDidEndTaskProcess.event,
      }),
      StatusBarAlignment: { Left: 1, Right: 2 },
      ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
      ThemeColor: class { constructor(readonly id: string) {} },
      window: permissive({
        get activeTextEditor() { return stub.activeTextEditor; },
        visibleTextEditors: [],
        tabGroups: { all: [], onDidChangeTabs: event(), onDidChangeTabGroups: event() },
        createOutputChannel: (name: string) => ({
          name, appendLine: (line: string) => stub.output.push(line), append: (text: string) => stub.output.push(text),
          show() {}, clear() {}, dispose() {}, replace() {},
        }),
        createStatusBarItem: () => {
          const item = { text: '', tooltip: '', show() {}, hide() {}, dispose() {} };
          stub.statusItems.push(item);
          return item;
        },
        showErrorMessage: (message: string, ...items: any[]) => {
          stub.errors.push({ message, items: items.filter((i) => typeof i === 'string') });
          return Promise.resolve(stub.answer);
        },
        showWarningMessage: () => Promise.resolve(undefined),
        showInformationMessage: (message: string) => {
          stub.infos.push(message);
          return Promise.resolve(undefined);
        },
        withProgress: (_: unknown, task: (p: unknown, t: unknown) => unknown) =>
          task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: event() }),
      }),
      commands: permissive({
        registerCommand: (id: string, handler: (...args: any[]) => unknown) => {
          if (stub.registered.has(id)) {
            throw new Error(`command '${id}' already exists`);
          }
          stub.registered.set(id, handler);
          return { dispose: () => stub.registered.delete(id) };
        },
        executeCommand: (...args: unknown[]) => {
          stub.executed.push(args);
          return Promise.resolve(undefined);
        },
      }),
      workspace: permissive({
        getConfiguration: () => ({ get: (key: string, fallback?: unknown) => stub.settings[key] ?? fallback, has: () => false }),
        get workspaceFolders() { return stub.folders; },
        get textDocuments() { return stub.textDocuments; },
        onDidOpenTextDocument: stub.onDidOpenTextDocument.event,
        isTrusted: true,
        createFileSystemWatcher: () => ({ onDidCreate: event(), onDidChange: event(), onDidDelete: event(), dispose() {} }),
      }),
      languages: permissive({
        match: (selector: any, document: any) => ([] as any[]).concat(selector).some((f) => (typeof f === 'string'
          ? f === document.languageId
          : (!f.language || f.language === document.languageId) && (!f.scheme || f.scheme === document.uri.scheme))) ? 10 : 0,
        createDiagnosticCollection: (name: string) => ({
          name,
          set: (uri: Uri, diagnostics: Diagnostic[] | undefined) => stub.diagnostics.set(uri.toString(), diagnostics ?? []),
          delete: (uri: Uri) => stub.diagnostics.delete(uri.toString()),
          get: (uri: Uri) => stub.diagnostics.get(uri.toString()),
          has: (uri: Uri) => stub.diagnostics.has(uri.toString()),
          clear: () => stub.diagnostics.clear(),
          forEach() {},
          dispose() {},
        }),
      }),
      env: permissive({
        language: 'en', appName: 'stub', machineId: 'stub',
        openExternal: (uri: Uri) => { stub.opened.push(uri.toString()); return Promise.resolve(true); },
      }),
    };
    return new Proxy(known, {
      get(target, name) {
        if (typeof name === 'string' && !(name in target)) {
          // namespaces (tasks, debug, ...) are lower case, classes and enums upper case
          target[name] = /^[a-z]/.test(name) ? permissive({}) : class {};
        }
        return target[name as string];
      },
    });
  }

  /** Loads a fresh copy of the bundle with this stub as `vscode`. */
  load(bundle: string): { activate(context: unknown): Promise<void>; deactivate(): Promise<void> } {
    const loader = Module as any;
    const original = loader._load;
    const vscode = this.module();
    loader._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? vscode : original.call(this, request, ...rest);
    };
    try {
      delete require.cache[require.resolve(bundle)];
      return require(bundle);
    } finally {
      loader._load = original;
    }
  }
}

/** Waits until pending promise callbacks (the error message's button) have run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Waits for a condition the server brings about (its answers arrive on the event loop), within a bound. */
export async function eventually<T>(what: string, probe: () => T | undefined, limitMs = 120000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
