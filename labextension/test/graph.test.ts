import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dotString, EDGE_STYLE, firstCut, reportToDot } from '../src/model/graph';
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

/** The clean report of demo/seed000 (the fixed cell): 0 findings, one mask edge severed. */
function cleanSeed000(): Record<string, any> {
  const nb = JSON.parse(readFileSync(resolve(__dirname, '../../../demo/seed000_numpy_in_loss.ipynb'), 'utf8'));
  for (const cell of nb.cells) {
    for (const out of cell.outputs ?? []) {
      const data = out.data?.['application/vnd.tapemagic.report.v1+json'];
      if (data && data.findings.length === 0) {
        return data;
      }
    }
  }
  throw new Error('no clean report in demo/seed000');
}

test('a severed edge no finding marks is drawn as no gradient by design, never red', () => {
  const parsed = parseReport(cleanSeed000());
  assert.ok(parsed.ok);
  const report = parsed.report;
  const i = report.graph.edges.findIndex(e => e.state === 'severed');
  assert.ok(i >= 0, 'the demo has the mask edge');
  const { dot } = reportToDot(report);
  assert.doesNotMatch(dot, new RegExp(EDGE_STYLE.severed.color));
  assert.doesNotMatch(dot, /✂/);
  const line = dot.split('\n').find(l => l.includes(`tm-e${i}"`))!;
  assert.match(line, new RegExp(`color="${EDGE_STYLE.design.color}"`));
  assert.match(line, /style=dashed/);
  assert.equal(firstCut(report), -1);
  // a finding id that is not in the report does not make it a cut either
  report.graph.edges[i] = { ...report.graph.edges[i], finding: 'f9' };
  assert.doesNotMatch(reportToDot(report).dot, new RegExp(EDGE_STYLE.severed.color));
});

test('the first cut follows the order of findings given, else the edge order', () => {
  const parsed = parseReport(JSON.parse(readFileSync(SAMPLE, 'utf8')));
  assert.ok(parsed.ok);
  const edges = parsed.report.graph.edges;
  const first = edges.findIndex(e => e.state === 'severed');
  assert.equal(firstCut(parsed.report), first);
  assert.equal(firstCut(parsed.report, ['f3', 'f1']), first);
  const last = edges.length - 1 - [...edges].reverse().findIndex(e => e.state === 'severed');
  parsed.report.graph.edges[last] = { ...edges[last], finding: 'f2' };
  assert.equal(firstCut(parsed.report, ['f2', 'f1']), last);
});
