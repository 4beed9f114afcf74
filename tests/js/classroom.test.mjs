// Section 9's pure parts: the classroom's link keys (web/model/hash.js, web/model/classroom.js)
// and the saved progress and its exports (web/model/progress.js). The list of families is the
// core's (core.exerciseFamilies), read here as the page reads it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  classroomHash,
  DEFAULT_SETTINGS,
  effectiveSeed,
  familiesArg,
  parseCount,
  parseFamilies,
  setKey,
  settingsFromHash,
} from '../../web/model/classroom.js';
import { decodeHash } from '../../web/model/hash.js';
import {
  csvCell,
  decodeProgress,
  emptyProgress,
  encodeProgress,
  MAX_HISTORY,
  PROGRESS_KEY,
  questionProgress,
  recordAnswer,
  recordHint,
  recordSolution,
  resetSet,
  resultsCSV,
  resultsJSON,
  score,
  setProgress,
  withUnnamedId,
} from '../../web/model/progress.js';
import {
  answerCell,
  gradebookCSV,
  percent,
  questionLabels,
  sortedStudents,
  studentLabel,
} from '../../web/model/gradebook.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

let IDS;
before(async () => {
  IDS = (await loadNodeCore()).exerciseFamilies().value.map((f) => f.id);
});

const S = { seed: 'alice', count: 2, families: ['bound', 'fusion'], student: '' };
const T = '2030-01-02T03:04:05.000Z';
// Two exercises with the shape core.generateExercises gives (only the fields the exports read).
const EXERCISES = [
  {
    index: 0,
    family: 'bound',
    title: 'Which budget bounds it?',
    questions: [
      { id: 'ridge', prompt: 'Ridge (flops per byte)', hints: ['a', 'b'] },
      { id: 'bound', prompt: 'Bound', hints: ['c'] },
    ],
  },
  {
    index: 1,
    family: 'fusion',
    title: 'Fused, "or not"',
    questions: [{ id: 'saved', prompt: 'Bytes fusion saves', hints: [] }],
  },
];

describe('classroom keys in the link', () => {
  test("decodeHash hands them over raw, with no lesson notice, next to the lesson's fields", () => {
    const d = decodeHash('#classroom&seed=alice%2Fbob&count=3&families=bound,fusion&student=7&m=64');
    assert.deepEqual(d.notices, []);
    assert.deepEqual(d.values, { m: '64' });
    assert.deepEqual(d.classroom, {
      classroom: '',
      seed: 'alice/bob',
      count: '3',
      families: 'bound,fusion',
      student: '7',
    });
    assert.equal(decodeHash('#m=4').classroom, null);
    assert.equal(decodeHash('#classroom').notices.length, 0);
  });

  test('settings from a link: good values taken, bad ones ignored by name with the default kept', () => {
    assert.deepEqual(settingsFromHash(null, IDS), { settings: null, notices: [] });
    assert.deepEqual(settingsFromHash(decodeHash('#classroom').classroom, IDS).settings, {
      ...DEFAULT_SETTINGS,
      families: [],
    });
    const good = settingsFromHash(
      decodeHash('#classroom&seed=x%20y&count=12&families=fusion,bound&student=Ann').classroom,
      IDS,
    );
    assert.deepEqual(good, {
      settings: { seed: 'x y', count: 12, families: ['fusion', 'bound'], student: 'Ann' },
      notices: [],
    });
    const bad = settingsFromHash(decodeHash('#classroom&seed=&count=0&families=bound,vibes').classroom, IDS);
    assert.deepEqual(bad.settings, { ...DEFAULT_SETTINGS, families: [] });
    assert.deepEqual(bad.notices, [
      'ignored seed="" in the link: seed must not be empty',
      'ignored count="0" in the link: count must be an integer from 1 to 100, got "0"',
      'ignored families="bound,vibes" in the link: families must be among work_traffic, bound, traffic_factor, read_ir, fusion, got "vibes"',
    ]);
    assert.equal(parseCount('101').ok, false);
    assert.equal(parseCount('2.5').ok, false);
    // Empty is "nothing", as every other field says it, not `got ""`.
    assert.deepEqual(parseCount('  '), { ok: false, error: 'count must be an integer from 1 to 100, got nothing' });
    assert.deepEqual(parseFamilies('all', IDS), { ok: true, value: [] });
    assert.deepEqual(parseFamilies('work_traffic,bound,traffic_factor,read_ir,fusion', IDS), { ok: true, value: [] });
    assert.deepEqual(
      parseFamilies('fusion,bound,fusion', IDS),
      { ok: true, value: ['fusion', 'bound'] },
      "the order is the CLI's: it picks the exercises",
    );
  });

  test("the link round-trips, the student's seed is teacher/student, and the progress key names the set", () => {
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
    p = recordHint(p, key, S, 0, 'bound', 1, T); // only one hint there
    p = recordSolution(p, key, S, 1, T);
    p = recordAnswer(p, 'other', { ...S, seed: 'bob' }, 0, 'ridge', '1', { correct: false, feedback: '' }, T);
    const back = decodeProgress(encodeProgress(p));
    assert.equal(back.notice, null);
    assert.deepEqual(back.progress, p);
    const set = setProgress(back.progress, key, S);
    assert.deepEqual(questionProgress(set, 0, 'ridge'), {
      answer: '80',
      correct: true,
      feedback: 'Correct: 80.',
      attempts: 2,
      hints: 0,
      right_at: 2,
      last_correct: true,
      history: [
        { answer: '40', at: T, correct: false },
        { answer: '80', at: T, correct: true },
      ],
    });
    assert.equal(questionProgress(set, 0, 'bound').hints, 1);
    assert.deepEqual(set.solutions, [1]);
    assert.deepEqual(score(set, EXERCISES), { right: 1, answered: 1, total: 3 });
    const reset = resetSet(back.progress, key);
    assert.deepEqual(Object.keys(reset.sets), ['other']);
    assert.deepEqual(score(setProgress(reset, key, S), EXERCISES), { right: 0, answered: 0, total: 3 });
    assert.equal(PROGRESS_KEY, 'rooflineLab.classroom.v1');
  });

  test("an unnamed export carries its browser's id, made once and saved; a named one carries none", () => {
    const key = setKey(S);
    let p = recordAnswer(emptyProgress(), key, S, 0, 'ridge', '80', { correct: true, feedback: '' }, T);
    p = withUnnamedId(p, key, S, 'k3f9x2');
    assert.equal(setProgress(p, key, S).unnamed_id, 'k3f9x2');
    assert.equal(withUnnamedId(p, key, S, 'zzzzzz'), p, 'kept: every export from this browser is the same student');
    const named = { ...S, student: 'Bo' };
    assert.equal(withUnnamedId(p, setKey(named), named, 'abcdef'), p, 'a name needs no id');
    assert.equal(withUnnamedId(emptyProgress(), key, S, '<b>').sets[key], undefined, 'not an id');
    const back = decodeProgress(encodeProgress(p));
    assert.equal(back.notice, null);
    assert.equal(setProgress(back.progress, key, S).unnamed_id, 'k3f9x2', 'saved in the browser');
    const bad = JSON.parse(encodeProgress(p));
    bad.sets[key].unnamed_id = 'x'.repeat(100);
    assert.match(decodeProgress(JSON.stringify(bad)).notice, /is malformed/);
    const j = resultsJSON(S, setProgress(p, key, S), EXERCISES, 'alice', T);
    assert.deepEqual([j.student, j.unnamed_id], ['', 'k3f9x2']);
    assert.equal(
      Object.hasOwn(resultsJSON(named, setProgress(p, key, S), EXERCISES, 'alice/Bo', T), 'unnamed_id'),
      false,
    );
    assert.equal(studentLabel({ student: '', unnamed_id: 'k3f9x2' }), '(no name) k3f9x2');
    assert.equal(studentLabel({ student: '', unnamed_id: '' }), '(no name)');
    assert.equal(studentLabel({ student: 'Ann', unnamed_id: '' }), 'Ann');
  });

  test('a later wrong answer does not undo a right one: the first right verdict and every attempt are kept', () => {
    const key = setKey(S);
    let p = recordAnswer(
      emptyProgress(),
      key,
      S,
      0,
      'ceiling',
      '80',
      { correct: true, feedback: 'Correct: 80 GFLOP/s.' },
      T,
    );
    p = recordAnswer(
      p,
      key,
      S,
      0,
      'ceiling',
      '400 GB/s',
      { correct: false, feedback: 'the unit "gb/s" is a bandwidth' },
      '2030-01-02T00:00:00.000Z',
    );
    const q = questionProgress(setProgress(p, key, S), 0, 'ceiling');
    assert.deepEqual([q.correct, q.right_at, q.last_correct, q.answer, q.attempts], [true, 1, false, '400 GB/s', 2]);
    assert.deepEqual(
      q.history.map((a) => [a.answer, a.correct]),
      [
        ['80', true],
        ['400 GB/s', false],
      ],
    );
    assert.deepEqual(score(setProgress(p, key, S), [{ index: 0, questions: [{ id: 'ceiling' }] }]), {
      right: 1,
      answered: 1,
      total: 1,
    });
    // Progress saved before histories were kept (version 1 as first released) still reads.
    const old = JSON.stringify({
      version: 1,
      sets: {
        [key]: {
          ...setProgress(emptyProgress(), key, S),
          updated: T,
          questions: { '0:ridge': { answer: '5', correct: true, feedback: 'ok', attempts: 1, hints: 0 } },
        },
      },
    });
    const read = decodeProgress(old);
    assert.equal(read.notice, null);
    assert.deepEqual(questionProgress(setProgress(read.progress, key, S), 0, 'ridge'), {
      answer: '5',
      correct: true,
      feedback: 'ok',
      attempts: 1,
      hints: 0,
      history: [],
      right_at: 0,
      last_correct: true,
    });
    // The history keeps the first MAX_HISTORY attempts; the count goes on.
    let many = emptyProgress();
    for (let i = 0; i < MAX_HISTORY + 5; i++)
      many = recordAnswer(many, key, S, 0, 'ridge', String(i), { correct: false, feedback: '' }, T);
    const m = questionProgress(setProgress(many, key, S), 0, 'ridge');
    assert.deepEqual(
      [m.attempts, m.history.length, m.history.at(-1).answer],
      [MAX_HISTORY + 5, MAX_HISTORY, String(MAX_HISTORY - 1)],
    );
    assert.equal(decodeProgress(encodeProgress(many)).notice, null);
  });

  test('nothing saved is no notice; corrupt, foreign or malformed values are ignored whole, with a notice', () => {
    assert.deepEqual(decodeProgress(null), { progress: emptyProgress(), notice: null });
    const good = encodeProgress(
      recordAnswer(emptyProgress(), 'k', S, 0, 'ridge', '1', { correct: true, feedback: 'ok' }, T),
    );
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
      [good.replace('"history":[', '"history":[{"answer":7,"at":"t","correct":true},'), /malformed/],
      [good.replace('"right_at":1', '"right_at":-1'), /malformed/],
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
    extra.sets.k.questions['0:ridge'].history[0].html = '<b>';
    extra.sets.k.colour = 'red';
    const r = decodeProgress(JSON.stringify(extra));
    assert.equal(r.notice, null);
    assert.deepEqual(r.progress, JSON.parse(good));
    assert.equal(JSON.stringify(r.progress).includes('<b>'), false);
  });
});

describe('exports', () => {
  const key = setKey(S);
  let p = recordAnswer(
    emptyProgress(),
    key,
    S,
    0,
    'ridge',
    '=1+2',
    { correct: false, feedback: 'Not quite, "really".' },
    T,
  );
  p = recordAnswer(p, key, S, 1, 'saved', '4,608 B', { correct: true, feedback: 'Correct: 4608 bytes.' }, T);
  p = recordHint(p, key, S, 0, 'ridge', 2, T);
  p = recordSolution(p, key, S, 1, T);
  const set = setProgress(p, key, S);

  test('CSV: a right answer followed by a wrong one shows both, each in its own column', () => {
    let q = recordAnswer(emptyProgress(), key, S, 1, 'saved', '4608', { correct: true, feedback: 'Correct.' }, T);
    q = recordAnswer(
      q,
      key,
      S,
      1,
      'saved',
      'abc',
      { correct: false, feedback: 'the answer must start with a number' },
      T,
    );
    const row = resultsCSV(S, setProgress(q, key, S), EXERCISES)
      .split('\r\n')
      .find((l) => l.includes(',saved,'));
    assert.equal(
      row,
      'alice,,2,bound fusion,2,fusion,"Fused, ""or not""",saved,Bytes fusion saves,yes,4608,1,2,abc,the answer must start with a number,0,no',
    );
  });

  test('CSV: a header, one line per question, quoted where needed, formulas defused', () => {
    const csv = resultsCSV(S, set, EXERCISES);
    const lines = csv.split('\r\n');
    assert.equal(lines.at(-1), '');
    assert.equal(
      lines[0],
      'seed,student,count,families,exercise,family,title,question,prompt,correct,right_answer,right_at_attempt,attempts,last_answer,last_feedback,hints_used,solution_shown',
    );
    assert.equal(lines.length, 5);
    // Exercise 1 had an answer checked but its solution never opened: solution_shown=no.
    assert.equal(
      lines[1],
      'alice,,2,bound fusion,1,bound,Which budget bounds it?,ridge,Ridge (flops per byte),no,,,1,\'=1+2,"Not quite, ""really"".",1,no',
    );
    assert.equal(lines[2], 'alice,,2,bound fusion,1,bound,Which budget bounds it?,bound,Bound,,,,0,,,0,no');
    assert.equal(
      lines[3],
      'alice,,2,bound fusion,2,fusion,"Fused, ""or not""",saved,Bytes fusion saves,yes,"4,608 B",1,1,"4,608 B",Correct: 4608 bytes.,0,yes',
    );
    assert.equal(csvCell('-3'), '-3');
    assert.equal(csvCell('-cmd'), "'-cmd");
    assert.equal(csvCell('a\nb'), '"a\nb"');
  });

  test("JSON: the set, the score and every question's answer", () => {
    const j = resultsJSON({ ...S, student: 'Bo' }, set, EXERCISES, 'alice/Bo', T);
    assert.equal(j.kind, 'roofline-lab classroom results');
    assert.equal(j.version, 2);
    assert.deepEqual(j.questions[0].history, [{ answer: '=1+2', at: T, correct: false }]);
    assert.deepEqual(
      j.questions.map((q) => q.solution_opened),
      [false, false, true],
    );
    assert.deepEqual(
      [j.seed, j.student, j.seed_used, j.count, j.families, j.exported],
      ['alice', 'Bo', 'alice/Bo', 2, ['bound', 'fusion'], T],
    );
    assert.deepEqual(j.score, { right: 1, answered: 2, total: 3 });
    assert.deepEqual(
      j.questions.map((q) => [q.exercise, q.question, q.answer, q.correct, q.attempts]),
      [
        [1, 'ridge', '=1+2', false, 1],
        [1, 'bound', '', null, 0],
        [2, 'saved', '4,608 B', true, 1],
      ],
    );
    assert.equal(resultsJSON({ ...S, families: [] }, set, EXERCISES, 'alice', T).families, 'all');
  });
});

describe("the gradebook's table as shown and exported (web/model/gradebook.js)", () => {
  const answer = (status, attempts = 0, extra = {}) => ({
    status,
    attempts,
    right_at: status === 'right' ? 1 : null,
    hints: 0,
    solution_opened: false,
    answer: '',
    feedback: '',
    category: '',
    ...extra,
  });
  const TABLE = {
    set: { seed: 's', count: 2, families: [], from: 'given' },
    questions: [
      { exercise: 0, family: 'f', title: 'T0', question: 'work', prompt: 'Work', hints: 2 },
      { exercise: 0, family: 'f', title: 'T0', question: 'traffic', prompt: 'Traffic', hints: 2 },
      { exercise: 1, family: 'g', title: 'T1', question: 'ridge', prompt: 'Ridge', hints: 1 },
    ],
    students: [
      {
        file: 'b.json',
        student: 'Bo',
        seed_used: 's/Bo',
        exported: '',
        right: 1,
        tried: 2,
        attempts: 3,
        hints: 1,
        solutions: 0,
        answers: [answer('wrong', 2, { hints: 1 }), answer('not_tried'), answer('right', 1)],
      },
      {
        file: 'a.json',
        student: 'Ada',
        seed_used: 's/Ada',
        exported: '',
        right: 1,
        tried: 1,
        attempts: 1,
        hints: 0,
        solutions: 1,
        answers: [
          answer('right', 1, { solution_opened: true }),
          answer('not_tried', 0, { solution_opened: true }),
          answer('not_tried'),
        ],
      },
      {
        file: 'c.json',
        student: '=cmd',
        seed_used: 's/=cmd',
        exported: '',
        right: 0,
        tried: 0,
        attempts: 0,
        hints: 0,
        solutions: 0,
        answers: [answer('not_tried'), answer('not_tried'), answer('not_tried')],
      },
    ],
    summary: [
      { students: 3, tried: 2, right: 1, share_right: 1 / 3, mistake: null },
      { students: 3, tried: 0, right: 0, share_right: 0, mistake: null },
      { students: 3, tried: 1, right: 1, share_right: 1 / 3, mistake: null },
    ],
    refused: [],
    totals: { files: 3, students: 3, refused: 0 },
  };

  test('columns are named by exercise and question; cells say the status, attempts, hints and solution', () => {
    assert.deepEqual(questionLabels(TABLE), ['1a work', '1b traffic', '2a ridge']);
    assert.deepEqual(answerCell(TABLE.students[0].answers[0]), {
      mark: '✗',
      word: 'wrong',
      detail: '2 attempts, 1 hint',
      title: 'wrong, 2 attempts, 1 hint',
    });
    assert.deepEqual(answerCell(TABLE.students[1].answers[0]).word, 'right at attempt 1');
    assert.equal(answerCell(TABLE.students[1].answers[1]).detail, 'solution');
    assert.equal(percent(1 / 3), '33%');
    assert.equal(percent(null), '');
  });

  test('sorting: by name, by totals (ties by name), by a question (right first, then fewer attempts)', () => {
    const names = (sort) => sortedStudents(TABLE, sort).map((s) => s.student);
    assert.deepEqual(names({ key: 'student', dir: 'asc' }), ['=cmd', 'Ada', 'Bo']);
    assert.deepEqual(names({ key: 'student', dir: 'desc' }), ['Bo', 'Ada', '=cmd']);
    assert.deepEqual(names({ key: 'right', dir: 'desc' }), ['Ada', 'Bo', '=cmd']);
    assert.deepEqual(names({ key: 'attempts', dir: 'desc' }), ['Bo', 'Ada', '=cmd']);
    assert.deepEqual(names({ key: 'q0', dir: 'desc' }), ['Ada', 'Bo', '=cmd']);
    assert.deepEqual(names({ key: 'q2', dir: 'desc' }), ['Bo', '=cmd', 'Ada']);
    assert.notEqual(
      sortedStudents(TABLE, { key: 'right', dir: 'asc' }),
      TABLE.students,
      'a copy: the table is not reordered',
    );
  });

  test('CSV: a line per student in the order shown, per question its status, attempts and hints, formulas defused', () => {
    const lines = gradebookCSV(TABLE, { key: 'student', dir: 'desc' }).split('\r\n');
    assert.equal(
      lines[0],
      'student,file,right,tried,questions,attempts,hints,solutions,1a work,1a work attempts,1a work hints,' +
        '1b traffic,1b traffic attempts,1b traffic hints,2a ridge,2a ridge attempts,2a ridge hints,1 solution opened,2 solution opened',
    );
    assert.equal(lines[1], 'Bo,b.json,1,2,3,3,1,0,wrong,2,1,not tried,0,0,right at attempt 1,1,0,no,no');
    assert.equal(lines[2], 'Ada,a.json,1,1,3,1,0,1,right at attempt 1,1,0,not tried,0,0,not tried,0,0,yes,no');
    assert.equal(lines[3], "'=cmd,c.json,0,0,3,0,0,0,not tried,0,0,not tried,0,0,not tried,0,0,no,no");
    assert.equal(lines[4], 'share right,,,,,,,,33%,,,0%,,,33%,,,,');
    assert.equal(lines[5], '');
  });
});
