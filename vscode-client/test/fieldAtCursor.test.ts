import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFieldKey, fieldKeyFromActions, SERVER_COMMANDS } from '../src/editor/fieldAtCursor';

describe('the field under the cursor from the server\'s quick fixes', () => {
  it('takes the key from the "Triage now" code action, whatever else is offered', () => {
    const actions = [
      { title: 'Add volatile', edit: {} },
      { title: 'Mark `hash` as trusted-benign', command: { command: 'racetriage.markTrustedBenign', arguments: ['p.A.other'] } },
      { title: 'Triage `hash` now', command: { command: SERVER_COMMANDS.triageNow, arguments: ['p.A.hash'] } },
    ];
    assert.equal(fieldKeyFromActions(actions), 'p.A.hash');
  });

  it('also reads a bare command, and finds nothing without one', () => {
    assert.equal(fieldKeyFromActions([{ command: 'racetriage.triageNow', arguments: ['p.B$In.flag'] }]), 'p.B$In.flag');
    assert.equal(fieldKeyFromActions([{ command: { command: 'racetriage.triageNow', arguments: [] } }]), undefined);
    assert.equal(fieldKeyFromActions([]), undefined);
    assert.equal(fieldKeyFromActions(undefined), undefined);
  });

  it('accepts field keys as the README defines them and explains what a key is otherwise', () => {
    assert.equal(checkFieldKey('com.example.Cache.hash'), undefined);
    assert.equal(checkFieldKey('com.example.Outer$Inner.flag'), undefined);
    assert.equal(checkFieldKey(' com.example.Buf.slots[] '), undefined);
    assert.match(checkFieldKey('hash') ?? '', /binary class name and the field name/);
    assert.match(checkFieldKey('com.example.Cache.') ?? '', /binary class name/);
  });
});
