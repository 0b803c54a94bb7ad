import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legibleScale } from '../src/model/fit';
import { codeSegments, plainText } from '../src/model/text';

test('backtick spans become code segments; an unmatched backtick stays literal', () => {
  assert.deepEqual(codeSegments('Remove `watch_accessed_variables=False`, or call `tape.watch`'), [
    { text: 'Remove ', code: false },
    { text: 'watch_accessed_variables=False', code: true },
    { text: ', or call ', code: false },
    { text: 'tape.watch', code: true }
  ]);
  assert.deepEqual(codeSegments("it's `x"), [{ text: "it's `x", code: false }]);
  assert.deepEqual(codeSegments('`a` b `c'), [
    { text: 'a', code: true },
    { text: ' b `c', code: false }
  ]);
  assert.equal(plainText('Use `tf.*` ops (unsafe)'), 'Use tf.* ops (unsafe)');
  assert.equal(plainText('no markup'), 'no markup');
});

test('output-area graph: fitted to the box, but text never below 10 px', () => {
  const natural = 96 / 72;
  // seed004-like: 2200 pt wide, 9 pt edge labels, in a 950 px box. Fitting would draw the
  // text at ~3.5 px; the legible scale keeps it at 10 px and the box scrolls.
  const k = legibleScale({ viewWidth: 2200, naturalScale: natural, minFontSize: 9, boxWidth: 950 });
  assert.ok(Math.abs(k * 9 - 10) < 1e-9);
  assert.ok(2200 * k > 950);
  // A graph that fits legibly is fitted, never enlarged beyond its own size.
  assert.equal(legibleScale({ viewWidth: 600, naturalScale: natural, minFontSize: 9, boxWidth: 700 }), 700 / 600 > natural ? natural : 700 / 600);
  assert.equal(legibleScale({ viewWidth: 300, naturalScale: natural, minFontSize: 9, boxWidth: 2000 }), natural);
  const fit = legibleScale({ viewWidth: 800, naturalScale: natural, minFontSize: 9, boxWidth: 900 });
  assert.equal(fit, 900 / 800);
  // No size information: the SVG's own scale.
  assert.equal(legibleScale({ viewWidth: 0, naturalScale: natural, minFontSize: 9, boxWidth: 900 }), natural);
});
