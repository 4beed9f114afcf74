// One size of scripts/bench's dense-module rows, in a process of its own (so the wasm heap's peak
// is this size's): node bench_dense.mjs FILE REPS → one JSON line. Analyses FILE through
// core.analyzeText, as the page does (JSON.parse and the rows' expansion included), REPS times.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadNodeCore } from './node-core.mjs';

const [file, repsArg] = process.argv.slice(2);
const core = await loadNodeCore();
const text = readFileSync(file, 'utf8');
const bytes = Buffer.byteLength(text);
const before = core.heapBytes().value.size;
const seconds = [];
let after = before;
let ops = 0;
for (let i = 0; i < Math.max(1, Number(repsArg) || 1); i++) {
  const t0 = performance.now();
  const r = core.analyzeText(text);
  seconds.push((performance.now() - t0) / 1000);
  if (!r.ok) {
    console.log(JSON.stringify({ error: r.error }));
    process.exit(1);
  }
  if (i === 0) {
    after = core.heapBytes().value.size; // the heap only grows: this is the first call's peak
    ops = r.value.modules.reduce((n, m) => n + (m.ops ? m.ops.length : 0), 0);
  }
}
console.log(
  JSON.stringify({
    bytes,
    ops,
    first_seconds: seconds[0],
    best_seconds: Math.min(...seconds),
    calls: seconds.length,
    heap_before: before,
    heap_after: after,
    js_heap_bytes: process.memoryUsage().heapUsed,
    max_rss_bytes: process.resourceUsage().maxRSS * 1024,
  }),
);
