#!/usr/bin/env node
// Generated exercises and their solutions, from the wasm core: the same seed gives the same
// set here and on the page.
import { loadNodeCore } from './lib/node-core.mjs';

/** The help text; the families are the core's list (core.exerciseFamilies). */
const help = (families) => `usage: node scripts/exercises.mjs --seed S [--count N] [--families a,b] [--json]
       node scripts/exercises.mjs --seed S --check INDEX QUESTION ANSWER [--count N] [--families a,b]

Prints N exercises (default 5) generated from the seed S (any text: a number, a name), each
with its questions, the reference answers and a worked solution — for teachers preparing
material. Families (default all, taking turns):
${families}
--json prints them as one JSON array. --check grades one answer the way the page does and prints
the feedback (exit 0 when correct, 3 when not). A bad option exits 1.`;

class UsageError extends Error {}

function parse(argv) {
  const o = { count: 5, families: undefined, json: false, seed: undefined, check: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value (see --help)`);
      return argv[++i];
    };
    if (a === '-h' || a === '--help') return { help: true };
    else if (a === '--json') o.json = true;
    else if (a === '--seed') o.seed = value();
    else if (a === '--count') {
      const t = value();
      o.count = /^\d+$/.test(t) ? Number(t) : NaN;
      if (!(o.count >= 1 && o.count <= 100)) throw new UsageError(`--count must be an integer from 1 to 100, got ${JSON.stringify(t)}`);
    } else if (a === '--families') o.families = value().split(',').map((f) => f.trim()).filter(Boolean);
    else if (a === '--check') {
      if (i + 3 >= argv.length) throw new UsageError('--check needs INDEX QUESTION ANSWER (see --help)');
      o.check = { index: Number(argv[++i]), question: argv[++i], answer: argv[++i] };
    } else throw new UsageError(`unknown option ${JSON.stringify(a)} (see --help)`);
  }
  if (o.seed === undefined || o.seed === '') throw new UsageError('--seed is required (see --help)');
  return o;
}

let o;
try {
  o = parse(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(`exercises.mjs: ${e.message}\n`);
  process.exit(1);
}
const loaded = await loadNodeCore().then((core) => ({ core }), (e) => ({ error: e }));
if (o.help) {
  const families = loaded.core?.exerciseFamilies();
  console.log(help(families?.ok
    ? families.value.map((f) => `  ${f.id.padEnd(16)}${f.label}`).join('\n')
    : `  (listed by the wasm core, which did not load: ${loaded.error?.message ?? families?.error})`));
  process.exit(0);
}
if (loaded.error) {
  process.stderr.write(`exercises.mjs: ${loaded.error.message}\n`);
  process.exit(1);
}
const { core } = loaded;
if (o.check) {
  const r = core.checkAnswer(o.seed, o.count, o.families, o.check.index, o.check.question, o.check.answer);
  if (!r.ok) {
    process.stderr.write(`exercises.mjs: ${r.error}\n`);
    process.exit(1);
  }
  console.log(`${r.value.correct ? 'correct' : 'not correct'}: ${r.value.feedback}`);
  process.exit(r.value.correct ? 0 : 3);
}
const set = core.generateExercises(o.seed, o.count, o.families);
if (!set.ok) {
  process.stderr.write(`exercises.mjs: ${set.error}\n`);
  process.exit(1);
}
if (o.json) {
  console.log(JSON.stringify(set.value, null, 2));
} else {
  const lines = [`Exercises for seed ${JSON.stringify(o.seed)} (${set.value.length})`, ''];
  for (const e of set.value) {
    lines.push(`${e.index + 1}. ${e.title}  [${e.family}]`, `   ${e.statement}`);
    if (e.ir) lines.push('', ...e.ir.trimEnd().split('\n').map((l) => `     ${l}`), '');
    for (const q of e.questions) {
      const tolerance = q.kind === 'number' ? (q.rel_tolerance ? ` (within relative ${q.rel_tolerance})` : ' (exact)') : '';
      lines.push(`   - ${q.prompt}: ${q.exact}${q.unit && q.kind === 'number' ? ` ${q.unit}` : ''}${tolerance}`);
    }
    lines.push(`   Solution: ${e.solution}`, '');
  }
  console.log(lines.join('\n'));
}
