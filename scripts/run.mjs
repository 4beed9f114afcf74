#!/usr/bin/env node
// Runs StableHLO files in the wasm core's interpreter (the same module the page loads): checks,
// what could not run, and each op's measured time beside its estimated flops and bytes.
import { readFileSync } from 'node:fs';
import { loadNodeCore } from './lib/node-core.mjs';

const HELP = `usage: node scripts/run.mjs FILE... [--json] [--inputs seeded|arange] [--seed N]
                           [--allow-unsupported] [--no-time]

Parses, verifies and lowers each file (StableHLO, e.g. what jax.jit(f).lower(...).as_text()
prints, or StableHLO's own interpreter tests), then runs it in the interpreter of the wasm core:
every module of the file, its entry function (main), the check calls in it
(check.expect_eq / expect_close / expect_almost_eq / eq, with upstream's semantics), and a
measured time for each of the entry's own ops, beside that op's flops and bytes from the cost
analysis (so achieved GFLOP/s and GB/s follow). Times are measurements of this machine; flops and
bytes are estimates from the IR. An op the interpreter does not run is named with its line:col
and the file is not run — nothing is guessed.

  --json               print a JSON array, one object per file: {file, dialect, status: "passed" |
                       "failed" | "not_run" | "error", checks: [{line, column, kind, passed, detail}],
                       ops: [{line, column, op, seconds, repeats, flops, transcendentals,
                       bytes_accessed}], unsupported: [{op, line, column, why}], errors: [{error,
                       message, line, column}], results: [{shape, checksum, preview}], inputs,
                       seconds, peak_bytes}
  --inputs seeded      run a function with arguments on deterministic values from a seed
  --inputs arange      ... or on arange(size)/size per argument (the lesson's style)
  --seed N             the seed for --inputs seeded (default 1)
  --allow-unsupported  a file that is not run does not make the exit status 1
  --no-time            do not time the ops (faster on big files)
  -h, --help           print this help

Text output: one line per file, then "N passed, N failed, N not run, N errors". Exit status 0
when nothing failed or errored (and, without --allow-unsupported, nothing was left not run),
1 otherwise.`;

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
const options = { time_ops: true };
let json = false;
let allowUnsupported = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--json') json = true;
  else if (a === '--allow-unsupported') allowUnsupported = true;
  else if (a === '--no-time') options.time_ops = false;
  else if (a === '--inputs' || a === '--seed') {
    const v = args[++i];
    if (v === undefined) {
      process.stderr.write(`run.mjs: ${a} needs a value (see --help)\n`);
      process.exit(1);
    }
    if (a === '--inputs') options.inputs = v;
    else options.seed = Number(v);
  } else if (a.startsWith('-')) {
    process.stderr.write(`run.mjs: unknown option ${JSON.stringify(a)} (see --help)\n`);
    process.exit(1);
  } else {
    files.push(a);
  }
}
if (files.length === 0) {
  process.stderr.write('run.mjs: no FILE given (see --help)\n');
  process.exit(1);
}

let core;
try {
  core = await loadNodeCore();
} catch (e) {
  process.stderr.write(`run.mjs: ${e.message}\n`);
  process.exit(1);
}

const counts = { passed: 0, failed: 0, not_run: 0, error: 0 };
const reports = [];
const t0 = performance.now();
for (const file of files) {
  let report;
  let text = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    report = { dialect: null, status: 'error', checks: [], ops: [], unsupported: [], results: [], inputs: 'none', seconds: 0, peak_bytes: 0,
      errors: [{ error: `cannot read: ${e.code || e.message}`, message: `cannot read: ${e.code || e.message}`, line: 0, column: 0 }] };
  }
  if (text !== null) {
    const r = core.runText(text, options);
    if (!r.ok) {
      // Options the core refuses (a bad --inputs or --seed): the same for every file.
      process.stderr.write(`run.mjs: ${r.error}\n`);
      process.exit(1);
    }
    report = r.value;
  }
  counts[report.status] += 1;
  const entry = { file, ...report };
  if (json) reports.push(entry);
  else console.log(lineFor(entry));
  for (const e of report.errors) process.stderr.write(`${file}:${e.line ? `${e.line}:${e.column}: ` : ' '}${e.line ? e.error.replace(/^\d+:\d+: /, '') : e.error}\n`);
}
const seconds = (performance.now() - t0) / 1000;
if (json) console.log(JSON.stringify(reports, null, 2));
else console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.not_run} not run, ${counts.error} errors (${files.length} files, ${seconds.toFixed(1)} s)`);
process.exitCode = counts.failed || counts.error || (counts.not_run && !allowUnsupported) ? 1 : 0;

/** One line per file: its verdict and why. */
function lineFor(r) {
  const checks = r.checks.length ? `, ${r.checks.filter((c) => c.passed).length}/${r.checks.length} checks passed` : '';
  switch (r.status) {
    case 'passed':
      return `${r.file}: passed${checks}${r.results.length && !r.checks.length ? ` — result ${r.results.map((x) => `${x.shape} checksum ${x.checksum}`).join(', ')}` : ''} (${(r.seconds * 1e3).toFixed(1)} ms, measured)`;
    case 'failed': {
      const c = r.checks.find((x) => !x.passed);
      return `${r.file}: FAILED${checks}: line ${c.line} ${c.kind}: ${c.detail}`;
    }
    case 'not_run': {
      const ops = [...new Set(r.unsupported.map((u) => `${u.op} (line ${u.line}: ${u.why})`))];
      return `${r.file}: not run — ${ops.slice(0, 3).join('; ')}${ops.length > 3 ? `; and ${ops.length - 3} more` : ''}`;
    }
    default:
      return `${r.file}: error — ${r.errors[0]?.error ?? 'unknown'}`;
  }
}
