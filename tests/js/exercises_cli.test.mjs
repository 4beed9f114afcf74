// node scripts/exercises.mjs: generated exercises from the wasm core, the same for the same seed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (...args) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'exercises.mjs'), ...args], { encoding: 'utf8' });

test('the same seed prints the same exercises, and the CLI matches the core the page uses', async () => {
  const a = run('--seed', 'alice', '--count', '5', '--json');
  const b = run('--seed', 'alice', '--count', '5', '--json');
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  const set = JSON.parse(a.stdout);
  assert.deepEqual(set.map((e) => e.family), ['work_traffic', 'bound', 'traffic_factor', 'read_ir', 'fusion']);
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
  assert.deepEqual(only.map((e) => e.family), ['bound', 'fusion', 'bound', 'fusion']);
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
    [['--seed', 's', '--families', 'vibes'], 'exercises.mjs: family must be one of work_traffic, bound, traffic_factor, read_ir, fusion, got "vibes"'],
    [['--seed', 's', '--check', '7', 'work', '1'], 'exercises.mjs: index must be an integer from 0 to 4, got 7'],
    [['--seed', 's', '--check', '0', 'nope', '1'], 'exercises.mjs: question must be one of the exercise\'s questions, got "nope"'],
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
  const work = { kind: 'number', unit: 'flops', value: 27648, exact: '27648', rel_tolerance: 0, mistakes: [{ value: 13824, feedback: 'You counted m·k·n' }] };
  assert.deepEqual(core.checkQuestion(work, '27,648 flops').value.correct, true);
  assert.deepEqual(core.checkQuestion(work, '13824').value, { correct: false, feedback: 'You counted m·k·n' });
  assert.equal(core.checkQuestion({ kind: 'number', unit: 'flops/byte', value: 24 / 7, exact: '24/7', rel_tolerance: 1e-3 }, '3.43').value.correct, true);
  assert.equal(core.checkQuestion({ kind: 'choice', exact: 'memory-bound' }, 'Memory bound').value.correct, true);
  assert.equal(core.checkQuestion({ kind: 'set', set: [64, 32], exact: '32, 64' }, '32, 64').value.correct, true);
  assert.deepEqual(core.checkQuestion(null, 'x'), { ok: false, error: 'question must be an object, got null' });
  assert.deepEqual(core.checkQuestion({ kind: 'wat' }, 'x'), { ok: false, error: 'question.kind must be one of number, choice, set, got "wat"' });
  assert.deepEqual(core.checkQuestion(work, 5), { ok: false, error: 'answer must be a string, got number' });
});
