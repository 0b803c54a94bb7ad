import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocLike } from '../src/model/positions';
import { hintChanges, hintRange, IHint, parseHints } from '../src/hints/model';
import { countHints, HINT_SOURCE, overlaps, replaceHints, RUNTIME_SOURCE, runtimeRanges } from '../src/hints/merge';
import { Diagnostic, forEachDiagnostic, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';

/** A CodeMirror-Text-like document over a string. */
function doc(text: string): DocLike & { text: string } {
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return { text, lines: lines.length, line: (n: number) => ({ from: starts[n - 1], text: lines[n - 1] }) };
}

const CELL = '%%gradcheck\nwith tf.GradientTape() as tape:\n    p = y.numpy()\n    loss = tf.reduce_sum(p)';

/** A hint as the endpoint sends it, on `y.numpy()` (line 3, columns 8 to 17). */
function wire(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    path: 'nb.ipynb', code: 'TM301', cause: 'host-round-trip', name: 'host-round-trip',
    severity: 'hint', message: '`.numpy()` may cut the gradient', line: 3, col: 8, end_line: 3, end_col: 17,
    fix: { title: 'Keep the tensor', applicability: 'unsafe', edits: [{ line: 3, col: 9, end_line: 3, end_col: 17, text: '' }] },
    ...extra
  };
}

test('a well-formed answer gives its hints; extra fields are ignored', () => {
  const hints = parseHints({ hints: [wire({ cell: 2 })] });
  assert.equal(hints.length, 1);
  assert.equal(hints[0].code, 'TM301');
  assert.equal(hints[0].fix?.edits.length, 1);
  assert.equal('cell' in hints[0], false);
});

test('malformed hints are dropped, the others kept', () => {
  const bad = [
    wire({ severity: 'error' }),      // a hint is never an error
    wire({ line: 0 }),                 // lines are 1-based
    wire({ col: -1 }),
    wire({ col: 1.5 }),
    wire({ message: 42 }),
    wire({ fix: { title: 'x', applicability: 'maybe', edits: [] } }),
    wire({ fix: { title: 'x', applicability: 'safe', edits: [{ line: 1 }] } }),
    null,
    'TM301'
  ];
  const hints = parseHints({ hints: [...bad, wire({ fix: null })] });
  assert.equal(hints.length, 1);
  assert.equal(hints[0].fix, null);
});

test('an answer that is not {hints: [...]} gives no hints', () => {
  for (const answer of [null, [], {}, { hints: 'x' }, 'hints', 3]) {
    assert.deepEqual(parseHints(answer), []);
  }
});

test('a hint covers its span of the cell text as sent (line 1 is the magic line)', () => {
  const d = doc(CELL);
  const [hint] = parseHints({ hints: [wire()] });
  const r = hintRange(d, hint);
  assert.ok(r);
  assert.equal(d.text.slice(r.from, r.to), 'y.numpy()');
});

test('a hint outside the document, or reversed, is not placed', () => {
  const d = doc(CELL);
  const [past] = parseHints({ hints: [wire({ line: 9, end_line: 9 })] });
  assert.equal(hintRange(d, past), null);
  const [reversed] = parseHints({ hints: [wire({ col: 12, end_col: 4 })] });
  assert.equal(hintRange(d, reversed), null);
});

test('columns count code points, as Python does', () => {
  const d = doc('%%gradcheck\ns = "😀"; p = y.numpy()');
  const [hint] = parseHints({ hints: [wire({ line: 2, end_line: 2, col: 13, end_col: 22, fix: null })] });
  const r = hintRange(d, hint)!;
  assert.equal(d.text.slice(r.from, r.to), 'y.numpy()');
});

test('a fix becomes changes unless it is display-only or has no edits', () => {
  const d = doc(CELL);
  const [hint] = parseHints({ hints: [wire()] });
  const changes = hintChanges(d, hint);
  assert.ok(changes);
  const c = changes[0];
  assert.equal(d.text.slice(0, c.from) + c.insert + d.text.slice(c.to), CELL.replace('y.numpy()', 'y'));
  const shown = (fix: IHint['fix']): IHint => ({ ...hint, fix });
  assert.equal(hintChanges(d, shown({ ...hint.fix!, applicability: 'display-only' })), null);
  assert.equal(hintChanges(d, shown({ ...hint.fix!, edits: [] })), null);
  assert.equal(hintChanges(d, shown(null)), null);
});

test('ranges overlap when they share a character or the same point', () => {
  assert.equal(overlaps({ from: 0, to: 5 }, { from: 4, to: 9 }), true);
  assert.equal(overlaps({ from: 0, to: 5 }, { from: 5, to: 9 }), false);
  assert.equal(overlaps({ from: 3, to: 3 }, { from: 3, to: 8 }), true);
});

/** An editor state with CodeMirror's lint state, and a diagnostic maker. */
const TEXT = 'p = y.numpy()\nq = z.numpy()';
function stateWith(diagnostics: Diagnostic[]): EditorState {
  const s = EditorState.create({ doc: TEXT });
  return s.update(setDiagnostics(s, diagnostics)).state;
}
function diag(source: string, from: number, to: number): Diagnostic {
  return { from, to, source, severity: source === HINT_SOURCE ? 'hint' : 'error', message: `${source} ${from}` };
}
function all(state: EditorState): Array<[string | undefined, number, number]> {
  const out: Array<[string | undefined, number, number]> = [];
  forEachDiagnostic(state, (d, from, to) => out.push([d.source, from, to]));
  return out.sort((a, b) => a[1] - b[1] || String(a[0]).localeCompare(String(b[0])));
}

test('hints replace only their own diagnostics; the runtime ones stay, the same objects', () => {
  const runtime = diag(RUNTIME_SOURCE, 4, 13);
  const state = stateWith([runtime, diag(HINT_SOURCE, 18, 27)]);
  const next = state.update(replaceHints(state, [diag(HINT_SOURCE, 4, 13)])).state;
  assert.deepEqual(all(next), [[RUNTIME_SOURCE, 4, 13], ['tapemagic-hint', 4, 13]]);
  let kept: Diagnostic | null = null;
  forEachDiagnostic(next, d => {
    kept = d.source === RUNTIME_SOURCE ? d : kept;
  });
  assert.equal(kept, runtime);
  assert.equal(countHints(next), 1);
  const cleared = next.update(replaceHints(next, [])).state;
  assert.deepEqual(all(cleared), [[RUNTIME_SOURCE, 4, 13]]);
  assert.equal(countHints(cleared), 0);
});

test('runtime marks are found where the edits moved them; other sources are not runtime', () => {
  const state = stateWith([diag(RUNTIME_SOURCE, 4, 13), diag('lsp', 18, 27), diag(HINT_SOURCE, 18, 27)]);
  assert.deepEqual(runtimeRanges(state), [{ from: 4, to: 13 }]);
  const moved = state.update({ changes: { from: 0, insert: '# x\n' } }).state;
  assert.deepEqual(runtimeRanges(moved), [{ from: 8, to: 17 }]);
  // a moved diagnostic kept by replaceHints is placed where it is now
  const next = moved.update(replaceHints(moved, [])).state;
  assert.deepEqual(all(next), [[RUNTIME_SOURCE, 8, 17], ['lsp', 22, 31]]);
});
