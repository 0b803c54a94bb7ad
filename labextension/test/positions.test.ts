import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  columnToIndex,
  DocLike,
  editsToChanges,
  indexToColumn,
  locationToRange,
  toEditorPosition
} from '../src/model/positions';
import { Location } from '../src/model/types';

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

const loc = (o: Partial<Location>): Location => ({
  file: '<cell>', line: 1, end_line: null, col: null, end_col: null, source_line: '',
  function: null, execution_count: null, cell_id: null, ...o
});

const CELL = '%%gradcheck\nimport numpy as np\ndef f(y):\n    p = y.numpy()\n    return p';

test('line 1 is the magic line; columns are 0-based', () => {
  const d = doc(CELL);
  const r = locationToRange(d, loc({ line: 4, end_line: 4, col: 8, end_col: 17, source_line: '    p = y.numpy()' }));
  assert.ok(r);
  assert.equal(d.text.slice(r.from, r.to), 'y.numpy()');
});

test('a missing column covers the line from its first non-blank character', () => {
  const d = doc(CELL);
  const r = locationToRange(d, loc({ line: 4 }))!;
  assert.equal(d.text.slice(r.from, r.to), 'p = y.numpy()');
});

test('a location whose source_line no longer matches is not placed', () => {
  const d = doc(CELL);
  assert.equal(locationToRange(d, loc({ line: 4, col: 8, end_col: 17, source_line: '    q = y.numpy()' })), null);
  assert.equal(locationToRange(d, loc({ line: 99 })), null);
  assert.equal(locationToRange(d, loc({ line: 0 })), null);
});

test('columns count code points, not UTF-16 units', () => {
  const text = 's = "😀"; y = x.numpy()';
  assert.equal(columnToIndex(text, 9), 10);
  assert.equal(indexToColumn(text, 10), 9);
  const d = doc(text);
  const r = locationToRange(d, loc({ line: 1, col: 13, end_col: 22 }))!;
  assert.equal(text.slice(r.from, r.to), 'x.numpy()');
});

test('edits become sorted changes; overlapping or out-of-range edits are refused', () => {
  const d = doc(CELL);
  const changes = editsToChanges(d, [
    { line: 5, col: 11, end_line: 5, end_col: 12, text: 'tf.identity(p)' },
    { line: 4, col: 8, end_line: 4, end_col: 17, text: 'y' }
  ])!;
  assert.deepEqual(changes.map(c => d.text.slice(c.from, c.to)), ['y.numpy()', 'p']);
  assert.equal(editsToChanges(d, [{ line: 9, col: 0, end_line: 9, end_col: 1, text: '' }]), null);
  assert.equal(
    editsToChanges(d, [
      { line: 4, col: 4, end_line: 4, end_col: 10, text: '' },
      { line: 4, col: 8, end_line: 4, end_col: 12, text: '' }
    ]),
    null
  );
});

test('editor positions are 0-based lines', () => {
  assert.deepEqual(toEditorPosition({ line: 12, col: 21 }), { line: 11, column: 21 });
  assert.deepEqual(toEditorPosition({ line: 1, col: null }), { line: 0, column: 0 });
});
