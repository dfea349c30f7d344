import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiagnosticLike, DiagnosticsLedger, ProgressTracker, statusView } from '../src/status/raceStatus';

function diagnostic(line: number, from: number, to: number, code: DiagnosticLike['code'], fieldKey?: string,
    source = 'racetriage'): DiagnosticLike {
  return {
    source, code, data: fieldKey === undefined ? undefined : { fieldKey, status: code },
    range: { start: { line, character: from }, end: { line, character: to } },
  };
}

describe('counting destructive races from the published diagnostics', () => {
  it('counts racetriage diagnostics with code destructive, one per field key, across documents', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('file:///A.java', [
      diagnostic(3, 2, 10, 'destructive', 'p.A.hash'),
      diagnostic(9, 4, 8, 'destructive', 'p.A.hash'), // the same race, reported at an access
      diagnostic(12, 0, 5, 'qos', 'p.A.hits'),
      diagnostic(14, 0, 5, 'destructive', 'p.A.x', 'javac'), // someone else's diagnostic
    ]);
    ledger.update('file:///B.java', [
      diagnostic(1, 0, 5, { value: 'destructive' }, 'p.B.flag'),
      diagnostic(2, 0, 5, 'destructive'), // no key: counted on its own
    ]);
    assert.equal(ledger.destructiveRaces(), 3);
  });

  it('forgets a document\'s old diagnostics when it is published again, and all of them on clear', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('file:///A.java', [diagnostic(3, 2, 10, 'destructive', 'p.A.hash')]);
    ledger.update('file:///A.java', [diagnostic(3, 2, 10, 'benign', 'p.A.hash')]);
    assert.equal(ledger.destructiveRaces(), 0);
    ledger.update('file:///B.java', [diagnostic(3, 2, 10, 'destructive', 'p.B.f')]);
    ledger.clear();
    assert.equal(ledger.destructiveRaces(), 0);
  });

  it('finds the field key under the cursor, the narrowest diagnostic first', () => {
    const ledger = new DiagnosticsLedger();
    ledger.update('file:///A.java', [
      diagnostic(5, 0, 40, 'candidate', 'p.A.wide'),
      diagnostic(5, 10, 14, 'destructive', 'p.A.narrow'),
      diagnostic(7, 0, 4, 'qos'),
    ]);
    assert.equal(ledger.fieldKeyAt('file:///A.java', { line: 5, character: 12 }), 'p.A.narrow');
    assert.equal(ledger.fieldKeyAt('file:///A.java', { line: 5, character: 14 }), 'p.A.narrow');
    assert.equal(ledger.fieldKeyAt('file:///A.java', { line: 5, character: 30 }), 'p.A.wide');
    assert.equal(ledger.fieldKeyAt('file:///A.java', { line: 7, character: 1 }), undefined);
    assert.equal(ledger.fieldKeyAt('file:///B.java', { line: 5, character: 12 }), undefined);
  });
});

describe('the daemon\'s progress', () => {
  it('follows begin, report and end of a work-done token', () => {
    const tracker = new ProgressTracker();
    tracker.apply('racetriage-daemon-7', { kind: 'begin', title: 'racetriage: triaging races', message: '0/4', percentage: 0 });
    tracker.apply('racetriage-daemon-7', { kind: 'report', message: '1/4 — p.A.hash', percentage: 25 });
    assert.deepEqual(tracker.current(), { title: 'racetriage: triaging races', message: '1/4 — p.A.hash', percentage: 25 });
    tracker.apply('racetriage-daemon-7', { kind: 'report', percentage: 50 });
    assert.equal(tracker.current()?.message, '1/4 — p.A.hash');
    tracker.apply('racetriage-daemon-7', { kind: 'end', message: 'racetriage: triage finished' });
    assert.equal(tracker.current(), undefined);
    assert.equal(tracker.lastFinished(), 'racetriage: triage finished');
  });

  it('ignores reports for tokens that never began and shows the newest work', () => {
    const tracker = new ProgressTracker();
    tracker.apply(1, { kind: 'report', message: 'stray' });
    assert.equal(tracker.current(), undefined);
    tracker.apply(1, { kind: 'begin', title: 'first' });
    tracker.apply(2, { kind: 'begin', title: 'second' });
    assert.equal(tracker.current()?.title, 'second');
    tracker.apply(2, { kind: 'end' });
    assert.equal(tracker.current()?.title, 'first');
  });
});

describe('the status bar text', () => {
  it('shows progress and the destructive count while the daemon works', () => {
    const view = statusView('running', 2, { title: 'racetriage: triaging races', message: '3/8 — p.A.hash', percentage: 37.5 });
    assert.equal(view.text, '$(sync~spin) racetriage 38% $(bug) 2');
    assert.match(view.tooltip, /2 destructive races in the open files/);
    assert.match(view.tooltip, /racetriage: triaging races 38% 3\/8 — p\.A\.hash/);
    assert.equal(view.alarm, true);
  });

  it('is quiet with no destructive race, and says when the server is not running', () => {
    assert.deepEqual(statusView('running', 0, undefined), {
      text: 'racetriage $(check) 0', tooltip: 'racetriage: 0 destructive races in the open files', alarm: false,
    });
    assert.match(statusView('running', 1, undefined).tooltip, /1 destructive race in/);
    assert.equal(statusView('failed', 0, undefined).alarm, true);
    assert.match(statusView('starting', 0, undefined).text, /loading~spin/);
  });
});
