import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { locationLabel, parseReport, sortedFindings } from '../src/model/report';

const SAMPLE = resolve(__dirname, '../../../tests/samples/seed000_sample.json');
const sample = (): Record<string, any> => JSON.parse(readFileSync(SAMPLE, 'utf8'));

test('the shared sample payload parses', () => {
  const r = parseReport(sample());
  assert.ok(r.ok);
  assert.equal(r.report.findings.length, 3);
  assert.deepEqual(sortedFindings(r.report).map(f => f.rule), ['TM301', 'TM101', 'TM303']);
  assert.equal(locationLabel(r.report, r.report.findings[0]), 'In[5], line 6');
});

test('a future schema is refused with its name', () => {
  const r = parseReport({ ...sample(), schema: 'tapemagic.report/2' });
  assert.ok(!r.ok);
  assert.equal(r.schema, 'tapemagic.report/2');
  assert.match(r.reason, /tapemagic\.report\/1/);
});

test('malformed payloads are refused, never thrown', () => {
  for (const bad of [null, 42, 'x', [], {}, { schema: 'tapemagic.report/1' }]) {
    assert.equal(parseReport(bad).ok, false);
  }
  const s = sample();
  s.findings[0].location.line = '6';
  assert.deepEqual(parseReport(s), { ok: false, schema: 'tapemagic.report/1', reason: '/findings/0/location/line must be integer' });
  const t = sample();
  t.findings[1].severity = 'fatal';
  assert.equal(parseReport(t).ok, false);
  const u = sample();
  u.graph.edges[0].state = 'cut';
  assert.equal(parseReport(u).ok, false);
  const v = sample();
  v.findings[0].fix.edits[0].end_col = -1;
  assert.equal(parseReport(v).ok, false);
});

test('the reason is one line naming the field, from the shared schema', () => {
  const s = sample();
  s.findings[1].severity = 'fatal';
  const r = parseReport(s);
  assert.ok(!r.ok);
  assert.equal(r.reason, '/findings/1/severity must be equal to one of the allowed values (error, warning, info)');
  const t = sample();
  t.graph.edges[0].colour = 'red';
  const q = parseReport(t);
  assert.ok(!q.ok);
  assert.equal(q.reason, '/graph/edges/0 must NOT have additional properties (colour)');
  const u = sample();
  delete u.headline;
  const w = parseReport(u);
  assert.ok(!w.ok && !w.reason.includes('\n'));
  assert.match(w.reason, /^\/ must have required property 'headline'$/);
});

test('every demo notebook report validates', () => {
  const demo = resolve(__dirname, '../../../demo');
  let seen = 0;
  for (const name of readdirSync(demo).filter(n => n.endsWith('.ipynb'))) {
    const nb = JSON.parse(readFileSync(resolve(demo, name), 'utf8'));
    for (const cell of nb.cells) {
      for (const out of cell.outputs ?? []) {
        const data = out.data?.['application/vnd.tapemagic.report.v1+json'];
        if (data) {
          const r = parseReport(data);
          assert.ok(r.ok, `${name}: ${r.ok ? '' : r.reason}`);
          seen++;
        }
      }
    }
  }
  assert.ok(seen >= 3);
});

test('a place is named as Python names it, and the same way in a report older than `where`', () => {
  const older = sample();
  delete older.findings[0].location.where;
  delete older.findings[0].location.cell;
  const r = parseReport(older);
  assert.ok(r.ok);
  assert.equal(locationLabel(r.report, r.report.findings[0]), 'In[5], line 6');
  const run = sample();
  run.findings[0].location.where = 'cell 7 (In[5]), line 6'; // as `run NOTEBOOK` names it
  const numbered = parseReport(run);
  assert.ok(numbered.ok);
  assert.equal(locationLabel(numbered.report, numbered.report.findings[0]), 'cell 7 (In[5]), line 6');
});
