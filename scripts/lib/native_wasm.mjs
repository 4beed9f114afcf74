// The native build and the wasm core give the same bits: a file run by both interpreters must
// end with the same status, the same checks passed, the same errors and results whose bytes hash
// the same (`bits`, FNV-1a over the bytes as XLA stores them — NaN payloads and signed zeros
// included). The native side is build/native/rl_run_files (tests/tools/run_files.cpp), built by
// scripts/build. Used by tests/js/native_wasm.test.mjs (the corpus) and by `scripts/fuzz run`
// (the programs the fuzzer kept, under the fuzz target's limits).
//
// One known cause of difference is named, counted and reported, not hidden: transcendental
// functions computed through the platform's libm (glibc natively, musl in Emscripten), which
// differ in the last bit for some inputs — every f64 and complex one, and the f32/f16/bf16 ones
// the core does not compute with its own functions yet (chlo's asin, atanh, lgamma, …). A program
// that differs is put down to that only when it computes one of those functions; any other
// difference (data movement, arithmetic, comparisons, max/min, conversions, …) is a difference.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './node-core.mjs';

export const NATIVE = join(ROOT, 'build', 'native', 'rl_run_files');

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

/** Whether a difference in `text`'s run may come from the platforms' libm (see above). */
export const libmExplains = (text) => LIBM_OPS.test(text) || (OWN_OPS.test(text) && WIDE_TYPES.test(text));

/** What must agree: status, each check's verdict, each error, and each result's shape and bits (tuples: theirs). */
export function fingerprint(run) {
  const results = (rs) =>
    (rs ?? []).map((r) => ({ shape: r.shape, bits: r.bits, elements: r.elements ? results(r.elements) : undefined }));
  return {
    status: run.status,
    checks: (run.checks ?? []).map((c) => `${c.line}:${c.column} ${c.passed}`),
    results: results(run.results),
    errors: (run.errors ?? []).map((e) => e.error),
  };
}

/**
 * Runs `files` natively (rl_run_files with `flags`, a few processes, not one per file): a Map from
 * each file to its run report (or {status: 'error'} with the reason when the file could not be read).
 */
export function runNative(files, flags = []) {
  if (!existsSync(NATIVE)) throw new Error(`${NATIVE} is missing: run scripts/build`);
  const native = new Map();
  for (let i = 0; i < files.length; i += 200) {
    const r = spawnSync(NATIVE, [...flags, ...files.slice(i, i + 200)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`rl_run_files exited with ${r.status}: ${r.stderr}`);
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      const one = JSON.parse(line);
      native.set(one.file, one.run ?? { status: 'error', errors: [{ error: one.error }] });
    }
  }
  return native;
}

/**
 * Compares the native and the wasm runs of `files` under the same options: {compared, ran, same,
 * libm: [file], differ: [text], skipped: [{file, why}]}. options: {fuse, memoryCap, maxIterations,
 * timeBudget} (the same limits go to both); `inconclusive(report)` names a run whose outcome may
 * depend on the machine's speed (a time budget reached), compared no further. A file that is not
 * UTF-8 is skipped (the core's runText takes a string; the native side would read other bytes).
 */
export function compareNativeWasm(core, files, options = {}, inconclusive = () => null) {
  const { fuse = true, memoryCap, maxIterations, timeBudget } = options;
  const flags = [
    ...(fuse ? [] : ['--no-fuse']),
    ...(memoryCap ? ['--memory-cap', String(memoryCap)] : []),
    ...(maxIterations ? ['--max-iterations', String(maxIterations)] : []),
    ...(timeBudget ? ['--time-budget', String(timeBudget)] : []),
  ];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const texts = new Map();
  const skipped = [];
  for (const file of files) {
    try {
      texts.set(file, decoder.decode(readFileSync(file)));
    } catch {
      skipped.push({ file, why: 'not UTF-8' });
    }
  }
  const runnable = [...texts.keys()];
  const native = runNative(runnable, flags);
  const out = { compared: 0, ran: 0, same: 0, libm: [], differ: [], skipped };
  for (const file of runnable) {
    const text = texts.get(file);
    const w = core.runText(text, {
      inputs: 'seeded',
      seed: 1,
      time_ops: false,
      fuse,
      ...(memoryCap ? { memory_cap: memoryCap } : {}),
      ...(maxIterations ? { max_iterations: maxIterations } : {}),
      ...(timeBudget ? { time_budget_seconds: timeBudget } : {}),
    });
    if (!w.ok) throw new Error(`${file}: the core refused the run's options: ${w.error}`);
    const n = native.get(file);
    if (!n) throw new Error(`${file}: no native result`);
    const why = inconclusive(n) ?? inconclusive(w.value);
    if (why) {
      skipped.push({ file, why });
      continue;
    }
    const a = fingerprint(n);
    const b = fingerprint(w.value);
    out.compared++;
    if (a.status === 'passed' || a.status === 'failed') out.ran++;
    if (JSON.stringify(a) === JSON.stringify(b)) out.same++;
    else if (a.status === b.status && libmExplains(text)) out.libm.push(file);
    else
      out.differ.push(
        `${file}\n  native ${JSON.stringify(a).slice(0, 400)}\n  wasm   ${JSON.stringify(b).slice(0, 400)}`,
      );
  }
  return out;
}
