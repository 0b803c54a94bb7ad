import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { baseName, canApply, fixOutcome, fixState, hasMagic, matchWeight, textDoc, verdictOf, verifiedState } from '../src/model/fixes';
import { parseReport } from '../src/model/report';
import { Report } from '../src/model/types';

const SAMPLE = resolve(__dirname, '../../../tests/samples/seed000_sample.json');
const sample = (): Report => {
  const r = parseReport(JSON.parse(readFileSync(SAMPLE, 'utf8')));
  assert.ok(r.ok);
  return r.report;
};
const byId = (r: Report, id: string) => r.findings.find(f => f.id === id)!;
/** The cell as the notebook holds it: the report's source without its final newline. */
const cellText = (r: Report): string => r.cell.source.replace(/\n$/, '');

test('only fixes with edits that are not display-only can be applied', () => {
  const r = sample();
  assert.equal(canApply(byId(r, 'f1')), true);
  assert.equal(canApply(byId(r, 'f3')), false, 'TM303 is display-only');
  assert.deepEqual(fixState(byId(r, 'f3'), cellText(r), r.cell.source), { kind: 'none' });
});

test('a fix on unchanged text is ready, with its change in editor offsets', () => {
  const r = sample();
  const text = cellText(r);
  const st = fixState(byId(r, 'f1'), text, r.cell.source);
  assert.equal(st.kind, 'ready');
  if (st.kind !== 'ready') {
    return;
  }
  assert.equal(st.unsafe, true);
  assert.equal(st.changes.length, 1);
  const c = st.changes[0];
  assert.equal(text.slice(c.from, c.to), 'y_pred.numpy()');
  const fixed = text.slice(0, c.from) + c.insert + text.slice(c.to);
  assert.equal(fixed.split('\n')[5], '    p = y_pred');
});

test('edits elsewhere keep the fix; a change on its line or a shift makes it stale', () => {
  const r = sample();
  const text = cellText(r);
  const f = byId(r, 'f1');
  assert.equal(fixState(f, text.replace('tape.watch(x)', 'tape.watch(x)  # ok'), r.cell.source).kind, 'ready');
  assert.deepEqual(fixState(f, text.replace('y_pred.numpy()', 'y_pred.numpy( )'), r.cell.source), {
    kind: 'stale',
    reason: 'changed',
    unsafe: true
  });
  assert.equal(fixState(f, '# a new first line\n' + text, r.cell.source).kind, 'stale');
  assert.deepEqual(fixState(f, 'x = 1', r.cell.source), { kind: 'stale', reason: 'unplaceable', unsafe: true });
});

test('a finding in another cell is checked against its source_line', () => {
  const r = sample();
  const f = byId(r, 'f1');
  const other = ['def custom_loss(y_true, y_pred):', 'x = 0', 'y = 1', 'z = 2', 'w = 3', '    p = y_pred.numpy()'].join('\n');
  assert.equal(fixState(f, other, null).kind, 'ready');
  assert.equal(fixState(f, other.replace('numpy()', 'numpy() + 0'), null).kind, 'stale');
});

test('textDoc lines and the magic line', () => {
  const d = textDoc('a\nbc\n');
  assert.equal(d.lines, 3);
  assert.deepEqual(d.line(2), { from: 2, text: 'bc' });
  assert.ok(hasMagic('%%gradcheck\nx'));
  assert.ok(hasMagic('%%gradcheck --eager\nx'));
  assert.ok(!hasMagic('%%gradchecker\nx'));
  assert.ok(!hasMagic('x = 1\n%%gradcheck'));
});

test('the outcome compares the named weights between the two reports', () => {
  const before = sample();
  const after = sample();
  for (const call of after.gradient_calls) {
    for (const s of call.sources) {
      s.verdict = s.variable.endsWith('bias') ? 'connected' : 'severed';
    }
  }
  after.gradient_calls[0].sources[0].verdict = 'connected';
  const out = fixOutcome(before, after, byId(before, 'f1'));
  assert.equal(out.total, 4);
  assert.equal(out.connected, 3);
  assert.deepEqual(out.changes[3], { variable: 'sequential/out/bias', before: 'severed', after: 'connected' });
  assert.deepEqual(out.changes[2], { variable: 'sequential/out/kernel', before: 'severed', after: 'severed' });
  assert.equal(verdictOf(after, 'no/such/weight'), 'absent');
});

test('a re-run that rebuilt the model is matched by layer and variable name, in order', () => {
  const before = sample();
  const after = sample();
  // the re-run in the same kernel: Keras named the new model and its layers anew
  for (const call of after.gradient_calls) {
    for (const s of call.sources) {
      s.variable = s.variable.replace('sequential/', 'sequential_1/').replace('/h/', '/h_2/').replace('/out/', '/out_3/');
      s.verdict = 'connected';
    }
  }
  const out = fixOutcome(before, after, byId(before, 'f1'));
  assert.equal(out.connected, 4);
  assert.equal(out.absent, 0);
  assert.deepEqual(out.changes[0], {
    variable: 'sequential/h/kernel',
    before: 'severed',
    after: 'connected',
    now: 'sequential_1/h_2/kernel'
  });
  assert.equal(matchWeight(before, after, 'sequential/out/bias'), 'sequential_1/out_3/bias');
  assert.equal(baseName('sequential_1/dense_12/kernel'), 'sequential/dense/kernel');
});

test('two layers of one class keep their order when both are renamed', () => {
  const before = sample();
  const after = sample();
  const rename: Record<string, string> = {
    'sequential/h/kernel': 'sequential/q/kernel',
    'sequential/h/bias': 'sequential/q/bias',
    'sequential/out/kernel': 'sequential/q_1/kernel',
    'sequential/out/bias': 'sequential/q_1/bias'
  };
  const renamedAfter: Record<string, string> = {
    'sequential/h/kernel': 'sequential_1/q_2/kernel',
    'sequential/h/bias': 'sequential_1/q_2/bias',
    'sequential/out/kernel': 'sequential_1/q_3/kernel',
    'sequential/out/bias': 'sequential_1/q_3/bias'
  };
  for (const call of before.gradient_calls) {
    for (const s of call.sources) {
      s.variable = rename[s.variable] ?? s.variable;
    }
  }
  for (const call of after.gradient_calls) {
    for (const s of call.sources) {
      s.variable = renamedAfter[s.variable] ?? s.variable;
    }
  }
  assert.equal(matchWeight(before, after, 'sequential/q_1/kernel'), 'sequential_1/q_3/kernel');
  assert.equal(matchWeight(before, after, 'sequential/q/bias'), 'sequential_1/q_2/bias');
  assert.equal(matchWeight(before, after, 'no/such/weight'), null);
});

test('weights not in the new report are counted as such, never as connected', () => {
  const before = sample();
  const after = sample();
  after.gradient_calls = [];
  const out = fixOutcome(before, after, byId(before, 'f1'));
  assert.equal(out.connected, 0);
  assert.equal(out.absent, out.total);
});

test('only a fix that keeps values is shown as a plain verified', () => {
  const fix = { ...byId(sample(), 'f1').fix! };
  assert.equal(verifiedState({ ...fix, verified: null }), null);
  assert.equal(verifiedState({ ...fix, verified: false }), 'no');
  assert.equal(verifiedState({ ...fix, verified: true, keeps_value: true }), 'yes');
  assert.equal(verifiedState({ ...fix, verified: true }), 'yes', 'an older report: no field');
  assert.equal(verifiedState({ ...fix, verified: true, keeps_value: false }), 'changes');
});
