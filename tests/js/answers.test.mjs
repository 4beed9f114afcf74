// Section 7's exercise: its questions and verdicts come from the core (the lesson's report,
// built by cpp/report with exercises::lesson_exercise and the generated exercises' checker), and
// web/model/answers.js only says which answers were blank. Through the wasm core the page loads.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkLessonExercise, exerciseMessage, exerciseVerdicts, solutionEarned } from '../../web/model/answers.js';
import { buildLesson } from '../../web/model/lesson.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

let core;
before(async () => {
  core = await loadNodeCore();
});
const statuses = (r) => ['work', 'traffic', 'ratio', 'bound'].map((k) => r.verdicts[k].status);
const check = (answers, params) => {
  const r = checkLessonExercise(core, answers, params);
  assert.ok(r.ok, r.error);
  return r;
};

describe("the lesson exercise's questions", () => {
  test('carry the expected values and the tolerance, from the core', () => {
    const { exercise } = buildLesson(core).report;
    const q = Object.fromEntries(exercise.questions.map((x) => [x.id, x]));
    assert.deepEqual(Object.keys(q), ['work', 'traffic', 'ratio', 'bound']);
    // (48,24)·(24,12) in f32: 2·48·24·12, 4·(48·24 + 24·12 + 48·12), their ratio 24/7.
    assert.deepEqual(
      [q.work.value, q.traffic.value, q.ratio.value, q.bound.exact],
      [2 * 48 * 24 * 12, 4 * (48 * 24 + 24 * 12 + 48 * 12), 24 / 7, 'memory-bound'],
    );
    assert.deepEqual([q.work.rel_tolerance, q.traffic.rel_tolerance, q.ratio.rel_tolerance], [0, 0, 2e-3]);
    assert.equal(q.ratio.exact, '24/7');
    assert.deepEqual(q.bound.choices, ['memory-bound', 'compute-bound']);
    assert.equal(exercise.check, undefined, "the verdicts are not part of the model's report");
    assert.deepEqual(buildLesson(core).check, {}, 'no answers given: nothing checked');
  });
});

describe('checking the exercise with the core', () => {
  test('accepts the right answers in their usual forms', () => {
    for (const [work, traffic, ratio] of [
      ['27648', '8064', '24/7'],
      ['27,648 flops', '8064 B', '3.4286'],
      ['2.7648e4', '8,064 bytes', '3.43'],
      ['27648', '8064', '27648/8064'],
    ]) {
      const r = check({ work, traffic, ratio, bound: 'memory' });
      assert.deepEqual(statuses(r), ['right', 'right', 'right', 'right'], `${work} ${traffic} ${ratio}`);
      assert.ok(r.allRight);
    }
  });

  test('rejects wrong answers with feedback on the likely mistake, never the value', () => {
    const r = check({ work: String(48 * 24 * 12), traffic: '2016', ratio: '7/24', bound: 'compute' });
    assert.deepEqual(statuses(r), ['wrong', 'wrong', 'wrong', 'wrong']);
    assert.equal(r.allRight, false);
    assert.match(r.verdicts.work.message, /^You counted m·k·n = 13824: each multiply-add is 2 flops/);
    assert.match(r.verdicts.traffic.message, /bytes must use the itemsize, 4 bytes per f32 element/);
    assert.match(r.verdicts.ratio.message, /divided bytes by flops/);
    assert.match(r.verdicts.bound.message, /^Not compute-bound/);
    for (const v of Object.values(r.verdicts))
      assert.doesNotMatch(v.message, /27648|8064|3\.43/, 'feedback must not give the answer away');
    assert.match(check({ work: String(27648 + 48 * 12) }).verdicts.work.message, /You included tanh/);
    assert.match(
      check({ traffic: String(4 * (48 * 24 + 24 * 12)) }).verdicts.traffic.message,
      /left out writing the result/,
    );
    assert.match(
      check({ traffic: String(8064 + 4 * 48 * 12) }).verdicts.traffic.message,
      /writes the result once; it is not read/,
    );
    assert.equal(check({ ratio: '3.4' }).verdicts.ratio.status, 'wrong');
    assert.equal(check({ ratio: '3.44' }).verdicts.ratio.status, 'wrong');
    assert.match(check({ work: '27648.5' }).verdicts.work.message, /exact/);
  });

  test('blank answers are not checked, and an all-blank form is no attempt; unreadable ones are wrong, with the reason', () => {
    const empty = check({});
    assert.equal(empty.attempted, false);
    assert.deepEqual(statuses(empty), ['empty', 'empty', 'empty', 'empty']);
    assert.deepEqual(statuses(check({ work: '  ', bound: '' })), ['empty', 'empty', 'empty', 'empty']);
    const r = check({ work: 'many', ratio: '24/0' });
    assert.equal(r.attempted, true);
    assert.equal(r.verdicts.work.status, 'wrong');
    assert.match(r.verdicts.work.message, /must start with a number, got "many"/);
    assert.match(r.verdicts.ratio.message, /divides by zero/);
  });

  test('the expected bound follows the budgets; on the ridge either bound is accepted', () => {
    // 40 GB/s · 24/7 ≈ 137 > 100: compute-bound; the work and traffic do not depend on the budgets.
    const above = check({ work: '27648', traffic: '8064', ratio: '24/7', bound: 'compute' }, { bandwidth: 40 });
    assert.ok(above.allRight);
    assert.equal(check({ bound: 'memory' }, { bandwidth: 40 }).verdicts.bound.status, 'wrong');
    // peak = 20 · 24/7 exactly (the double the core computes): the workload sits on the ridge.
    const ridge = { bandwidth: 20, peak: 20 * (27648 / 8064) };
    for (const bound of ['memory', 'compute']) {
      const v = check({ bound }, ridge).verdicts.bound;
      assert.equal(v.status, 'right', bound);
      assert.equal(v.message, 'Accepted: the workload sits exactly on the ridge, so both budgets bind.');
    }
  });

  test('verdicts read the report: a checked answer that is now blank is not shown', () => {
    const built = buildLesson(core, {}, { answers: { work: '1' } });
    assert.equal(exerciseVerdicts(built.report.exercise, built.check, { work: '1' }).verdicts.work.status, 'wrong');
    assert.equal(exerciseVerdicts(built.report.exercise, built.check, { work: '' }).verdicts.work.status, 'empty');
    const unknown = 'answers: the exercise has no question "colour"; its questions are work, traffic, ratio, bound';
    assert.deepEqual(checkLessonExercise(core, { colour: 'blue' }), {
      ok: false,
      input: 'answers',
      error: unknown,
      errors: [{ input: 'answers', error: unknown }],
    });
  });
});

describe('the line under Check, and when the solution opens by itself', () => {
  const ids = ['work', 'traffic', 'ratio', 'bound'];
  const exercise = { questions: ids.map((id) => ({ id })) };
  const result = (statuses) => {
    const verdicts = Object.fromEntries(ids.map((id, i) => [id, { status: statuses[i] }]));
    return { verdicts, allRight: statuses.every((x) => x === 'right') };
  };
  test('the solution opens by itself only once every part has been right, at this Check or an earlier one', () => {
    assert.equal(solutionEarned(exercise, []), false);
    assert.equal(solutionEarned(exercise, ['work']), false);
    assert.equal(solutionEarned(exercise, ['work', 'traffic', 'ratio']), false);
    assert.equal(solutionEarned(exercise, ['bound', 'ratio', 'traffic', 'work']), true);
  });
  test('the message says what was checked and where the solution is, as it is', () => {
    assert.equal(
      exerciseMessage(exercise, result(['empty', 'empty', 'empty', 'empty']), [], false),
      'Every answer is blank: nothing was checked. The reference solution opens once every part is right ' +
        '(still to get right: work, minimum traffic, ratio and bound), or when you open it below.',
    );
    assert.equal(
      exerciseMessage(exercise, result(['right', 'empty', 'empty', 'empty']), ['work'], false),
      '1 of 4 right (minimum traffic, ratio and bound not answered). Change an answer and check again. The reference ' +
        'solution opens once every part is right (still to get right: minimum traffic, ratio and bound), or when you open it below.',
    );
    // Every part answered, one wrong: the solution is not given away.
    assert.equal(
      exerciseMessage(exercise, result(['right', 'right', 'right', 'wrong']), ['work', 'traffic', 'ratio'], false),
      '3 of 4 right. Change an answer and check again. The reference solution opens once every part is right ' +
        '(still to get right: bound), or when you open it below.',
    );
    assert.match(
      exerciseMessage(exercise, result(['right', 'empty', 'empty', 'empty']), ['work'], true),
      /The reference solution is open below\.$/,
    );
    assert.equal(
      exerciseMessage(exercise, result(['wrong', 'wrong', 'right', 'right']), ids, false),
      '2 of 4 right. Change an answer and check again. The reference solution is closed below; open it to compare.',
    );
    assert.equal(
      exerciseMessage(exercise, result(['right', 'right', 'right', 'right']), ids, true),
      'All four answers are right.',
    );
  });
});
