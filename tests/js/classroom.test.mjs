// Section 9's pure parts: the classroom's link keys (web/model/hash.js, web/model/classroom.js)
// and the saved progress and its exports (web/model/progress.js). The list of families is the
// core's (core.exerciseFamilies), read here as the page reads it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  classroomHash, DEFAULT_SETTINGS, effectiveSeed, familiesArg, parseCount, parseFamilies, setKey, settingsFromHash,
} from '../../web/model/classroom.js';
import { decodeHash } from '../../web/model/hash.js';
import {
  csvCell, decodeProgress, emptyProgress, encodeProgress, PROGRESS_KEY, questionProgress, recordAnswer, recordHint,
  recordSolution, resetSet, resultsCSV, resultsJSON, score, setProgress,
} from '../../web/model/progress.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

let IDS;
before(async () => { IDS = (await loadNodeCore()).exerciseFamilies().value.map((f) => f.id); });

const S = { seed: 'alice', count: 2, families: ['bound', 'fusion'], student: '' };
const T = '2030-01-02T03:04:05.000Z';
// Two exercises with the shape core.generateExercises gives (only the fields the exports read).
const EXERCISES = [
  { index: 0, family: 'bound', title: 'Which budget bounds it?', questions: [{ id: 'ridge', prompt: 'Ridge (flops per byte)', hints: ['a', 'b'] }, { id: 'bound', prompt: 'Bound', hints: ['c'] }] },
  { index: 1, family: 'fusion', title: 'Fused, "or not"', questions: [{ id: 'saved', prompt: 'Bytes fusion saves', hints: [] }] },
];

describe('classroom keys in the link', () => {
  test('decodeHash hands them over raw, with no lesson notice, next to the lesson\'s fields', () => {
    const d = decodeHash('#classroom&seed=alice%2Fbob&count=3&families=bound,fusion&student=7&m=64');
    assert.deepEqual(d.notices, []);
    assert.deepEqual(d.values, { m: '64' });
    assert.deepEqual(d.classroom, { classroom: '', seed: 'alice/bob', count: '3', families: 'bound,fusion', student: '7' });
    assert.equal(decodeHash('#m=4').classroom, null);
    assert.equal(decodeHash('#classroom').notices.length, 0);
  });

  test('settings from a link: good values taken, bad ones ignored by name with the default kept', () => {
    assert.deepEqual(settingsFromHash(null, IDS), { settings: null, notices: [] });
    assert.deepEqual(settingsFromHash(decodeHash('#classroom').classroom, IDS).settings, { ...DEFAULT_SETTINGS, families: [] });
    const good = settingsFromHash(decodeHash('#classroom&seed=x%20y&count=12&families=fusion,bound&student=Ann').classroom, IDS);
    assert.deepEqual(good, { settings: { seed: 'x y', count: 12, families: ['fusion', 'bound'], student: 'Ann' }, notices: [] });
    const bad = settingsFromHash(decodeHash('#classroom&seed=&count=0&families=bound,vibes').classroom, IDS);
    assert.deepEqual(bad.settings, { ...DEFAULT_SETTINGS, families: [] });
    assert.deepEqual(bad.notices, [
      'ignored seed="" in the link: seed must not be empty',
      'ignored count="0" in the link: count must be an integer from 1 to 100, got "0"',
      'ignored families="bound,vibes" in the link: families must be among work_traffic, bound, traffic_factor, read_ir, fusion, got "vibes"',
    ]);
    assert.equal(parseCount('101').ok, false);
    assert.equal(parseCount('2.5').ok, false);
    assert.deepEqual(parseFamilies('all', IDS), { ok: true, value: [] });
    assert.deepEqual(parseFamilies('work_traffic,bound,traffic_factor,read_ir,fusion', IDS), { ok: true, value: [] });
    assert.deepEqual(parseFamilies('fusion,bound,fusion', IDS), { ok: true, value: ['fusion', 'bound'] }, 'the order is the CLI\'s: it picks the exercises');
  });

  test('the link round-trips, the student\'s seed is teacher/student, and the progress key names the set', () => {
    const s = { seed: 'week 3 & more', count: 4, families: ['read_ir'], student: 'Bo' };
    const hash = classroomHash(s);
    assert.equal(hash, 'classroom&seed=week%203%20%26%20more&count=4&families=read_ir&student=Bo');
    assert.deepEqual(settingsFromHash(decodeHash(`#${hash}`).classroom, IDS).settings, s);
    assert.equal(classroomHash({ ...DEFAULT_SETTINGS, families: [] }), 'classroom&seed=class&count=5');
    assert.equal(effectiveSeed(s), 'week 3 & more/Bo');
    assert.equal(effectiveSeed({ ...s, student: ' ' }), 'week 3 & more');
    assert.equal(familiesArg({ ...s, families: [] }), undefined);
    assert.equal(setKey(s), '4|read_ir|week 3 & more/Bo');
  });
});

describe('saved progress', () => {
  test('answers, hints and solutions are recorded, survive encode/decode, and reset clears one set', () => {
    const key = setKey(S);
    let p = emptyProgress();
    p = recordAnswer(p, key, S, 0, 'ridge', '40', { correct: false, feedback: 'Not quite.' }, T);
    p = recordAnswer(p, key, S, 0, 'ridge', '80', { correct: true, feedback: 'Correct: 80.' }, T);
    p = recordHint(p, key, S, 0, 'bound', 1, T);
    p = recordHint(p, key, S, 0, 'bound', 1, T);  // only one hint there
    p = recordSolution(p, key, S, 1, T);
    p = recordAnswer(p, 'other', { ...S, seed: 'bob' }, 0, 'ridge', '1', { correct: false, feedback: '' }, T);
    const back = decodeProgress(encodeProgress(p));
    assert.equal(back.notice, null);
    assert.deepEqual(back.progress, p);
    const set = setProgress(back.progress, key, S);
    assert.deepEqual(questionProgress(set, 0, 'ridge'), { answer: '80', correct: true, feedback: 'Correct: 80.', attempts: 2, hints: 0 });
    assert.equal(questionProgress(set, 0, 'bound').hints, 1);
    assert.deepEqual(set.solutions, [1]);
    assert.deepEqual(score(set, EXERCISES), { right: 1, answered: 1, total: 3 });
    const reset = resetSet(back.progress, key);
    assert.deepEqual(Object.keys(reset.sets), ['other']);
    assert.deepEqual(score(setProgress(reset, key, S), EXERCISES), { right: 0, answered: 0, total: 3 });
    assert.equal(PROGRESS_KEY, 'rooflineLab.classroom.v1');
  });

  test('nothing saved is no notice; corrupt, foreign or malformed values are ignored whole, with a notice', () => {
    assert.deepEqual(decodeProgress(null), { progress: emptyProgress(), notice: null });
    const good = encodeProgress(recordAnswer(emptyProgress(), 'k', S, 0, 'ridge', '1', { correct: true, feedback: 'ok' }, T));
    const cases = [
      ['{"version":1,"sets":', /not valid JSON/],
      ['"hello"', /not Roofline Lab classroom progress/],
      ['[1,2]', /not Roofline Lab classroom progress/],
      ['{"theme":"dark"}', /not Roofline Lab classroom progress/],
      ['{"version":2,"sets":{}}', /version 2, this page reads version 1/],
      ['{"version":1,"sets":[]}', /has no sets/],
      [good.replace('"attempts":1', '"attempts":-1'), /entry "k" is malformed/],
      [good.replace('"correct":true', '"correct":"yes"'), /malformed/],
      [good.replace('"0:ridge"', '"__proto__"'), /malformed/],
      [good.replace('"answer":"1"', `"answer":"${'9'.repeat(600)}"`), /malformed/],
      [good.replace('"solutions":[]', '"solutions":"all"'), /malformed/],
    ];
    for (const [text, why] of cases) {
      const r = decodeProgress(text);
      assert.deepEqual(r.progress, emptyProgress(), text.slice(0, 60));
      assert.match(r.notice, why, text.slice(0, 60));
      assert.match(r.notice, /^The progress saved in this browser was ignored/);
    }
    // Unknown extra fields are dropped: only known ones reach the page.
    const extra = JSON.parse(good);
    extra.sets.k.questions['0:ridge'].script = 'x';
    extra.sets.k.colour = 'red';
    const r = decodeProgress(JSON.stringify(extra));
    assert.equal(r.notice, null);
    assert.deepEqual(r.progress, JSON.parse(good));
  });
});

describe('exports', () => {
  const key = setKey(S);
  let p = recordAnswer(emptyProgress(), key, S, 0, 'ridge', '=1+2', { correct: false, feedback: 'Not quite, "really".' }, T);
  p = recordAnswer(p, key, S, 1, 'saved', '4,608 B', { correct: true, feedback: 'Correct: 4608 bytes.' }, T);
  p = recordHint(p, key, S, 0, 'ridge', 2, T);
  const set = setProgress(p, key, S);

  test('CSV: a header, one line per question, quoted where needed, formulas defused', () => {
    const csv = resultsCSV(S, set, EXERCISES);
    const lines = csv.split('\r\n');
    assert.equal(lines.at(-1), '');
    assert.equal(lines[0], 'seed,student,count,families,exercise,family,title,question,prompt,answer,correct,attempts,hints_used,solution_shown,feedback');
    assert.equal(lines.length, 5);
    assert.equal(lines[1], 'alice,,2,bound fusion,1,bound,Which budget bounds it?,ridge,Ridge (flops per byte),\'=1+2,no,1,1,yes,"Not quite, ""really""."');
    assert.equal(lines[2], 'alice,,2,bound fusion,1,bound,Which budget bounds it?,bound,Bound,,,0,0,yes,');
    assert.equal(lines[3], 'alice,,2,bound fusion,2,fusion,"Fused, ""or not""",saved,Bytes fusion saves,"4,608 B",yes,1,0,yes,Correct: 4608 bytes.');
    assert.equal(csvCell('-3'), '-3');
    assert.equal(csvCell('-cmd'), '\'-cmd');
    assert.equal(csvCell('a\nb'), '"a\nb"');
  });

  test('JSON: the set, the score and every question\'s answer', () => {
    const j = resultsJSON({ ...S, student: 'Bo' }, set, EXERCISES, 'alice/Bo', T);
    assert.equal(j.kind, 'roofline-lab classroom results');
    assert.deepEqual([j.seed, j.student, j.seed_used, j.count, j.families, j.exported], ['alice', 'Bo', 'alice/Bo', 2, ['bound', 'fusion'], T]);
    assert.deepEqual(j.score, { right: 1, answered: 2, total: 3 });
    assert.deepEqual(j.questions.map((q) => [q.exercise, q.question, q.answer, q.correct, q.attempts]),
      [[1, 'ridge', '=1+2', false, 1], [1, 'bound', '', null, 0], [2, 'saved', '4,608 B', true, 1]]);
    assert.equal(resultsJSON({ ...S, families: [] }, set, EXERCISES, 'alice', T).families, 'all');
  });
});
