#!/usr/bin/env node
// Generated exercises and their solutions, from the wasm core: the same seed gives the same
// set here and on the page. Also the teacher's side: a set as Moodle XML, and students' result
// files graded into the class table the page's gradebook shows.
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadNodeCore } from './lib/node-core.mjs';
import {
  answerCell,
  percent,
  questionLabels,
  READ_AT_MOST,
  sortedStudents,
  studentLabel,
} from '../web/model/gradebook.js';

/** The help text; the families are the core's list (core.exerciseFamilies). */
const help = (families) => `usage: node scripts/exercises.mjs --seed S [--count N] [--families a,b] [--json]
       node scripts/exercises.mjs --seed S --check INDEX QUESTION ANSWER [--count N] [--families a,b]
       node scripts/exercises.mjs --seed S [--count N] [--families a,b] --moodle FILE
       node scripts/exercises.mjs --grade FILE... [--seed S --count N --families a,b] [--json]

Prints N exercises (default 5) generated from the seed S (any text: a number, a name), each
with its questions, the reference answers and a worked solution — for teachers preparing
material. Families (default all, taking turns):
${families}
--json prints them as one JSON array. --check grades one answer the way the page does and prints
the feedback (exit 0 when correct, 3 when not).
--moodle FILE writes the set as Moodle XML (a question bank category named after the seed:
numerical questions with the checker's tolerance, multiple choice for the bound and the sizes,
hints, the worked solution as general feedback) for Moodle's question import.
--grade FILE... grades students' result files (section 9's "Export my results (JSON)") the way
the page's gradebook does: every answer again, by the core, from the seed, the student's name
and what was typed. It prints the class table (--json: the object rooflineLab.gradebook() gives)
and each file it did not grade with the reason. With --seed (and --count, --families) the files
are graded against that set, else against the set most of them belong to. Exit 0 when every
file was graded, 3 when some were not.
A bad option or an unreadable file exits 1.`;

class UsageError extends Error {}

function parse(argv) {
  const o = {
    count: 5,
    countGiven: false,
    families: undefined,
    json: false,
    seed: undefined,
    check: null,
    moodle: null,
    grade: null,
  };
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
      if (!(o.count >= 1 && o.count <= 100))
        throw new UsageError(`--count must be an integer from 1 to 100, got ${JSON.stringify(t)}`);
      o.countGiven = true;
    } else if (a === '--moodle') o.moodle = value();
    else if (a === '--grade') {
      o.grade = [];
      while (i + 1 < argv.length && !argv[i + 1].startsWith('--')) o.grade.push(argv[++i]);
      if (!o.grade.length) throw new UsageError('--grade needs one or more result files (see --help)');
    } else if (a === '--families')
      o.families = value()
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
    else if (a === '--check') {
      if (i + 3 >= argv.length) throw new UsageError('--check needs INDEX QUESTION ANSWER (see --help)');
      o.check = { index: Number(argv[++i]), question: argv[++i], answer: argv[++i] };
    } else throw new UsageError(`unknown option ${JSON.stringify(a)} (see --help)`);
  }
  if (o.grade) {
    if (o.check || o.moodle) throw new UsageError('--grade cannot be combined with --check or --moodle');
    if (o.seed === '') throw new UsageError('--seed must not be empty');
    if (o.seed === undefined && (o.countGiven || o.families))
      throw new UsageError('--count and --families name the set to grade against: give --seed too');
    return o;
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
const loaded = await loadNodeCore().then(
  (core) => ({ core }),
  (e) => ({ error: e }),
);
if (o.help) {
  const families = loaded.core?.exerciseFamilies();
  console.log(
    help(
      families?.ok
        ? families.value.map((f) => `  ${f.id.padEnd(16)}${f.label}`).join('\n')
        : `  (listed by the wasm core, which did not load: ${loaded.error?.message ?? families?.error})`,
    ),
  );
  process.exit(0);
}
if (loaded.error) {
  process.stderr.write(`exercises.mjs: ${loaded.error.message}\n`);
  process.exit(1);
}
const { core } = loaded;
if (o.grade) process.exit(grade(o));
if (o.moodle) {
  const r = core.moodleXml(o.seed, o.count, o.families);
  if (!r.ok) {
    process.stderr.write(`exercises.mjs: ${r.error}\n`);
    process.exit(1);
  }
  try {
    writeFileSync(o.moodle, r.value);
  } catch (e) {
    process.stderr.write(`exercises.mjs: cannot write ${o.moodle}: ${e.code || e.message}\n`);
    process.exit(1);
  }
  const questions = (r.value.match(/<question type="(?!category)/g) ?? []).length;
  console.log(
    `wrote ${o.moodle}: ${questions} Moodle questions from ${o.count} exercises of seed ${JSON.stringify(o.seed)}`,
  );
  process.exit(0);
}
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
    if (e.ir)
      lines.push(
        '',
        ...e.ir
          .trimEnd()
          .split('\n')
          .map((l) => `     ${l}`),
        '',
      );
    for (const q of e.questions) {
      const tolerance =
        q.kind === 'number' ? (q.rel_tolerance ? ` (within relative ${q.rel_tolerance})` : ' (exact)') : '';
      lines.push(`   - ${q.prompt}: ${q.exact}${q.unit && q.kind === 'number' ? ` ${q.unit}` : ''}${tolerance}`);
    }
    lines.push(`   Solution: ${e.solution}`, '');
  }
  console.log(lines.join('\n'));
}

/** At most READ_AT_MOST bytes of a file, and its size (the core refuses one over its limit by its size). */
function readResult(path) {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(size, READ_AT_MOST));
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return { name: path, text: buffer.subarray(0, n).toString('utf8'), size };
  } finally {
    closeSync(fd);
  }
}

/** --grade: the class table, as the page's gradebook shows it. Returns the exit status. */
function grade(opts) {
  const files = [];
  for (const path of opts.grade) {
    try {
      files.push(readResult(path));
    } catch (e) {
      process.stderr.write(`exercises.mjs: cannot read ${path}: ${e.code || e.message}\n`);
      return 1;
    }
  }
  const set = opts.seed === undefined ? undefined : { seed: opts.seed, count: opts.count, families: opts.families };
  const r = core.gradebook(files, set);
  if (!r.ok) {
    process.stderr.write(`exercises.mjs: ${r.error}\n`);
    return 1;
  }
  const t = r.value;
  if (opts.json) {
    console.log(JSON.stringify(t, null, 2));
    return t.refused.length ? 3 : 0;
  }
  const lines = [];
  if (t.set) {
    const families = t.set.families.length ? `families ${t.set.families.join(', ')}` : 'all families';
    lines.push(
      `Gradebook: seed ${JSON.stringify(t.set.seed)}, ${t.set.count} exercises, ${families}` +
        `${t.set.from === 'files' ? ' (the set most files belong to)' : ''}: ${t.students.length} student(s) from ${t.totals.files} file(s)`,
    );
  } else {
    lines.push(`Gradebook: no file could be graded (${t.totals.files} file(s))`);
  }
  if (t.students.length) {
    const labels = questionLabels(t);
    const rows = [['student', 'right', 'tried', 'attempts', 'hints', 'solutions', ...labels]];
    for (const s of sortedStudents(t, { key: 'student', dir: 'asc' })) {
      rows.push([
        studentLabel(s),
        `${s.right}/${t.questions.length}`,
        s.tried,
        s.attempts,
        s.hints,
        s.solutions,
        ...s.answers.map((a) => {
          const c = answerCell(a);
          return `${c.mark}${a.attempts ? ` ${a.attempts}x` : ''}${a.hints ? ` h${a.hints}` : ''}${a.solution_opened ? ' s' : ''}`;
        }),
      ]);
    }
    rows.push(['share right', '', '', '', '', '', ...t.summary.map((q) => percent(q.share_right))]);
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
    lines.push(
      '',
      ...rows.map((r) =>
        r
          .map((cell, c) => String(cell).padEnd(widths[c]))
          .join('  ')
          .trimEnd(),
      ),
    );
    lines.push(
      '',
      '✓ right (at the first right attempt), ✗ tried, – not tried; Nx attempts, hN hints, s: solution opened.',
    );
    const mistakes = t.summary.map((q, i) => [q, labels[i]]).filter(([q]) => q.mistake);
    if (mistakes.length) {
      lines.push('', 'Most common mistake per question:');
      for (const [q, l] of mistakes)
        lines.push(`  ${l} (${q.mistake.students} student(s), ${q.mistake.category}): ${q.mistake.feedback}`);
    }
  }
  if (t.refused.length) {
    lines.push('', 'Not graded:');
    for (const f of t.refused) lines.push(`  ${basename(f.file)}: ${f.reason}`);
  }
  console.log(lines.join('\n'));
  return t.refused.length ? 3 : 0;
}
