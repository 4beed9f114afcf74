// `scripts/fuzz run`'s differential check (issue 23): every program the fuzzer kept (its corpus
// folder, and any seeds given) is run by the native interpreter (build/native/rl_run_files) and by
// the wasm core (dist/), op by op and fused, under the fuzz target's limits
// (tests/fuzz/run_fuzz.cpp: 16 MiB of live tensors, 1000 while iterations, seeded inputs), and
// must give the same status, checks, errors and result bits (scripts/lib/native_wasm.mjs's rules).
// The fuzz target's 2 s time budget
// is raised to 60 s here: a run that still reaches it ended by the machine's speed, not the
// program, and is counted as not compared.
//
//   node scripts/lib/fuzz_differential.mjs DIR...
// Prints the counts; exits 1 when a program differs, 2 on a usage error.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareNativeWasm } from './native_wasm.mjs';
import { loadNodeCore } from './node-core.mjs';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node scripts/lib/fuzz_differential.mjs DIR...');
  process.exit(2);
}
const files = dirs.flatMap((d) =>
  readdirSync(d)
    .map((n) => join(d, n))
    .filter((f) => statSync(f).isFile()),
);
const core = await loadNodeCore();
const limits = { memoryCap: 16 * 2 ** 20, maxIterations: 1000, timeBudget: 60 };
const tooLong = (run) =>
  (run.errors ?? []).some((e) => /the run took too long/.test(e.error ?? e.message ?? ''))
    ? 'time budget reached'
    : null;
let differs = 0;
for (const fuse of [false, true]) {
  const r = compareNativeWasm(core, files, { ...limits, fuse }, tooLong);
  const notUtf8 = r.skipped.filter((s) => s.why === 'not UTF-8').length;
  console.log(
    `fuzz differential (${fuse ? 'fused' : 'op by op'}): ${files.length} programs, ${r.compared} compared ` +
      `(${r.ran} ran to a result): ${r.same} the same bits, ` +
      `${r.differ.length} differ; not compared: ${notUtf8} not UTF-8, ${r.skipped.length - notUtf8} past the time budget`,
  );
  for (const d of r.differ.slice(0, 20)) console.log(d);
  differs += r.differ.length;
}
process.exit(differs ? 1 : 0);
