import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reportToDot } from '../src/model/graph';
import { defaultExpanded, hiddenNodes, layerGroups } from '../src/model/groups';
import { parseReport } from '../src/model/report';
import { MIME_TYPE, Report } from '../src/model/types';

const SAMPLE = resolve(__dirname, '../../../tests/samples/seed000_sample.json');
const DEMO = resolve(__dirname, '../../../demo/seed000_numpy_in_loss.ipynb');

function sample(): Report {
  const parsed = parseReport(JSON.parse(readFileSync(SAMPLE, 'utf8')));
  assert.ok(parsed.ok);
  return parsed.report;
}

/** The demo notebook's reports, in cell order (broken, then fixed). */
function demoReports(): Report[] {
  const nb = JSON.parse(readFileSync(DEMO, 'utf8'));
  const out: Report[] = [];
  for (const cell of nb.cells) {
    for (const o of cell.outputs ?? []) {
      if (o.data?.[MIME_TYPE]) {
        const parsed = parseReport(o.data[MIME_TYPE]);
        assert.ok(parsed.ok);
        out.push(parsed.report);
      }
    }
  }
  return out;
}

test('each Keras layer owns the weights that feed only it', () => {
  const groups = layerGroups(sample());
  assert.deepEqual(groups.map(g => g.id), ['grp:sequential/h', 'grp:sequential/out']);
  assert.deepEqual(groups[0].weights.map(w => w.label), ['sequential/h/kernel', 'sequential/h/bias']);
  assert.deepEqual(groups[1].weights.map(w => w.label), ['sequential/out/kernel', 'sequential/out/bias']);
});

test('layers on a severed path start expanded; a clean report starts collapsed', () => {
  const broken = layerGroups(sample());
  assert.ok(broken.every(g => g.severed));
  assert.deepEqual([...defaultExpanded(broken)], ['grp:sequential/h', 'grp:sequential/out']);
  assert.deepEqual(broken[1].cutWeights, ['sequential/out/kernel', 'sequential/out/bias']);
  const [, fixed] = demoReports();
  assert.equal(fixed.findings.length, 0);
  const clean = layerGroups(fixed);
  assert.equal(clean.length, 2);
  assert.equal(defaultExpanded(clean).size, 0);
});

test('only the severed layer is expanded when one layer is cut', () => {
  const report = sample();
  report.findings.forEach(f => (f.variables = ['sequential/out/kernel']));
  report.graph.edges = report.graph.edges.map(e => ({ ...e, state: 'connected', finding: null }));
  const groups = layerGroups(report);
  assert.deepEqual([...defaultExpanded(groups)], ['grp:sequential/out']);
});

test('a collapsed layer hides its weights and their edges, and says how many it has', () => {
  const report = sample();
  const groups = layerGroups(report);
  const hidden = hiddenNodes(groups, new Set(['grp:sequential/out']));
  assert.deepEqual([...hidden], ['var:sequential/h/kernel', 'var:sequential/h/bias']);
  const { dot } = reportToDot(report, { expanded: new Set(['grp:sequential/out']), weightsLabel: n => `${n} w` });
  assert.doesNotMatch(dot, /sequential\/h\/kernel/);
  assert.match(dot, /sequential\/out\/kernel/);
  assert.match(dot, /▸ 2 w/);
  assert.match(dot, /▾ 2 w/);
  // Edge ids keep the report's indices, so a click still maps to the right edge.
  assert.doesNotMatch(dot, /tm-e0"/);
  assert.match(dot, /tm-e5"/);
  // Without the option, everything is drawn as before.
  assert.match(reportToDot(report).dot, /sequential\/h\/kernel/);
});

test('a layer lists the findings on its own line only', () => {
  const report = sample();
  report.findings[0].location!.line = 14;
  const groups = layerGroups(report);
  assert.deepEqual(groups[0].findings.map(f => f.id), ['f1']);
  report.findings[0].location!.execution_count = 3;
  assert.deepEqual(layerGroups(report)[0].findings, []);
});
