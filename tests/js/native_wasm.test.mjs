// The native build and the wasm core give the same bits: every corpus program run by both
// interpreters (seeded inputs, seed 1, no timing) must end with the same status, the same checks
// passed, and results whose bytes hash the same (`bits`, FNV-1a over the bytes as XLA stores
// them — NaN payloads and signed zeros included). The native side is build/native/rl_run_files
// (tests/tools/run_files.cpp), built by scripts/build.
//
// One known cause of difference is named, counted and printed, not hidden: transcendental
// functions computed through the platform's libm (glibc natively, musl in Emscripten), which
// differ in the last bit for some inputs — every f64 and complex one, and the f32/f16/bf16 ones
// the core does not compute with its own functions yet (chlo's asin, atanh, lgamma, …). A program
// that differs is put down to that only when it computes one of those functions; any other
// difference (data movement, arithmetic, comparisons, max/min, conversions, …) fails.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadNodeCore, ROOT } from '../../scripts/lib/node-core.mjs';

const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const NATIVE = join(ROOT, 'build', 'native', 'rl_run_files');
const FOLDERS = ['stablehlo-interpret', 'stablehlo'];

// Computed by the core's own f32 functions (cpp/kernels/math_impl.h) for f32, f16 and bf16: through
// libm only for f64 and complex elements (abs and sign: only complex ones, through hypot).
const OWN_F32 =
  'sine|cosine|tan|tanh|exponential|exponential_minus_one|log|log_plus_one|logistic|sqrt|rsqrt|erf|abs|sign';
// Through libm (in double) for every element type.
const ALWAYS_LIBM =
  'atan2|power|cbrt|asin|acos|atan|asinh|acosh|atanh|sinh|cosh|lgamma|digamma|erfc|erf_inv|polygamma|zeta|bessel_i1e';
const OWN_OPS = new RegExp(`\\b(stablehlo|chlo)\\.(${OWN_F32})\\b`);
const LIBM_OPS = new RegExp(`\\b(stablehlo|chlo)\\.(${ALWAYS_LIBM})\\b`);
const WIDE_TYPES = /[x<](f64|complex<f(32|64)>)>/;
const libmExplains = (text) => LIBM_OPS.test(text) || (OWN_OPS.test(text) && WIDE_TYPES.test(text));

let core;
before(async () => {
  core = await loadNodeCore();
});

// What must agree: status, each check's verdict, and each result's shape and bits (tuples: theirs).
function fingerprint(run) {
  const results = (rs) =>
    (rs ?? []).map((r) => ({ shape: r.shape, bits: r.bits, elements: r.elements ? results(r.elements) : undefined }));
  return {
    status: run.status,
    checks: (run.checks ?? []).map((c) => `${c.line}:${c.column} ${c.passed}`),
    results: results(run.results),
    errors: (run.errors ?? []).map((e) => e.error),
  };
}

test('the native and the wasm interpreter give the same bits on every corpus program', async (t) => {
  const folders = FOLDERS.filter((f) => existsSync(join(CORPUS, f)));
  if (folders.length === 0) {
    t.skip(`corpus absent: ${CORPUS} (set ROOFLINE_CORPUS)`);
    return;
  }
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run scripts/build`);
  const files = folders.flatMap((f) =>
    readdirSync(join(CORPUS, f))
      .filter((n) => n.endsWith('.mlir'))
      .sort()
      .map((n) => join(CORPUS, f, n)),
  );
  assert.ok(files.length > 0);
  const native = new Map();
  for (let i = 0; i < files.length; i += 200) {
    // a few processes, not one per file
    const r = spawnSync(NATIVE, files.slice(i, i + 200), { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      const one = JSON.parse(line);
      native.set(one.file, one.run ?? { status: 'error', errors: [{ error: one.error }] });
    }
  }
  let compared = 0,
    ran = 0;
  const differ = [],
    libm = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const w = core.runText(text, { inputs: 'seeded', seed: 1, time_ops: false });
    assert.ok(w.ok, `${file}: ${w.error}`);
    const n = native.get(file);
    assert.ok(n, `${file}: no native result`);
    const a = fingerprint(n),
      b = fingerprint(w.value);
    compared++;
    if (a.status === 'passed' || a.status === 'failed') ran++;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (a.status === b.status && libmExplains(text)) libm.push(file.slice(CORPUS.length + 1));
    else
      differ.push(`${file}\n  native ${JSON.stringify(a).slice(0, 400)}\n  wasm   ${JSON.stringify(b).slice(0, 400)}`);
  }
  t.diagnostic(
    `${compared} programs compared (${ran} ran): ${compared - differ.length - libm.length} the same bits, ` +
      `${libm.length} differ through the platforms' libm (transcendental functions), ${differ.length} differ otherwise`,
  );
  if (libm.length) t.diagnostic(`libm differences: ${libm.join(', ')}`);
  assert.ok(ran > 0, 'some programs ran');
  assert.deepEqual(differ, [], differ.slice(0, 10).join('\n'));
});
