// web/model/answers.js: section 7's exercise as questions for the core's checker
// (core.checkQuestion), graded by the wasm core the page loads.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkExercise, exerciseQuestions, RATIO_RELATIVE_TOLERANCE } from '../../web/model/answers.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

// The shape of report.exercise; the numbers are the seed's exercise, (48,24)·(24,12), written as
// their formulas (the questions themselves never know them).
const EXERCISE = {
  a: [48, 24], b: [24, 12], itemsize: 4, ratio_fraction: '24/7',
  work: 2 * 48 * 24 * 12, traffic: 4 * (48 * 24 + 24 * 12 + 48 * 12), ratio: 24 / 7, bound: 'memory-bound',
};

let core;
before(async () => { core = await loadNodeCore(); });
const statuses = (r) => [r.work.status, r.traffic.status, r.ratio.status, r.bound.status];

describe('the lesson exercise\'s questions', () => {
  test('carry the expected values, the tolerance, and the likely mistakes', () => {
    const q = exerciseQuestions(EXERCISE);
    assert.deepEqual(Object.keys(q), ['work', 'traffic', 'ratio', 'bound']);
    assert.deepEqual([q.work.value, q.traffic.value, q.ratio.value, q.bound.exact], [27648, 8064, 24 / 7, 'memory-bound']);
    assert.deepEqual([q.work.rel_tolerance, q.traffic.rel_tolerance, q.ratio.rel_tolerance], [0, 0, RATIO_RELATIVE_TOLERANCE]);
    assert.deepEqual(q.work.mistakes.map((m) => m.value), [48 * 24 * 12, 27648 + 48 * 12, 48 * 24 * 12 + 48 * 12]);
    assert.deepEqual(q.traffic.mistakes.map((m) => m.value), [2016, 4 * (48 * 24 + 24 * 12), 8064 + 4 * 48 * 12]);
    assert.equal(q.ratio.mistakes[0].value, 7 / 24);
  });
});

describe('checking the exercise with the core', () => {
  test('accepts the right answers in their usual forms', () => {
    for (const [work, traffic, ratio] of [['27648', '8064', '24/7'], ['27,648 flops', '8064 B', '3.4286'], ['2.7648e4', '8,064 bytes', '3.43'],
      ['27648', '8064', '27648/8064']]) {
      const r = checkExercise(core, { work, traffic, ratio, bound: 'memory' }, EXERCISE);
      assert.deepEqual(statuses(r), ['right', 'right', 'right', 'right'], `${work} ${traffic} ${ratio}`);
      assert.ok(r.allRight);
    }
  });

  test('rejects wrong answers with feedback on the likely mistake, never the value', () => {
    const r = checkExercise(core, { work: String(48 * 24 * 12), traffic: '2016', ratio: '7/24', bound: 'compute' }, EXERCISE);
    assert.deepEqual(statuses(r), ['wrong', 'wrong', 'wrong', 'wrong']);
    assert.equal(r.allRight, false);
    assert.match(r.work.message, /^You counted m·k·n = 13824: each multiply-add is 2 flops/);
    assert.match(r.traffic.message, /bytes must use the itemsize, 4 bytes per element/);
    assert.match(r.ratio.message, /divided bytes by flops/);
    assert.match(r.bound.message, /^Not compute-bound/);
    for (const v of [r.work, r.traffic, r.ratio, r.bound]) assert.doesNotMatch(v.message, /27648|8064|3\.43/, 'feedback must not give the answer away');
    assert.match(checkExercise(core, { work: String(27648 + 48 * 12) }, EXERCISE).work.message, /You included tanh/);
    assert.match(checkExercise(core, { traffic: String(4 * (48 * 24 + 24 * 12)) }, EXERCISE).traffic.message, /left out writing the result/);
    assert.equal(checkExercise(core, { ratio: '3.4' }, EXERCISE).ratio.status, 'wrong');
    assert.equal(checkExercise(core, { ratio: '3.44' }, EXERCISE).ratio.status, 'wrong');
    assert.match(checkExercise(core, { work: '27648.5' }, EXERCISE).work.message, /exact/);
  });

  test('blank answers are not checked, and an all-blank form is no attempt; unreadable ones are wrong, with the reason', () => {
    const empty = checkExercise(core, {}, EXERCISE);
    assert.equal(empty.attempted, false);
    assert.deepEqual(statuses(empty), ['empty', 'empty', 'empty', 'empty']);
    const r = checkExercise(core, { work: 'many', ratio: '24/0' }, EXERCISE);
    assert.equal(r.attempted, true);
    assert.equal(r.work.status, 'wrong');
    assert.match(r.work.message, /must start with a number, got "many"/);
    assert.match(r.ratio.message, /divides by zero/);
  });

  test('the expected values come from the exercise passed in; on the ridge either bound is accepted', () => {
    const other = { ...EXERCISE, work: 100, traffic: 50, ratio: 2, ratio_fraction: '2', bound: 'compute-bound' };
    assert.ok(checkExercise(core, { work: '100', traffic: '50', ratio: '2', bound: 'compute' }, other).allRight);
    assert.equal(checkExercise(core, { work: '27648' }, other).work.status, 'wrong');
    for (const bound of ['memory', 'compute']) {
      assert.equal(checkExercise(core, { bound }, { ...EXERCISE, bound: 'balanced' }).bound.status, 'right', bound);
    }
  });
});
