import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dotString, reportToDot } from '../src/model/graph';
import { parseReport } from '../src/model/report';

const SAMPLE = resolve(__dirname, '../../../tests/samples/seed000_sample.json');

test('labels cannot escape their DOT string', () => {
  assert.equal(dotString('a"b'), '"a\\"b"');
  assert.equal(dotString('back\\slash'), '"back\\\\slash"');
  assert.equal(dotString('\\N'), '"\\\\N"');
  assert.equal(dotString('two\nlines'), '"two lines"');
  assert.equal(dotString('"]; x [label=<<b>x</b>>'), '"\\"]; x [label=<<b>x</b>>"');
  assert.ok(dotString('x'.repeat(200)).length < 60);
});

test('severed edges are red, dashed and labelled with ✂ and the rule code; ids are ours', () => {
  const parsed = parseReport(JSON.parse(readFileSync(SAMPLE, 'utf8')));
  assert.ok(parsed.ok);
  const { dot } = reportToDot(parsed.report);
  const severed = dot.split('\n').filter(l => l.includes('style=dashed'));
  assert.equal(severed.length, 2);
  for (const l of severed) {
    assert.match(l, /color="#dc2626"/);
    assert.match(l, /label="✂ TM301\\n/);
  }
  assert.doesNotMatch(dot, /var:|grp:|host:L/, 'report node ids never reach Graphviz');
});

test('zero-at-runtime edges are styled apart from severed ones', () => {
  const parsed = parseReport(JSON.parse(readFileSync(SAMPLE, 'utf8')));
  assert.ok(parsed.ok);
  const report = parsed.report;
  report.graph.edges[0] = { ...report.graph.edges[0], state: 'zero' };
  const line = reportToDot(report).dot.split('\n').find(l => l.includes('tm-e0'))!;
  assert.match(line, /style=dotted/);
  assert.match(line, /color="#d97706"/);
});
