/** The server's command ids (lsp-server `dev.racetriage.lsp.commands.Commands`). */
export const SERVER_COMMANDS = {
  /** `[fieldKey]`: puts the field at the head of the daemon's work queue. */
  triageNow: 'racetriage.triageNow',
  /** `[]`: re-reads the store and re-publishes every open document's diagnostics. */
  refresh: 'racetriage.refresh',
  /** `[fieldKey?]`: shows the dashboard URL the server was configured with. */
  openDashboard: 'racetriage.openDashboard',
} as const;

/** A code action or command as `vscode.executeCodeActionProvider` returns them (only the parts read here). */
export interface ActionLike {
  readonly command?: string | { readonly command: string; readonly arguments?: readonly unknown[] };
  readonly arguments?: readonly unknown[];
}

/**
 * The field key of the server's "Triage `f` now" quick fix among the actions at the cursor. The server offers it for
 * every racy field at a position — also where no diagnostic is (an access of a field declared elsewhere).
 */
export function fieldKeyFromActions(actions: readonly ActionLike[] | undefined): string | undefined {
  for (const action of actions ?? []) {
    // a vscode.Command has `command: string` and `arguments`; a vscode.CodeAction has `command: Command`
    const command = typeof action.command === 'string'
      ? { command: action.command, arguments: action.arguments }
      : action.command;
    if (command?.command === SERVER_COMMANDS.triageNow) {
      const key = command.arguments?.[0];
      if (typeof key === 'string' && key.length > 0) {
        return key;
      }
    }
  }
  return undefined;
}

/** What a field key looks like: a binary class name, a dot, the field, and `[]` for an array race. */
export function checkFieldKey(text: string): string | undefined {
  const key = text.trim();
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)+(\[\])?$/u.test(key)) {
    return 'A field key is the binary class name and the field name, like com.example.Cache.hash or '
      + 'com.example.Outer$Inner.flag (add [] for an array race)';
  }
  return undefined;
}
