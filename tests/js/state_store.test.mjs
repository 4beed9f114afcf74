// The page's one state store (web/state.js with web/classroom_state.js and web/analyze_state.js):
// its transitions in Node through the real wasm core — the lesson, a link, section 7's exercise,
// measurements, the analysis and section 9's classroom — that it stays plain, serializable data,
// and how many calls into the wasm module each change costs (one per keystroke, one per link).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  applyHash,
  applyLink,
  applyPartial,
  checkExercise,
  createState,
  hashOf,
  resetInputs,
  restoreState,
  serializeState,
  setInput,
  setMeasurements,
  setTrafficMeasurement,
} from '../../web/state.js';
import {
  applyClassroomLink,
  askClassroomReset,
  checkClassroomAnswer,
  classroomHashPart,
  classroomScore,
  classroomSnapshot,
  dismissClassroomNotices,
  loadProgress,
  resetClassroomSet,
  savedSet,
  setClassroomSheet,
  showClassroomHint,
  showClassroomSolution,
  storageResult,
  submitSettings,
} from '../../web/classroom_state.js';
import {
  analyzeBaseStepsOf,
  deriveAnalyzeView,
  errorsText,
  setAnalysis,
  setPending,
  setRoof,
  setSelected,
  withSort,
} from '../../web/analyze_state.js';
import { summarizeFile } from '../../web/model/analysis.js';
import { placeOps } from '../../web/model/analysis_view.js';
import { encodeProgress, resultsJSON } from '../../web/model/progress.js';
import {
  addGradebookFiles,
  applyGradebookLink,
  clearGradebook,
  closeGradebook,
  gradebookHashPart,
  LINK_SET_IGNORED,
  openGradebook,
  setGradebookSort,
} from '../../web/gradebook_state.js';
import { exerciseVerdicts } from '../../web/model/answers.js';
import { runSteps } from '../../web/model/steps.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

let core;
before(async () => {
  core = await loadNodeCore();
});

const T = '2030-01-02T03:04:05.000Z';
/** The calls into the wasm module that `fn` makes. */
function calls(fn) {
  const before = core.embindCalls();
  const result = fn();
  const after = core.embindCalls();
  const by = {};
  for (const [k, v] of Object.entries(after.by)) if (v !== (before.by[k] ?? 0)) by[k] = v - (before.by[k] ?? 0);
  return { result, total: after.total - before.total, by };
}
const MEASUREMENTS = {
  measurements_label: 'measurements of this machine',
  local_samples_seconds: [1e-6],
  bigger_size_timing: { m: 256, k: 256, n: 256, gflops: 12.5 },
  measured_ceilings: {
    gflops: 40,
    bandwidth_gbs: { l1: 200, l2: 100, memory: 10 },
    working_set_bytes: { l1: 1, l2: 2, memory: 3 },
  },
};

describe('the store holds every part of the page as plain data', () => {
  test('lesson, measurements, exercise, analysis and classroom, all surviving JSON unchanged', () => {
    const s = createState(core);
    assert.deepEqual(
      Object.keys(s).sort(),
      [
        'analyze',
        'classroom',
        'defaults',
        'error',
        'errors',
        'exercise',
        'figure',
        'gradebook',
        'inputs',
        'measurements',
        'notices',
        'params',
        'report',
        'show',
        'trafficMeasurement',
        'valid',
      ].sort(),
    );
    assert.deepEqual(restoreState(serializeState(s)), s);
    assert.deepEqual(structuredClone(s), s);
  });

  test('after every kind of change it still survives JSON unchanged, and a restored store gives the same link', () => {
    let s = createState(core);
    s = setInput(core, s, 'dtype', 'bf16');
    s = setMeasurements(core, s, MEASUREMENTS);
    const measuredTraffic = core.measureTraffic(1.5, { samples: 1 });
    assert.ok(measuredTraffic.ok, measuredTraffic.error);
    const withTraffic = setTrafficMeasurement(s, measuredTraffic.value);
    assert.equal(withTraffic.report, s.report, "the model's report is untouched by a measurement");
    s = withTraffic;
    s = checkExercise(core, s, { work: '27648', traffic: '1', ratio: '', bound: 'memory' });
    const text = core.exampleModules().value[0].text;
    const result = core.analyzeText(text);
    s = {
      ...s,
      analyze: setSelected(
        setAnalysis(s.analyze, {
          summary: summarizeFile('lesson.mlir', result),
          placement: placeOps(result),
          errors: [],
          ms: 1,
        }),
        0,
      ),
    };
    let c = applyClassroomLink(core, s.classroom, '#classroom&seed=week3&count=3');
    c = checkClassroomAnswer(core, c, 0, c.exercises[0].questions[0].id, '42', T);
    s = { ...s, classroom: showClassroomHint(c, 0, c.exercises[0].questions[0].id, T) };
    s = setInput(core, s, 'm', '0'); // an error on show too
    const restored = restoreState(serializeState(s));
    assert.deepEqual(restored, s);
    assert.equal(hashOf(restored), hashOf(s));
    assert.equal(classroomHashPart(restored.classroom), 'classroom&seed=week3&count=3');
  });
});

describe('calls into the wasm module', () => {
  test('a keystroke is one call; so are a reset, a measurement, a Check and a link of 8 keys', () => {
    const s = createState(core);
    assert.deepEqual(calls(() => setInput(core, s, 'm', '64')).by, { lessonReport: 1 });
    // Text that is not a number is the page's to refuse; the one call still made lets the core judge
    // every other field, so all refused fields are marked at once (issue 14, item 7).
    const peakRefused = setInput(core, s, 'peak', '0');
    const unreadable = calls(() => setInput(core, peakRefused, 'm', ''));
    assert.equal(unreadable.total, 1, 'text that is not a number costs no extra call');
    assert.deepEqual(Object.keys(unreadable.result.errors), ['m', 'peak']);
    assert.equal(calls(() => resetInputs(core, s)).total, 1);
    assert.equal(calls(() => setMeasurements(core, s, MEASUREMENTS)).total, 1);
    assert.equal(calls(() => checkExercise(core, s, { work: '1' })).total, 1);
    const link = '#m=48&k=24&n=12&dtype=bf16&peak=50&bandwidth=25&factor=3&sizes=8,16,32,64,128';
    const linked = calls(() => applyHash(core, s, link));
    assert.deepEqual(linked.by, { lessonReport: 1 });
    assert.deepEqual(linked.result.notices, []);
    assert.equal(linked.result.report.matmul_accounting.flops, 27648);
    assert.equal(calls(() => applyLink(core, s, link)).total, 1);
    assert.equal(calls(() => applyPartial(core, s, { m: 64, k: 32, bandwidth: 40 })).total, 1);
  });

  test('with measurements and an attempted exercise, a keystroke is still one call', () => {
    let s = setMeasurements(core, createState(core), MEASUREMENTS);
    s = checkExercise(core, s, { work: '27648', traffic: '', ratio: '', bound: 'memory' });
    const typed = calls(() => setInput(core, s, 'bandwidth', '40'));
    assert.equal(typed.total, 1);
    assert.ok(typed.result.figure.measured, 'the measured roofs are redrawn');
    assert.equal(typed.result.exercise.check.bound.correct, false, 'the bound is re-checked: 40 · 24/7 > 100');
  });

  test('a link value the core refuses costs one more call, and is named', () => {
    const s = createState(core);
    const r = calls(() => applyHash(core, s, '#m=1125899906842624&k=1125899906842624&n=1125899906842624&peak=50'));
    assert.equal(r.total, 2);
    assert.equal(r.result.params.peak, 50);
    assert.equal(r.result.params.n, 8, 'the last dimension that overflowed is left out');
    assert.equal(r.result.params.m, 1125899906842624);
    assert.match(
      r.result.notices[0],
      /^ignored n="1125899906842624" in the link: flops = 2·m·k·n does not fit in 128 bits/,
    );
  });
});

describe('section 7: the exercise in the store', () => {
  test("Check stores the answers; the verdicts are the core's; blank Check is no attempt; budgets re-check", () => {
    let s = createState(core);
    assert.deepEqual(s.exercise, {
      answers: { work: '', traffic: '', ratio: '', bound: '' },
      checked: false,
      attempted: false,
      tried: [],
      solved: [],
      check: {},
    });
    s = checkExercise(core, s, {});
    assert.deepEqual([s.exercise.checked, s.exercise.attempted], [true, false]);
    assert.equal(exerciseVerdicts(s.report.exercise, s.exercise.check, s.exercise.answers).attempted, false);
    assert.deepEqual(s.exercise.tried, []);
    s = checkExercise(core, s, { work: '13824' });
    assert.deepEqual(s.exercise.tried, ['work'], 'the parts answered at some Check');
    s = checkExercise(core, s, { work: '13824', traffic: '8064', ratio: '24/7', bound: 'compute' });
    assert.equal(s.exercise.attempted, true);
    assert.deepEqual(s.exercise.tried, ['work', 'traffic', 'ratio', 'bound']);
    assert.deepEqual(
      checkExercise(core, s, {}).exercise.tried,
      ['work', 'traffic', 'ratio', 'bound'],
      'kept across a blank Check',
    );
    assert.deepEqual(s.exercise.solved, ['traffic', 'ratio'], 'only the parts right at some Check');
    const solved = checkExercise(core, s, { work: '27648', traffic: '1', ratio: '', bound: 'memory' }).exercise.solved;
    assert.deepEqual(solved, ['work', 'traffic', 'ratio', 'bound'], 'right once stays right (the solution may open)');
    const v = exerciseVerdicts(s.report.exercise, s.exercise.check, s.exercise.answers).verdicts;
    assert.deepEqual(
      Object.values(v).map((x) => x.status),
      ['wrong', 'right', 'right', 'wrong'],
    );
    assert.match(v.work.message, /^You counted m·k·n/);
    s = setInput(core, s, 'bandwidth', '40'); // 40 · 24/7 ≈ 137 > 100: now compute-bound
    assert.equal(s.exercise.check.bound.correct, true);
    s = setInput(core, s, 'bandwidth', 'lots'); // bad input: the last verdicts stay with the last report
    assert.equal(s.exercise.check.bound.correct, true);
    s = checkExercise(core, s, { work: '27648', traffic: '8064', ratio: '24/7', bound: 'compute' });
    assert.equal(
      exerciseVerdicts(s.report.exercise, s.exercise.check, s.exercise.answers).allRight,
      true,
      'checked against the last valid budgets',
    );
  });
});

describe('section 9: the classroom in the store', () => {
  test("a link picks the set (the core's exercises for that seed), a bad value is ignored with a notice", () => {
    const base = createState(core).classroom;
    assert.deepEqual(
      base.families.map((f) => f.id),
      core.exerciseFamilies().value.map((f) => f.id),
    );
    assert.equal(base.exercises.length, 0);
    const linked = applyClassroomLink(core, base, '#classroom&seed=week3&count=4&families=bound,fusion');
    assert.equal(linked.inLink, true);
    assert.deepEqual(linked.exercises, core.generateExercises('week3', 4, ['bound', 'fusion']).value);
    assert.equal(linked.epoch, base.epoch + 1);
    assert.equal(classroomHashPart(linked), 'classroom&seed=week3&count=4&families=bound,fusion');
    const same = calls(() =>
      applyClassroomLink(core, linked, '#classroom&seed=week3&count=4&families=bound,fusion&m=64'),
    );
    assert.equal(same.total, 0, 'the same set is not generated again');
    assert.equal(same.result.epoch, linked.epoch);
    const bad = applyClassroomLink(core, base, '#classroom&seed=x&count=0&families=vibes');
    assert.deepEqual(bad.notices.link, [
      'ignored count="0" in the link: count must be an integer from 1 to 100, got "0"',
      `ignored families="vibes" in the link: families must be among ${base.families.map((f) => f.id).join(', ')}, got "vibes"`,
    ]);
    assert.equal(bad.settings.count, 5);
    const none = applyClassroomLink(core, linked, '#m=64');
    assert.equal(none.inLink, false);
    assert.equal(none.exercises, linked.exercises, 'without classroom keys the set on show stays');
    assert.equal(classroomHashPart(none), '');
  });

  test('the settings form: refusals by field, a new set when it changes, the order of the families kept', () => {
    const c = applyClassroomLink(core, createState(core).classroom, '#classroom&seed=a&count=2&families=fusion,bound');
    const refused = submitSettings(core, c, { seed: ' ', count: '0', student: '', checked: [] });
    assert.deepEqual(Object.keys(refused.formErrors).sort(), ['count', 'families', 'seed']);
    assert.equal(refused.exercises, c.exercises);
    const same = submitSettings(core, c, { seed: 'a', count: '2', student: '', checked: ['bound', 'fusion'] });
    assert.deepEqual(same.settings.families, ['fusion', 'bound'], "the same families keep the link's order");
    assert.equal(same.epoch, c.epoch, 'nothing changed: the cards stay');
    const all = submitSettings(core, c, {
      seed: 'a',
      count: '3',
      student: 'Ada',
      checked: c.families.map((f) => f.id),
    });
    assert.deepEqual(all.settings, { seed: 'a', count: 3, families: [], student: 'Ada' });
    assert.deepEqual(all.exercises, core.generateExercises('a/Ada', 3, undefined).value);
    assert.equal(all.epoch, c.epoch + 1);
    assert.equal(classroomSnapshot(all).seed_used, 'a/Ada');
  });

  test('answers, hints, solutions, reset, sheet, storage: progress is what localStorage would hold', () => {
    let c = applyClassroomLink(
      core,
      createState(core).classroom,
      '#classroom&seed=week3&count=2&families=work_traffic',
    );
    const q = c.exercises[0].questions[0];
    c = checkClassroomAnswer(core, c, 0, q.id, '  ', T);
    assert.equal(c.said[`0:${q.id}`], 'Type an answer first.');
    assert.equal(classroomScore(c).answered, 0);
    c = checkClassroomAnswer(core, c, 0, q.id, String(q.value / 2), T);
    assert.equal(c.said[`0:${q.id}`], undefined);
    const p = savedSet(c).questions[`0:${q.id}`];
    assert.deepEqual([p.correct, p.attempts], [false, 1]);
    assert.match(p.feedback, /You counted m·k·n/);
    c = checkClassroomAnswer(core, c, 0, q.id, q.exact, T);
    assert.deepEqual(classroomScore(c), { right: 1, answered: 1, total: 6 });
    // A later wrong answer is recorded, and the right verdict stays.
    c = checkClassroomAnswer(core, c, 0, q.id, '400 GB/s', T);
    assert.deepEqual(classroomScore(c), { right: 1, answered: 1, total: 6 });
    const after = savedSet(c).questions[`0:${q.id}`];
    assert.deepEqual(
      [after.correct, after.right_at, after.last_correct, after.attempts, after.history.length],
      [true, 2, false, 3, 3],
    );
    for (let i = 0; i < 5; i++) c = showClassroomHint(c, 0, q.id, T);
    assert.equal(savedSet(c).questions[`0:${q.id}`].hints, q.hints.length, 'hints stop at the last one');
    c = showClassroomSolution(c, 1, T);
    assert.deepEqual(savedSet(c).solutions, [1]);
    c = askClassroomReset(c, true);
    assert.equal(c.confirmReset, true);
    const epoch = c.epoch;
    c = resetClassroomSet(c);
    assert.deepEqual([c.confirmReset, c.cleared, c.epoch], [false, true, epoch + 1]);
    assert.deepEqual(classroomScore(c), { right: 0, answered: 0, total: 6 });
    assert.equal(setClassroomSheet(c, true).sheet, true);
    // Storage: a failed write is said until one succeeds; a corrupt saved value is ignored with a notice.
    const failed = storageResult(c, { ok: false, error: 'quota' });
    assert.match(failed.notices.storage.at(-1), /could not be saved in this browser \(quota\)/);
    assert.deepEqual(storageResult(failed, { ok: true }).notices.storage, []);
    assert.equal(storageResult(c, { ok: true }), c, 'nothing to say: the same state');
    const corrupt = loadProgress(createState(core).classroom, { ok: true, text: '{nope' });
    assert.match(corrupt.notices.storage[0], /was ignored \(it is not valid JSON\)/);
    const refused = loadProgress(createState(core).classroom, { ok: false, error: 'denied' });
    assert.match(refused.notices.storage[0], /cannot be saved in this browser \(denied\)/);
    assert.deepEqual(dismissClassroomNotices(refused).notices.storage, []);
    // What was saved reads back as the same progress.
    const reloaded = loadProgress(createState(core).classroom, { ok: true, text: encodeProgress(c.progress) });
    assert.deepEqual(reloaded.progress, c.progress);
  });

  test('the core refusing a check is said on the question, not recorded', () => {
    let c = applyClassroomLink(core, createState(core).classroom, '#classroom&seed=s&count=1');
    c = checkClassroomAnswer(core, c, 0, 'nope', '1', T);
    assert.equal(c.said['0:nope'], 'question must be one of the exercise\'s questions, got "nope"');
    assert.deepEqual(savedSet(c).questions, {});
  });
});

describe('section 8 and the lesson share the store', () => {
  test('the analysis keeps its part; a roof choice is a change of that part only', () => {
    const s = createState(core);
    const text = core.exampleModules().value[1].text;
    const result = core.analyzeText(text);
    const a = setRoof(
      setAnalysis(s.analyze, {
        summary: summarizeFile('mlp.mlir', result),
        placement: placeOps(result),
        errors: [],
        ms: 1,
        text,
      }),
      'h100-sxm',
    );
    const next = { ...s, analyze: a };
    assert.equal(next.report, s.report);
    assert.equal(next.analyze.roofId, 'h100-sxm');
    const restored = restoreState(serializeState(next)).analyze;
    assert.deepEqual(restored, a);
    assert.equal(restored.shown.text, text, 'the text the rows refer to is in the store');
    // A text that fails next: its errors refer to it, the rows still to the text on show.
    const bad = core.analyzeText('func.func @f() {');
    const failed = setAnalysis(setPending(a, 'x'), {
      summary: summarizeFile('input', bad),
      placement: [],
      errors: summarizeFile('input', bad).errorPlaces,
      ms: 1,
      text: 'func.func @f() {',
    });
    assert.ok(failed.errors[0].line, 'the error has a place');
    const again = restoreState(serializeState({ ...s, analyze: failed })).analyze;
    assert.equal(errorsText(again), 'func.func @f() {');
    assert.equal(again.shown.text, text);
    assert.equal(serializeState({ ...s, analyze: failed }).split(JSON.stringify(text)).length, 2, 'the text once');
  });

  test("the view's base is derived from the lesson's budgets and this machine's measurements in the page state", () => {
    let s = setMeasurements(core, createState(core), MEASUREMENTS);
    s = setInput(core, s, 'peak', '250');
    const result = core.analyzeText(core.exampleModules().value[1].text);
    const a = setRoof(
      setAnalysis(s.analyze, {
        summary: summarizeFile('mlp.mlir', result),
        placement: placeOps(result),
        errors: [],
        ms: 1,
      }),
      'measured',
    );
    s = { ...s, analyze: a };
    const view = withSort(runSteps(analyzeBaseStepsOf(core, s)), a.sort);
    assert.deepEqual(view, deriveAnalyzeView(core, a, { peak: 250, bandwidth: s.params.bandwidth }, MEASUREMENTS));
    const lesson = runSteps(analyzeBaseStepsOf(core, { ...s, analyze: setRoof(a, 'lesson') }));
    assert.equal(lesson.roof.peak, 250e9, "the lesson's roof follows the peak typed (GFLOP/s → flop/s)");
    assert.equal(view.roof.id, 'measured', "this machine's roof is there: the measurements were read");
    assert.equal(view.roof.peak, 40e9);
  });
});

describe("the teacher's gradebook in the store", () => {
  test('files graded in one call per action, the set from section 9 or from the files, sort, link, close', () => {
    const s = createState(core);
    const c = applyClassroomLink(core, s.classroom, '#classroom&seed=week3&count=2&families=bound');
    const asAnn = checkClassroomAnswer(
      core,
      { ...c, settings: { ...c.settings, student: 'Ann' } },
      0,
      'ridge',
      '0.001',
      T,
    );
    const exercises = core.generateExercises('week3/Ann', 2, ['bound']).value;
    const ann = {
      name: 'Ann.json',
      text: JSON.stringify(resultsJSON(asAnn.settings, savedSet(asAnn), exercises, 'week3/Ann', T)),
    };
    let g = s.gradebook;
    assert.deepEqual(g, {
      open: false,
      set: null,
      files: [],
      table: null,
      error: null,
      notices: [],
      sort: { key: 'student', dir: 'asc' },
    });
    const before = core.embindCalls().total;
    g = openGradebook(core, g, { seed: 'week3', count: 2, families: ['bound'] });
    assert.equal(core.embindCalls().total, before, 'no files: no call');
    g = addGradebookFiles(core, g, [ann, { name: 'junk.txt', text: 'hello', size: 5 }]);
    assert.equal(core.embindCalls().total, before + 1, 'a drop of two files is one call');
    assert.equal(g.table.students.length, 1);
    assert.equal(g.table.students[0].answers.find((a, i) => g.table.questions[i].question === 'ridge').status, 'wrong');
    assert.deepEqual(
      g.table.refused.map((r) => r.file),
      ['junk.txt'],
    );
    assert.equal(gradebookHashPart(g), 'gradebook&seed=week3&count=2&families=bound');
    // The same name again replaces the file; the store stays plain data.
    g = addGradebookFiles(core, g, [{ name: 'junk.txt', text: '{}', size: 2 }]);
    assert.equal(g.files.length, 2);
    assert.match(g.table.refused[0].reason, /not a Roofline Lab result file/);
    assert.deepEqual(restoreState(serializeState({ ...s, gradebook: g })).gradebook, g);
    assert.deepEqual(setGradebookSort(g, 'right').sort, { key: 'right', dir: 'desc' });
    assert.deepEqual(setGradebookSort(setGradebookSort(g, 'right'), 'right').sort, { key: 'right', dir: 'asc' });
    // Another set regrades what is held: Ann's file is then another set's.
    const other = openGradebook(core, g, { seed: 'other', count: 2, families: ['bound'] });
    assert.equal(other.table.students.length, 0);
    assert.match(other.table.refused.find((r) => r.file === 'Ann.json').reason, /^belongs to another set/);
    // Links: #gradebook alone grades the files' own set; with keys, that set; without, it closes.
    const linked = applyGradebookLink(core, g, '#gradebook', c.settings);
    assert.deepEqual([linked.open, linked.set, gradebookHashPart(linked)], [true, null, 'gradebook']);
    assert.equal(linked.table.set.from, 'files');
    assert.equal(
      applyClassroomLink(core, c, '#gradebook').exercises,
      c.exercises,
      '#gradebook alone leaves section 9 as it is',
    );
    assert.equal(applyGradebookLink(core, linked, '#m=4', c.settings).open, false);
    // A mistyped set in the link: said in the gradebook, and the files' own set graded (not
    // week3 with the default count, which would refuse Ann's file as another set's).
    const typo = '#gradebook&seed=week3&count=abc&families=bound';
    const typoed = applyClassroomLink(core, c, typo);
    const mistyped = applyGradebookLink(core, g, typo, typoed.settings, typoed.notices.link);
    assert.deepEqual(mistyped.notices, [
      'ignored count="abc" in the link: count must be an integer from 1 to 100, got "abc"',
      LINK_SET_IGNORED,
    ]);
    assert.equal(mistyped.set, null);
    assert.deepEqual([mistyped.table.set.from, mistyped.table.students.length], ['files', 1]);
    assert.deepEqual(closeGradebook(mistyped).notices, [], 'closing the gradebook dismisses them');
    // A bad student= is no part of the set: the link's set is graded, with no notice.
    const studentTypo = `#gradebook&seed=week3&count=2&families=bound&student=${'x'.repeat(101)}`;
    const studentTypoed = applyClassroomLink(core, c, studentTypo);
    assert.equal(studentTypoed.notices.link.length, 1);
    const kept = applyGradebookLink(core, g, studentTypo, studentTypoed.settings, studentTypoed.notices.link);
    assert.deepEqual([kept.notices, kept.set?.seed, kept.table.set.from], [[], 'week3', kept.table.set.from]);
    assert.notEqual(kept.table.set.from, 'files');
    assert.deepEqual(
      applyGradebookLink(core, g, '#gradebook&seed=week3&count=2&families=bound', c.settings, []).notices,
      [],
    );
    assert.equal(gradebookHashPart(closeGradebook(g)), '');
    assert.equal(clearGradebook(g).table, null);
    // A set the core cannot make is said, and nothing is graded.
    const bad = openGradebook(core, g, { seed: 'week3', count: 2, families: ['vibes'] });
    assert.match(bad.error, /^set: family must be one of/);
  });
});
