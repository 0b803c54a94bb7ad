import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reportToDot } from '../src/model/graph';
import { defaultExpanded, hiddenNodes, layerGroups, severedPath } from '../src/model/groups';
import { fixPreview } from '../src/model/fixes';
import { parseReport, samePlace } from '../src/model/report';
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

const QUANTISED = resolve(__dirname, '../../../tests/samples/quantised_sample.json');

/** Two quantised layers cut inside their own `call` (In[2] line 14); the model cell is In[3]. */
function quantised(): Report {
  const parsed = parseReport(JSON.parse(readFileSync(QUANTISED, 'utf8')));
  assert.ok(parsed.ok);
  return parsed.report;
}

test('only the layers between a cut weight and its cut are on a severed path', () => {
  const groups = layerGroups(quantised());
  const severed = groups.filter(g => g.severed).map(g => g.id);
  assert.deepEqual(severed, ['layer:net/quantized_dense', 'layer:net/quantized_dense_1']);
  // the healthy layers between and after, and the loss, are not
  assert.ok(!severedPath(quantised()).has('loss:loss@14'));
  assert.ok(!severed.includes('layer:net/head'));
});

test('a layer lists the finding cut inside it, though the finding is in another cell', () => {
  const report = quantised();
  const q = layerGroups(report).find(g => g.id === 'layer:net/quantized_dense')!;
  assert.equal(q.place, 'In[2], line 14');
  assert.deepEqual(q.findings.map(f => f.id), ['F1']);
  // In[3] line 14 (the fit line) is another place than the finding's In[2] line 14
  const loss = report.graph.nodes.find(n => n.kind === 'loss')!;
  assert.equal(loss.line, report.findings[0].location!.line);
  assert.ok(!samePlace(report, loss, report.findings[0]));
  assert.ok(samePlace(report, q.node, report.findings[0]));
});

test('the fix preview shows the finding line before and after its edit', () => {
  const report = quantised();
  const preview = fixPreview(report, report.findings[0])!;
  assert.equal(preview.first, 14);
  assert.deepEqual(preview.before, ['        w_q = tf.round(self.kernel * 127.0) / 127.0']);
  assert.equal(preview.after[0], `        w_q = ${report.findings[0].fix!.edits[0].text} / 127.0`);
});
