import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CATALOG, findRule, ruleDoc, safeUrl } from '../src/model/catalog';

const SHARED = resolve(__dirname, '../../../tapemagic/rules/catalog.json');

test('the bundled catalog is the shared catalog', () => {
  assert.deepEqual(CATALOG, JSON.parse(readFileSync(SHARED, 'utf8')));
});

test('explain shows the why and https references; unknown codes say so', () => {
  const doc = ruleDoc('TM301');
  assert.ok(doc.rule);
  assert.ok(doc.sections.some(([h]) => h === 'Why'));
  assert.ok(doc.references.every(r => r.url.startsWith('https://')));
  assert.equal(findRule('TM999'), null);
  assert.equal(ruleDoc('TM999').rule, null);
  assert.equal(safeUrl('javascript:alert(1)'), null);
});
