#!/usr/bin/env node
// Runs StableHLO files in the wasm core's interpreter (the same module the page loads): checks,
// what could not run, and each op's measured time beside its estimated flops and bytes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { loadNodeCore } from './lib/node-core.mjs';
import { runFile, runPythonFile, unreadableReport } from '../web/model/run.js';

const HELP = `usage: node scripts/run.mjs FILE... [--json] [--inputs seeded|arange] [--seed N]
                           [--args A.npy,B.npy] [--out DIR] [--memory-cap SIZE] [--no-fuse | --xla-cpu]
                           [--allow-unsupported] [--no-time] [--timing-budget S] [--entry NAME]

Parses, verifies and lowers each file (StableHLO, e.g. what jax.jit(f).lower(...).as_text()
prints, or StableHLO's own interpreter tests), then runs it in the interpreter of the wasm core:
every module of the file, its entry function (main), the check calls in it
(check.expect_eq / expect_close / expect_almost_eq / eq, with upstream's semantics), and a
measured time for each of the entry's own ops, beside that op's flops and bytes from the cost
analysis (so achieved GFLOP/s and GB/s follow). Times are measurements of this machine; flops and
bytes are estimates from the IR. An op the interpreter does not run is named with its line:col
and the file is not run — nothing is guessed.

Runs are fused by default, as XLA compiles (the fusions of analyze.mjs --fused): each fusion runs
as one unit — elementwise ops a block of elements at a time with no intermediate tensors, a dot's
epilogue applied to its output, a reduce's producers into its one input — and is timed as one,
with its flops, transcendentals and bytes counted as XLA counts a fusion (its parameters read
once, its output written once). A fusion whose ops the fused loop does not run yet runs them one
by one inside it and says why (fallback). The values are the same bits as --no-fuse gives.
Calls are inlined first, as XLA's CallInliner does. A dot's elementwise epilogue joins its fusion
as XLA's GPU backend fuses it; --xla-cpu keeps XLA CPU's rule (only an add into a matrix-vector
dot), under which a matrix-matrix dot runs alone.

A PROGRAM.py (JAX-style Python, as node scripts/lower.mjs takes it) is lowered first to the
StableHLO jax.jit(f).lower(...) prints, then run the same way; its function's arguments default
to --inputs arange (arange(size)/size each: the seed's own inputs for its lesson), since the
module keeps only their shapes; --args gives real ones. A program that does not lower is an error
at FILE:LINE:COL.

  --json               print a JSON array, one object per file: {file, dialect, status: "passed" |
                       "failed" | "not_run" | "error", checks: [{line, column, kind, passed, detail}],
                       ops: [{line, column, op, seconds, repeats, flops, transcendentals,
                       bytes_accessed, view (it ran as a view of its operand: none of its
                       bytes moved)}] (the ops that ran alone), fused, dot_epilogues (false
                       with --xla-cpu), fusions: [{name, kind
                       (kLoop | kInput | kOutput), line, column (its root), ops: [{line, column,
                       op}], seconds, repeats, flops, transcendentals, bytes_accessed, fallback
                       ("" or why it ran op by op), within (null, or {line, column, op}: the entry
                       op whose while, call or region body holds it; such a fusion is listed
                       once, untimed: its time is in that op's)}], unsupported: [{op, line, column, why}], errors: [{error,
                       message, line, column}], results: [{shape, checksum, preview, bits, elements
                       (a tuple's: one {shape, checksum, preview, bits[, elements]} each;
                       bits: FNV-1a of the result's bytes, 16 hex digits)}], inputs,
                       seconds (the run, wall clock), ops_seconds (the timed ops' and fusions'
                       times summed: what ran), untimed_ops, peak_bytes (measured),
                       memory_need_bytes (what the program's values need at most by its IR's
                       liveness, an estimate; ops' scratch comes on top)}
  --inputs seeded      run a function with arguments on deterministic values from a seed
  --inputs arange      ... or on arange(size)/size per argument (the lesson's style)
  --seed N             the seed for --inputs seeded (default 1)
  --args A.npy,B.npy   run on these NumPy .npy files (np.save writes them), one per argument of the
                       entry, in order: each must have its argument's dtype and shape exactly
                       (float32 (32, 16) for tensor<32x16xf32>; nothing is converted); for a .py,
                       one per argument of the Python function (those jit leaves out of the module,
                       which nothing reads, are not passed)
  --out DIR            write each result as DIR/result_N.npy (np.load reads it; a tuple's elements
                       one by one); with several FILEs, DIR/NAME/result_N.npy per file
  --memory-cap SIZE    the live tensors' limit: bytes, or with KiB, MiB, GiB (default: what the
                       wasm heap can still give, up to its 2 GiB; a program past it stops with an
                       error that says how much its IR needs: memory_need_bytes in the JSON)
  --no-fuse            run op by op, every intermediate written out (no fusions)
  --xla-cpu            fuse a dot's epilogue only as XLA's CPU backend does
  --allow-unsupported  a file that is not run does not make the exit status 1
  --no-time            do not time the ops (faster on big files)
  --timing-budget S    once S seconds went to timing ops, run the later ops untimed (counted in
                       untimed_ops; the page uses 15)
  --entry NAME         a .py file: lower the jax.jit(NAME).lower(...) call (default: the first)
  -h, --help           print this help

Text output: one line per file, then "N passed, N failed, N not run, N errors". Exit status 0
when nothing failed or errored (and, without --allow-unsupported, nothing was left not run),
1 otherwise.`;

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
const options = { time_ops: true, fuse: true };
let json = false;
let out;
let entry;
let allowUnsupported = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--json') json = true;
  else if (a === '--allow-unsupported') allowUnsupported = true;
  else if (a === '--no-time') options.time_ops = false;
  else if (a === '--no-fuse') options.fuse = false;
  else if (a === '--xla-cpu') options.dot_epilogues = false;
  else if (a === '--entry') {
    entry = args[++i];
    if (entry === undefined || entry === '') {
      process.stderr.write('run.mjs: --entry needs a function name (see --help)\n');
      process.exit(1);
    }
  } else if (a === '--args' || a === '--out') {
    const v = args[++i];
    if (v === undefined || v === '') {
      process.stderr.write(
        `run.mjs: ${a} needs ${a === '--args' ? 'a comma-separated list of .npy files' : 'a folder'} (see --help)\n`,
      );
      process.exit(1);
    }
    if (a === '--out') out = v;
    else {
      options.args = [];
      for (const name of v.split(',')) {
        try {
          options.args.push({ name, bytes: new Uint8Array(readFileSync(name)) });
        } catch (e) {
          process.stderr.write(`run.mjs: --args: cannot read ${name}: ${e.code || e.message}\n`);
          process.exit(1);
        }
      }
    }
  } else if (a === '--memory-cap') {
    const v = args[++i];
    const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*(B|KiB|MiB|GiB)?$/i.exec(v ?? '');
    const unit = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }[(m?.[2] ?? 'b').toLowerCase()];
    if (!m) {
      process.stderr.write(
        `run.mjs: --memory-cap must be a size in bytes, or with KiB, MiB or GiB (512MiB), got ${JSON.stringify(v ?? '')}\n`,
      );
      process.exit(1);
    }
    options.memory_cap = Math.round(Number(m[1]) * unit); // the core refuses what is out of its range, by name
  } else if (a === '--inputs' || a === '--seed' || a === '--timing-budget') {
    const v = args[++i];
    if (v === undefined) {
      process.stderr.write(`run.mjs: ${a} needs a value (see --help)\n`);
      process.exit(1);
    }
    if (a === '--inputs') options.inputs = v;
    else if (a === '--seed') options.seed = Number(v);
    else options.timing_budget_seconds = Number(v);
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
if (!options.fuse && options.dot_epilogues === false) {
  process.stderr.write(
    'run.mjs: --xla-cpu chooses how a run fuses, and --no-fuse runs op by op: give one (see --help)\n',
  );
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
  let report0;
  let text = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    report0 = unreadableReport(file, e.code || e.message);
  }
  if (text !== null) {
    const how = { npy: out !== undefined };
    const r = file.endsWith('.py')
      ? runPythonFile(core, file, text, options, entry, how)
      : runFile(core, file, text, options, how);
    if (!r.ok) {
      // Options the core refuses (a bad --inputs or --seed): the same for every file.
      process.stderr.write(`run.mjs: ${r.error}\n`);
      process.exit(1);
    }
    report0 = r.value;
    if (out !== undefined && r.files.length) writeResults(file, r.files);
  }
  const report = report0;
  counts[report.status] += 1;
  if (json) reports.push(report);
  else console.log(lineFor(report));
  for (const e of report.errors)
    process.stderr.write(
      `${file}:${e.line ? `${e.line}:${e.column}: ` : ' '}${e.line ? e.error.replace(/^\d+:\d+: /, '') : e.error}\n`,
    );
}
const seconds = (performance.now() - t0) / 1000;
if (json) console.log(JSON.stringify(reports, null, 2));
else
  console.log(
    `${counts.passed} passed, ${counts.failed} failed, ${counts.not_run} not run, ${counts.error} errors (${files.length} files, ${seconds.toFixed(1)} s)`,
  );
if (counts.failed || counts.error || (counts.not_run && !allowUnsupported)) process.exitCode = 1;
else process.exitCode ??= 0;

/** Writes a file's results as .npy files under --out (a result .npy cannot hold is an error). */
function writeResults(file, results) {
  const dir = files.length > 1 ? join(out, basename(file, extname(file))) : out;
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of results) {
      if (f.error) {
        process.stderr.write(`run.mjs: ${file}: not written: ${f.error}\n`);
        process.exitCode = 1;
      } else {
        writeFileSync(join(dir, f.name), f.bytes);
      }
    }
  } catch (e) {
    process.stderr.write(`run.mjs: --out: cannot write in ${dir}: ${e.code || e.message}\n`);
    process.exit(1);
  }
}

/** A tuple result's elements, each on its own line indented by its depth ("  [1] f32[4] checksum 6"); '' for a tensor. */
function elementLines(x, path, depth) {
  return (x.elements ?? [])
    .map(
      (e, i) =>
        `\n${'  '.repeat(depth)}${path}[${i}] ${e.shape} checksum ${e.checksum}${elementLines(e, `${path}[${i}]`, depth + 1)}`,
    )
    .join('');
}

/** One line per file (a tuple result's elements on lines of their own): its verdict and why. */
function lineFor(r) {
  const checks = r.checks.length ? `, ${r.checks.filter((c) => c.passed).length}/${r.checks.length} checks passed` : '';
  switch (r.status) {
    case 'passed': {
      const shown = r.results.length && !r.checks.length;
      const line = `${r.file}: passed${checks}${shown ? ` — result ${r.results.map((x) => `${x.shape} checksum ${x.checksum}`).join(', ')}` : ''} (${(r.seconds * 1e3).toFixed(1)} ms, measured)`;
      return shown
        ? line + r.results.map((x, k) => elementLines(x, r.results.length > 1 ? `[${k}]` : '', 1)).join('')
        : line;
    }
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
