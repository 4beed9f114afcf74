// The native build and the wasm core give the same bits: a file run by both interpreters must
// end with the same status, the same checks passed, the same errors and results whose bytes hash
// the same (`bits`, FNV-1a over the bytes as XLA stores them — NaN payloads and signed zeros
// included). The native side is build/native/rl_run_files (tests/tools/run_files.cpp), built by
// scripts/build. Used by tests/js/native_wasm.test.mjs (the corpus) and by `scripts/fuzz run`
// (the programs the fuzzer kept, under the fuzz target's limits).
//
// No difference is allowed for: the transcendental functions, once glibc's natively and musl's in
// wasm (a last bit apart for many inputs), are musl's in both builds (cpp/common/libm.h), and the
// complex ones are written out over them (cpp/interp/math_functions.h), never std::complex's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './node-core.mjs';

export const NATIVE = join(ROOT, 'build', 'native', 'rl_run_files');

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
 * differ: [text], skipped: [{file, why}]}. options: {fuse, memoryCap, maxIterations,
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
  const out = { compared: 0, ran: 0, same: 0, differ: [], skipped };
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
    else
      out.differ.push(
        `${file}\n  native ${JSON.stringify(a).slice(0, 400)}\n  wasm   ${JSON.stringify(b).slice(0, 400)}`,
      );
  }
  return out;
}
