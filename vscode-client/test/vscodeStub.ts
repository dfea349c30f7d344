/* eslint-disable @typescript-eslint/no-explicit-any */
import Module from 'node:module';

/**
 * Just enough of the `vscode` module to load the bundled extension in node and activate it, recording what it asks
 * VS Code to do. Names the bundle only touches at load time (classes the language client extends) are empty classes.
 */
export class VscodeStub {
  readonly registered = new Map<string, (...args: any[]) => unknown>();
  readonly executed: unknown[][] = [];
  readonly errors: Array<{ message: string; items: string[] }> = [];
  readonly output: string[] = [];
  readonly statusItems: any[] = [];
  /** The button the user "clicks" on the next error message. */
  answer: string | undefined;
  settings: Record<string, unknown> = {};
  folders: Array<{ uri: { fsPath: string; scheme: string }; name: string; index: number }> = [];

  module(): any {
    const stub = this;
    const event = () => () => ({ dispose() {} });
    const known: Record<string, unknown> = {
      StatusBarAlignment: { Left: 1, Right: 2 },
      ThemeColor: class { constructor(readonly id: string) {} },
      window: {
        createOutputChannel: (name: string) => ({
          name, appendLine: (line: string) => stub.output.push(line), append() {}, show() {}, clear() {}, dispose() {},
        }),
        createStatusBarItem: () => {
          const item = { text: '', tooltip: '', show() {}, hide() {}, dispose() {} };
          stub.statusItems.push(item);
          return item;
        },
        showErrorMessage: (message: string, ...items: string[]) => {
          stub.errors.push({ message, items });
          return Promise.resolve(stub.answer);
        },
        showWarningMessage: () => Promise.resolve(undefined),
        showInformationMessage: () => Promise.resolve(undefined),
      },
      commands: {
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
      },
      workspace: {
        getConfiguration: () => ({ get: (key: string) => stub.settings[key] }),
        get workspaceFolders() { return stub.folders; },
        onDidChangeConfiguration: event(),
      },
      tasks: { onDidEndTaskProcess: event() },
    };
    return new Proxy(known, {
      get(target, name) {
        if (typeof name === 'string' && !(name in target)) {
          target[name] = class {};
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
