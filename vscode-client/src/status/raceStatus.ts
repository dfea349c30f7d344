/** What the status bar shows: the daemon's progress and how many destructive races the open files have. */

export const DIAGNOSTIC_SOURCE = 'racetriage';
export const DESTRUCTIVE = 'destructive';

export interface PositionLike {
  readonly line: number;
  readonly character: number;
}

/** The parts of a published diagnostic (LSP or vscode.Diagnostic) this module reads. */
export interface DiagnosticLike {
  readonly source?: string;
  readonly code?: string | number | { readonly value: string | number };
  readonly data?: unknown;
  readonly range: { readonly start: PositionLike; readonly end: PositionLike };
}

/** A racetriage diagnostic reduced to what the status bar and "triage the field under the cursor" need. */
export interface RaceMark {
  readonly code: string;
  readonly fieldKey: string | undefined;
  readonly range: DiagnosticLike['range'];
}

/** The racetriage diagnostics of every document, as the server last published them. */
export class DiagnosticsLedger {
  private readonly byUri = new Map<string, RaceMark[]>();

  /** Replaces a document's diagnostics (a publish always carries the complete set for that document). */
  update(uri: string, diagnostics: readonly DiagnosticLike[]): void {
    const marks = diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE).map((d) => ({
      code: codeOf(d),
      fieldKey: fieldKeyOf(d),
      range: d.range,
    }));
    if (marks.length === 0) {
      this.byUri.delete(uri);
    } else {
      this.byUri.set(uri, marks);
    }
  }

  clear(): void {
    this.byUri.clear();
  }

  /**
   * Destructive races: one per field key (a field's race may be reported at several places), and one per
   * diagnostic for the rare one that carries no key.
   */
  destructiveRaces(): number {
    const keys = new Set<string>();
    let unkeyed = 0;
    for (const marks of this.byUri.values()) {
      for (const mark of marks) {
        if (mark.code !== DESTRUCTIVE) {
          continue;
        }
        if (mark.fieldKey) {
          keys.add(mark.fieldKey);
        } else {
          unkeyed++;
        }
      }
    }
    return keys.size + unkeyed;
  }

  /** The field key of the racetriage diagnostic at a position; the narrowest one when several overlap. */
  fieldKeyAt(uri: string, position: PositionLike): string | undefined {
    const hits = (this.byUri.get(uri) ?? [])
      .filter((m) => m.fieldKey !== undefined && contains(m.range, position))
      .sort((a, b) => span(a.range) - span(b.range));
    return hits[0]?.fieldKey;
  }
}

export function codeOf(diagnostic: DiagnosticLike): string {
  const code = diagnostic.code;
  if (code === undefined) {
    return '';
  }
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** The server puts `{"fieldKey": "pkg.Cls.field", "status": ...}` in every diagnostic's `data`. */
export function fieldKeyOf(diagnostic: DiagnosticLike): string | undefined {
  const data = diagnostic.data;
  if (data && typeof data === 'object' && typeof (data as { fieldKey?: unknown }).fieldKey === 'string') {
    const key = (data as { fieldKey: string }).fieldKey;
    return key.length > 0 ? key : undefined;
  }
  return undefined;
}

function contains(range: DiagnosticLike['range'], p: PositionLike): boolean {
  return !before(p, range.start) && !before(range.end, p);
}

function before(a: PositionLike, b: PositionLike): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function span(range: DiagnosticLike['range']): number {
  return (range.end.line - range.start.line) * 100000 + (range.end.character - range.start.character);
}

/** `$/progress` work-done values (LSP WorkDoneProgressBegin / Report / End). */
export type WorkDoneValue =
  | { readonly kind: 'begin'; readonly title: string; readonly message?: string; readonly percentage?: number }
  | { readonly kind: 'report'; readonly message?: string; readonly percentage?: number }
  | { readonly kind: 'end'; readonly message?: string };

export interface ActiveWork {
  readonly title: string;
  readonly message: string | undefined;
  readonly percentage: number | undefined;
}

/** Follows the server's work-done progress tokens; the newest unfinished one is what the status bar shows. */
export class ProgressTracker {
  private readonly active = new Map<string, ActiveWork>();
  private lastEnd: string | undefined;

  apply(token: string | number, value: WorkDoneValue): void {
    const key = String(token);
    if (value.kind === 'begin') {
      this.active.delete(key);
      this.active.set(key, { title: value.title, message: value.message, percentage: value.percentage });
    } else if (value.kind === 'report') {
      const work = this.active.get(key);
      if (work) {
        this.active.set(key, {
          title: work.title,
          message: value.message ?? work.message,
          percentage: value.percentage ?? work.percentage,
        });
      }
    } else {
      this.active.delete(key);
      this.lastEnd = value.message;
    }
  }

  clear(): void {
    this.active.clear();
  }

  current(): ActiveWork | undefined {
    let last: ActiveWork | undefined;
    for (const work of this.active.values()) {
      last = work;
    }
    return last;
  }

  lastFinished(): string | undefined {
    return this.lastEnd;
  }
}

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  /** Whether the item should draw attention (destructive races, or a server that is not running). */
  readonly alarm: boolean;
}

/** The status bar item's text: codicons for VS Code, the counts in words in the tooltip. */
export function statusView(state: ServerState, destructive: number, work: ActiveWork | undefined,
    lastFinished?: string): StatusView {
  if (state === 'failed') {
    return { text: '$(error) racetriage', tooltip: 'racetriage: the language server is not running; click for its output',
      alarm: true };
  }
  if (state === 'stopped') {
    return { text: '$(debug-stop) racetriage', tooltip: 'racetriage: the language server is stopped', alarm: false };
  }
  if (state === 'starting') {
    return { text: '$(loading~spin) racetriage', tooltip: 'racetriage: starting the language server', alarm: false };
  }
  const races = destructive === 1 ? '1 destructive race' : `${destructive} destructive races`;
  const count = destructive > 0 ? `$(bug) ${destructive}` : '$(check) 0';
  const lines = [`racetriage: ${races} in the open files`];
  if (work) {
    const percent = work.percentage !== undefined ? ` ${Math.round(work.percentage)}%` : '';
    const detail = work.message ? ` ${work.message}` : '';
    lines.push(`${work.title}${percent}${detail}`);
    return { text: `$(sync~spin) racetriage${percent} ${count}`, tooltip: lines.join('\n'), alarm: destructive > 0 };
  }
  if (lastFinished) {
    lines.push(lastFinished);
  }
  return { text: `racetriage ${count}`, tooltip: lines.join('\n'), alarm: destructive > 0 };
}
