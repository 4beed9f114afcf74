// The native build and the wasm core give the same bits on every corpus program (seeded inputs,
// seed 1, no timing), with no allowance for the platforms' libm (the core computes its
// transcendental functions with musl's in both builds): the rules are scripts/lib/native_wasm.mjs's,
// shared with `scripts/fuzz run`'s check of the programs the fuzzer kept.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { compareNativeWasm, NATIVE, runNative } from '../../scripts/lib/native_wasm.mjs';
import { loadNodeCore, ROOT } from '../../scripts/lib/node-core.mjs';

const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const FOLDERS = ['stablehlo-interpret', 'stablehlo'];

let core;
before(async () => {
  core = await loadNodeCore();
});

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
  const { compared, ran, same, differ, skipped } = compareNativeWasm(core, files);
  assert.deepEqual(skipped, [], 'every corpus file is UTF-8 and ran to its end');
  t.diagnostic(`${compared} programs compared (${ran} ran): ${same} the same bits, ` + `${differ.length} differ`);
  assert.ok(ran > 0, 'some programs ran');
  assert.deepEqual(differ, [], differ.slice(0, 10).join('\n'));
});

test("scripts/fuzz run's differential check: the fuzz target's limits on both sides, bytes that are not UTF-8 set apart", (t) => {
  if (!existsSync(NATIVE)) {
    t.skip(`${NATIVE} is missing: run scripts/build`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'rl-fuzz-diff-'));
  try {
    const program = (shape, n) =>
      `func.func @main() -> tensor<${shape}xf32> {\n` +
      `  %c = stablehlo.constant dense<1.5> : tensor<f32>\n` +
      `  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<${shape}xf32>\n` +
      `  %1 = stablehlo.add %0, %0 : tensor<${shape}xf32>\n  return %1 : tensor<${shape}xf32>\n}\n` +
      `// ${n}\n`;
    writeFileSync(join(dir, 'small'), program('4x4', 'runs'));
    // 32 MiB: past the fuzz target's 16 MiB cap on both sides (the default cap would run it).
    writeFileSync(join(dir, 'capped'), program('2048x4096', 'stops at the cap'));
    writeFileSync(join(dir, 'bytes'), Buffer.from([0x66, 0x75, 0x6e, 0x63, 0xff, 0xfe, 0x0a]));
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'lib', 'fuzz_differential.mjs'), dir], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.replace(/ \((op by op|fused)\)/, '')),
      Array(2).fill(
        'fuzz differential: 3 programs, 2 compared (1 ran to a result): 2 the same bits, 0 differ; not compared: 1 not UTF-8, 0 past the time budget',
      ),
    );
    const native = runNative([join(dir, 'capped')], ['--memory-cap', String(16 * 2 ** 20)]).get(join(dir, 'capped'));
    assert.equal(native.status, 'error');
    assert.match(native.errors[0].error, /memory cap of 16777216 bytes/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
