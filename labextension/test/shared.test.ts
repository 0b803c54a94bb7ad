import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseReport } from '../src/model/report';
import { ownCut, sharedParts } from '../src/model/shared';
import { MIME_TYPE, Report } from '../src/model/types';

function demoReport(name: string, cellId: string): Report {
  const nb = JSON.parse(readFileSync(resolve(__dirname, '../../../demo', name), 'utf8'));
  const cell = nb.cells.find((c: { id?: string }) => c.id === cellId);
  const out = cell.outputs.find((o: { data?: Record<string, unknown> }) => o.data?.[MIME_TYPE]);
  const parsed = parseReport(out.data[MIME_TYPE]);
  assert.ok(parsed.ok);
  return parsed.report;
}

test('seed004 (--eager): the four findings share one weight list and one path', () => {
  const r = demoReport('seed004_fit_argsort_sets.ipynb', 'seed004-eager');
  const shared = sharedParts(r.findings);
  assert.equal(shared.variables.length, 1);
  assert.equal(shared.variables[0].value.length, 4);
  assert.deepEqual(shared.variables[0].findings, ['F1', 'F2', 'F3', 'F4']);
  assert.equal(shared.chains.length, 1);
  assert.equal(shared.chainOf.size, 4);
  // Each card keeps its own cut on the shared path: the cut step on its own line.
  const cuts = r.findings.map(f => ownCut(f, f.chain ?? [])?.label);
  assert.deepEqual(cuts, [
    'tf.keras.backend.eval',
    'tf.argsort (TopKV2)',
    'tf.sets.intersection (DenseToDenseSetOperation)',
    'tf.sets.size (SetSize)'
  ]);
});

test('seed000: weights shared, the one path stays in its card', () => {
  const r = demoReport('seed000_numpy_in_loss.ipynb', 'seed000-broken');
  const shared = sharedParts(r.findings);
  assert.equal(shared.variables.length, 1);
  assert.equal(shared.variablesOf.size, 3);
  assert.equal(shared.chains.length, 0);
});

test('nothing shared: a single finding or different lists', () => {
  const r = demoReport('seed000_numpy_in_loss.ipynb', 'seed000-broken');
  const one = sharedParts(r.findings.slice(0, 1));
  assert.equal(one.variables.length + one.chains.length, 0);
  const differ = r.findings.map((f, i) => ({ ...f, variables: [`w${i}`] }));
  assert.equal(sharedParts(differ).variables.length, 0);
  // Same weights in another order are the same list.
  const shuffled = r.findings.map((f, i) => ({ ...f, variables: i ? [...(f.variables ?? [])].reverse() : f.variables }));
  assert.equal(sharedParts(shuffled).variables[0].findings.length, 3);
});
