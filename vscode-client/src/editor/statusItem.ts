import * as vscode from 'vscode';
import { DiagnosticsLedger, ProgressTracker, ServerState, statusView } from '../status/raceStatus';

/** The status bar item: the daemon's progress and the destructive races in the open files. */
export class RaceStatusItem implements vscode.Disposable {
  readonly ledger = new DiagnosticsLedger();
  readonly progress = new ProgressTracker();
  private readonly item: vscode.StatusBarItem;
  private state: ServerState = 'starting';

  constructor(showOutputCommand: string) {
    this.item = vscode.window.createStatusBarItem('racetriage.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'racetriage';
    this.item.command = showOutputCommand;
    this.refresh();
    this.item.show();
  }

  setState(state: ServerState): void {
    this.state = state;
    if (state !== 'running') {
      this.progress.clear();
    }
    this.refresh();
  }

  refresh(): void {
    const view = statusView(this.state, this.ledger.destructiveRaces(), this.progress.current(), this.progress.lastFinished());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.alarm ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
