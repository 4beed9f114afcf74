// web/model/answers.js: reading and checking the exercise's answers, without a DOM or the core.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkExercise, parseBoundAnswer, parseIntegerAnswer, parseRatioAnswer, ratioMatches, RATIO_RELATIVE_TOLERANCE,
} from '../../web/model/answers.js';

// The shape of report.exercise; the numbers are the seed's exercise, (48,24)·(24,12), written as
// their formulas (the checker itself never knows them).
const EXERCISE = {
  a: [48, 24], b: [24, 12], itemsize: 4,
  work: 2 * 48 * 24 * 12, traffic: 4 * (48 * 24 + 24 * 12 + 48 * 12), ratio: 24 / 7, bound: 'memory-bound',
};

describe('parsing answers', () => {
  test('integers: plain, grouped, with a unit, or any notation of a whole number', () => {
    for (const [text, value] of [['27648', 27648], [' 27648 ', 27648], ['27,648', 27648], ['27 648', 27648],
      ['27_648', 27648], ['27648 flops', 27648], ['8064 bytes', 8064], ['8064B', 8064], ['2.7648e4', 27648], ['≈ 8064', 8064]]) {
      assert.deepEqual(parseIntegerAnswer(text), { ok: true, value }, text);
    }
  });

  test('integers: empty, letters, fractions and non-finite values are not read', () => {
    assert.deepEqual(parseIntegerAnswer(''), { ok: false, error: 'no answer yet' });
    assert.deepEqual(parseIntegerAnswer('   '), { ok: false, error: 'no answer yet' });
    assert.equal(parseIntegerAnswer('lots').ok, false);
    assert.match(parseIntegerAnswer('27648.5').error, /not a whole number/);
    assert.equal(parseIntegerAnswer('1e400').ok, false);
    assert.equal(parseIntegerAnswer('2,76,48').ok, false);  // not thousands grouping
    assert.equal(parseIntegerAnswer('0x6c00').ok, false);
  });

  test('ratios: fractions and decimals', () => {
    assert.deepEqual(parseRatioAnswer('24/7'), { ok: true, value: 24 / 7 });
    assert.deepEqual(parseRatioAnswer('27648 / 8064'), { ok: true, value: 27648 / 8064 });
    assert.deepEqual(parseRatioAnswer('27,648/8,064'), { ok: true, value: 27648 / 8064 });
    assert.deepEqual(parseRatioAnswer('3.4286'), { ok: true, value: 3.4286 });
    assert.deepEqual(parseRatioAnswer('~3.43 flops/byte'), { ok: true, value: 3.43 });
    assert.deepEqual(parseRatioAnswer('24/0'), { ok: false, error: 'the denominator is 0' });
    assert.equal(parseRatioAnswer('1/2/3').ok, false);
    assert.equal(parseRatioAnswer('three').ok, false);
    assert.equal(parseRatioAnswer('NaN').ok, false);
    assert.equal(parseRatioAnswer('').error, 'no answer yet');
  });

  test('bounds: memory or compute, in a few spellings', () => {
    for (const t of ['memory', 'Memory-bound', 'memory bound', 'MEM']) assert.deepEqual(parseBoundAnswer(t), { ok: true, value: 'memory' }, t);
    for (const t of ['compute', 'compute-bound', 'Compute Bound']) assert.deepEqual(parseBoundAnswer(t), { ok: true, value: 'compute' }, t);
    assert.equal(parseBoundAnswer('both').ok, false);
    assert.equal(parseBoundAnswer('').error, 'no answer yet');
  });

  test('the ratio tolerance is relative 2e-3: 3.43 passes, 3.4 and 3.44 do not', () => {
    assert.equal(RATIO_RELATIVE_TOLERANCE, 2e-3);
    assert.ok(ratioMatches(24 / 7, 24 / 7));
    assert.ok(ratioMatches(3.4286, 24 / 7));
    assert.ok(ratioMatches(3.43, 24 / 7));
    assert.ok(!ratioMatches(3.4, 24 / 7));
    assert.ok(!ratioMatches(3.44, 24 / 7));
  });
});

describe('checking the exercise', () => {
  test('accepts the right answers, each one', () => {
    for (const ratio of ['24/7', '3.4286', '3.43', '27648/8064']) {
      const r = checkExercise({ work: '27648', traffic: '8064', ratio, bound: 'memory' }, EXERCISE);
      assert.ok(r.allRight, ratio);
      assert.deepEqual([r.work.status, r.traffic.status, r.ratio.status, r.bound.status], ['right', 'right', 'right', 'right']);
    }
  });

  test('rejects wrong answers with a hint at the likely slip, never the value', () => {
    const r = checkExercise({ work: String(48 * 24 * 12), traffic: String(48 * 24 + 24 * 12 + 48 * 12), ratio: '7/24', bound: 'compute' }, EXERCISE);
    assert.equal(r.allRight, false);
    assert.deepEqual([r.work.status, r.traffic.status, r.ratio.status, r.bound.status], ['wrong', 'wrong', 'wrong', 'wrong']);
    assert.match(r.work.message, /each one is 2 flops/);
    assert.match(r.traffic.message, /counts elements; each one is 4 bytes/);
    assert.match(r.ratio.message, /bytes per flop/);
    assert.match(r.bound.message, /bandwidth · ratio/);
    for (const v of [r.work, r.traffic, r.ratio, r.bound]) {
      assert.doesNotMatch(v.message, /27648|8064|3\.43/, 'feedback must not give the answer away');
    }
    assert.match(checkExercise({ traffic: String(4 * (48 * 24 + 24 * 12)) }, EXERCISE).traffic.message, /result .* is written once/);
    assert.equal(checkExercise({ ratio: '3.4' }, EXERCISE).ratio.status, 'wrong');
  });

  test('empty and unreadable answers are said to be so, and do not count as an attempt when all empty', () => {
    const empty = checkExercise({}, EXERCISE);
    assert.equal(empty.attempted, false);
    assert.equal(empty.work.status, 'empty');
    const r = checkExercise({ work: 'many', ratio: '24/0' }, EXERCISE);
    assert.equal(r.attempted, true);
    assert.equal(r.work.status, 'unreadable');
    assert.match(r.work.message, /^Cannot read this: "many" is not a number/);
    assert.equal(r.ratio.status, 'unreadable');
  });

  test('the expected values come from the exercise passed in', () => {
    const other = { ...EXERCISE, work: 100, traffic: 50, ratio: 2, bound: 'compute-bound' };
    const r = checkExercise({ work: '100', traffic: '50', ratio: '2', bound: 'compute' }, other);
    assert.ok(r.allRight);
    assert.equal(checkExercise({ work: '27648' }, other).work.status, 'wrong');
    const balanced = checkExercise({ bound: 'memory' }, { ...EXERCISE, bound: 'balanced' });
    assert.equal(balanced.bound.status, 'right');
  });
});
