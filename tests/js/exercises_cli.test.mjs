// node scripts/exercises.mjs: generated exercises from the wasm core, the same for the same seed;
// the set as Moodle XML (checked with xmllint); students' result files graded (--grade).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { effectiveSeed, setKey } from '../../web/model/classroom.js';
import {
  emptyProgress,
  recordAnswer,
  recordHint,
  recordSolution,
  resultsJSON,
  setProgress,
} from '../../web/model/progress.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'exercises.mjs'), ...args], { encoding: 'utf8' });

test('the same seed prints the same exercises, and the CLI matches the core the page uses', async () => {
  const a = run('--seed', 'alice', '--count', '5', '--json');
  const b = run('--seed', 'alice', '--count', '5', '--json');
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  const set = JSON.parse(a.stdout);
  assert.deepEqual(
    set.map((e) => e.family),
    ['work_traffic', 'bound', 'traffic_factor', 'read_ir', 'fusion'],
  );
  const core = await loadNodeCore();
  assert.deepEqual(core.generateExercises('alice', 5).value, set);
  assert.notDeepEqual(JSON.parse(run('--seed', 'bob', '--count', '5', '--json').stdout), set);
  for (const e of set) {
    assert.ok(e.solution.length > 20);
    for (const q of e.questions) {
      // The reference answer passes the checker the page calls.
      const v = core.checkAnswer('alice', 5, undefined, e.index, q.id, q.exact);
      assert.ok(v.ok && v.value.correct, `${e.family}/${q.id}: ${JSON.stringify(v)}`);
    }
  }
  const ir = set.find((e) => e.family === 'read_ir');
  assert.match(ir.ir, /^module @jit_workload/);
});

test('families narrow the set; the text output shows solutions', () => {
  const only = JSON.parse(run('--seed', '3', '--count', '4', '--families', 'bound,fusion', '--json').stdout);
  assert.deepEqual(
    only.map((e) => e.family),
    ['bound', 'fusion', 'bound', 'fusion'],
  );
  const text = run('--seed', '3', '--count', '2');
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^Exercises for seed "3" \(2\)/);
  assert.match(text.stdout, /Solution: work = 2·/);
});

test('--check grades an answer with feedback on the likely mistake', () => {
  const [first] = JSON.parse(run('--seed', 'alice', '--count', '1', '--json').stdout);
  const { m, k, n } = first.params;
  const right = run('--seed', 'alice', '--count', '1', '--check', '0', 'work', `${2 * m * k * n} flops`);
  assert.equal(right.status, 0);
  assert.match(right.stdout, /^correct: /);
  const wrong = run('--seed', 'alice', '--count', '1', '--check', '0', 'work', String(m * k * n));
  assert.equal(wrong.status, 3);
  assert.match(wrong.stdout, /^not correct: You counted m·k·n/);
});

test('bad options exit 1 with one line', () => {
  const cases = [
    [[], 'exercises.mjs: --seed is required (see --help)'],
    [['--seed', 's', '--count', '0'], 'exercises.mjs: --count must be an integer from 1 to 100, got "0"'],
    [
      ['--seed', 's', '--families', 'vibes'],
      'exercises.mjs: family must be one of work_traffic, bound, traffic_factor, read_ir, fusion, got "vibes"',
    ],
    [['--seed', 's', '--check', '7', 'work', '1'], 'exercises.mjs: index must be an integer from 0 to 4, got 7'],
    [
      ['--seed', 's', '--check', '0', 'nope', '1'],
      'exercises.mjs: question must be one of the exercise\'s questions, got "nope"',
    ],
    [['--seed', 's', '--wat'], 'exercises.mjs: unknown option "--wat" (see --help)'],
  ];
  for (const [args, message] of cases) {
    const out = run(...args);
    assert.equal(out.status, 1, args.join(' '));
    assert.equal(out.stderr, `${message}\n`);
  }
  assert.equal(run('--help').status, 0);
});

test('checkQuestion grades a question built in JS with the same checker', async () => {
  const core = await loadNodeCore();
  const work = {
    kind: 'number',
    unit: 'flops',
    value: 27648,
    exact: '27648',
    rel_tolerance: 0,
    mistakes: [{ value: 13824, feedback: 'You counted m·k·n' }],
  };
  assert.deepEqual(core.checkQuestion(work, '27,648 flops').value.correct, true);
  assert.deepEqual(core.checkQuestion(work, '13824').value, { correct: false, feedback: 'You counted m·k·n' });
  assert.equal(
    core.checkQuestion(
      { kind: 'number', unit: 'flops/byte', value: 24 / 7, exact: '24/7', rel_tolerance: 1e-3 },
      '3.43',
    ).value.correct,
    true,
  );
  assert.equal(core.checkQuestion({ kind: 'choice', exact: 'memory-bound' }, 'Memory bound').value.correct, true);
  assert.equal(core.checkQuestion({ kind: 'set', set: [64, 32], exact: '32, 64' }, '32, 64').value.correct, true);
  assert.deepEqual(core.checkQuestion(null, 'x'), { ok: false, error: 'question must be an object, got null' });
  assert.deepEqual(core.checkQuestion({ kind: 'wat' }, 'x'), {
    ok: false,
    error: 'question.kind must be one of number, choice, set, got "wat"',
  });
  assert.deepEqual(core.checkQuestion(work, 5), { ok: false, error: 'answer must be a string, got number' });
});

// ---- the teacher's side: Moodle XML and the gradebook ---------------------------------------

/** What xmllint says of a file: exit status and output (the tests' real XML parser). */
const xmllint = (...args) => spawnSync('xmllint', args, { encoding: 'utf8' });

test("--moodle writes well-formed Moodle XML whose answers, tolerances and choices are the core's", async () => {
  const core = await loadNodeCore();
  const dir = mkdtempSync(join(tmpdir(), 'roofline-moodle-'));
  try {
    const file = join(dir, 'week3.xml');
    const out = run('--seed', 'week 3 <&>', '--count', '6', '--moodle', file);
    assert.equal(out.status, 0, out.stderr);
    const set = core.generateExercises('week 3 <&>', 6).value;
    const questions = set.flatMap((e) => e.questions.map((q) => ({ e, q })));
    assert.equal(
      out.stdout,
      `wrote ${file}: ${questions.length} Moodle questions from 6 exercises of seed "week 3 <&>"\n`,
    );
    const lint = xmllint('--noout', file);
    assert.equal(lint.status, 0, `xmllint: ${lint.stderr}`);
    const x = (expr) => {
      const r = xmllint('--xpath', expr, file);
      assert.equal(r.status, 0, `${expr}: ${r.stderr}`);
      return r.stdout.replace(/\n$/, ''); // xmllint ends what it prints with a newline
    };
    assert.equal(x('string(/quiz/question[1]/@type)'), 'category');
    assert.equal(x('string(/quiz/question[1]/category/text)'), '$course$/top/Roofline Lab, seed week 3 <&>');
    assert.equal(x('count(/quiz/question)'), String(questions.length + 1));
    questions.forEach(({ e, q }, i) => {
      const at = `/quiz/question[${i + 2}]`;
      if (q.kind === 'number') {
        assert.equal(x(`string(${at}/@type)`), 'numerical');
        assert.equal(Number(x(`string(${at}/answer[@fraction="100"]/text)`)), q.value, `${e.title}: ${q.id}`);
        assert.equal(Number(x(`string(${at}/answer[@fraction="100"]/tolerance)`)), q.rel_tolerance * Math.abs(q.value));
        // Exact counts have no tolerance; the known mistakes are 0% answers with the core's feedback.
        if (!q.rel_tolerance) assert.equal(x(`string(${at}/answer[@fraction="100"]/tolerance)`), '0');
      } else if (q.kind === 'choice') {
        assert.equal(x(`string(${at}/@type)`), 'multichoice');
        assert.equal(x(`string(${at}/single)`), 'true');
        assert.equal(x(`string(${at}/answer[@fraction="100"]/text)`), q.exact);
        assert.equal(x(`count(${at}/answer)`), String(q.choices.length));
      } else {
        assert.equal(x(`string(${at}/single)`), 'false');
        const right = q.exact === 'none' ? ['none'] : q.exact.split(', ');
        const positive = right.map((r) => x(`string(${at}/answer[text="${r}"]/@fraction)`)).map(Number);
        assert.ok(Math.abs(positive.reduce((a, b) => a + b, 0) - 100) < 1e-3, `${positive}`);
      }
      // The statement (the IR in a <pre>) is the question's HTML; the solution its general feedback.
      const html = x(`string(${at}/questiontext/text)`);
      assert.ok(
        html.includes(
          e.statement.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
        ),
      );
      if (e.ir) assert.ok(html.includes('<pre>module @jit_'), 'the IR in a <pre>');
      assert.equal(
        x(`string(${at}/generalfeedback/text)`),
        `<p>${e.solution.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</p>`,
      );
      assert.equal(x(`count(${at}/hint)`), String(q.hints.length));
    });
    assert.equal(run('--seed', 's', '--count', '0', '--moodle', file).status, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A student's result file as the page writes it, from answers typed (checked by the core as the page does). */
function resultFile(core, seed, student, count, families, typed, exported = '2030-01-02T03:04:05.000Z') {
  const settings = { seed, count, families, student };
  const seedUsed = effectiveSeed(settings);
  const key = setKey(settings);
  let p = emptyProgress();
  for (const t of typed) {
    for (const answer of t.answers) {
      const v = core.checkAnswer(seedUsed, count, families.length ? families : undefined, t.index, t.id, answer).value;
      p = recordAnswer(p, key, settings, t.index, t.id, answer, v, exported);
    }
    for (let h = 0; h < (t.hints ?? 0); h++) p = recordHint(p, key, settings, t.index, t.id, 9, exported);
    if (t.solution) p = recordSolution(p, key, settings, t.index, exported);
  }
  const exercises = core.generateExercises(seedUsed, count, families.length ? families : undefined).value;
  return JSON.stringify(resultsJSON(settings, setProgress(p, key, settings), exercises, seedUsed, exported), null, 2);
}

test('--grade prints the gradebook the page shows: every answer regraded, refusals by file, exit 3 when some are refused', async () => {
  const core = await loadNodeCore();
  const dir = mkdtempSync(join(tmpdir(), 'roofline-grade-'));
  try {
    const fams = ['work_traffic', 'bound'];
    const ada = core.generateExercises('week3/Ada', 2, fams).value;
    const bo = core.generateExercises('week3/Bo', 2, fams).value;
    const { m, k, n } = ada[0].params;
    writeFileSync(
      join(dir, 'ada.json'),
      resultFile(core, 'week3', 'Ada', 2, fams, [
        { index: 0, id: 'work', answers: [ada[0].questions[0].exact, '400 GB/s'], hints: 1, solution: true },
        { index: 0, id: 'traffic', answers: [String(m * k + k * n + m * n)] },
      ]),
    );
    // Bo's file claims right answers that are not: the gradebook regrades them.
    const forged = JSON.parse(resultFile(core, 'week3', 'Bo', 2, fams, [{ index: 0, id: 'work', answers: ['1'] }]));
    forged.questions[0].correct = true;
    forged.questions[0].history[0].correct = true;
    forged.score.right = 6;
    writeFileSync(join(dir, 'bo.json'), JSON.stringify(forged));
    writeFileSync(join(dir, 'notes.txt'), 'not a result file');
    const json = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'exercises.mjs'), '--grade', 'ada.json', 'bo.json', 'notes.txt', '--json'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(json.status, 3, json.stderr);
    const table = JSON.parse(json.stdout);
    const files = ['ada.json', 'bo.json', 'notes.txt'].map((name) => ({
      name,
      text: readFileSync(join(dir, name), 'utf8'),
      size: statSync(join(dir, name)).size,
    }));
    assert.deepEqual(table, core.gradebook(files).value, 'the CLI prints what the core gives the page');
    assert.deepEqual(table.set, { seed: 'week3', count: 2, families: fams, from: 'files' });
    const [a, b] = table.students;
    assert.deepEqual([a.student, a.right, a.tried, a.attempts, a.hints, a.solutions], ['Ada', 1, 2, 3, 1, 1]);
    assert.deepEqual(
      a.answers.slice(0, 2).map((x) => [x.status, x.right_at, x.category]),
      [
        ['right', 1, 'right'],
        ['wrong', null, 'elements_not_bytes'],
      ],
    );
    assert.deepEqual([b.student, b.right, b.answers[0].status], ['Bo', 0, 'wrong']);
    assert.notEqual(bo[0].questions[0].exact, '1');
    assert.deepEqual(
      table.refused.map((r) => r.file),
      ['notes.txt'],
    );

    const text = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'exercises.mjs'), '--grade', 'ada.json', 'bo.json'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /^Gradebook: seed "week3", 2 exercises, families work_traffic, bound \(the set most files belong to\): 2 student\(s\) from 2 file\(s\)\n/,
    );
    assert.match(text.stdout, /\nAda +1\/6 +2 +3 +1 +1 +✓ 2x h1 s +✗ 1x s +– /);
    assert.match(text.stdout, /\nshare right +50% +0% +0% /);
    assert.match(text.stdout, /1b traffic \(1 student\(s\), elements_not_bytes\): That is the number of elements/);
    // Against a set given: both files belong to another one.
    const other = spawnSync(
      process.execPath,
      [
        join(ROOT, 'scripts', 'exercises.mjs'),
        '--grade',
        'ada.json',
        '--seed',
        'week4',
        '--count',
        '2',
        '--families',
        'work_traffic,bound',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(other.status, 3);
    assert.match(
      other.stdout,
      /ada\.json: belongs to another set \(seed "week3", 2 exercises, families work_traffic, bound\); this gradebook grades seed "week4"/,
    );
    const missing = run('--grade', join(dir, 'nope.json'));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^exercises\.mjs: cannot read .*nope\.json: ENOENT\n$/);
    assert.equal(run('--grade').stderr, 'exercises.mjs: --grade needs one or more result files (see --help)\n');
    assert.equal(
      run('--grade', 'x', '--count', '3').stderr,
      'exercises.mjs: --count and --families name the set to grade against: give --seed too\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
