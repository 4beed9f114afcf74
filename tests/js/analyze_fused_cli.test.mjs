// node scripts/analyze.mjs --fused: the fusion pass through the wasm core, printed as XLA prints
// HLO, with a row per fusion and the unfused and fused totals (cpp/hlo/fuse.h has the rules).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'analyze.mjs'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
const dir = mkdtempSync(join(tmpdir(), 'analyze-fused-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function lessonFile() {
  const core = await loadNodeCore();
  const path = join(dir, 'lesson.mlir');
  writeFileSync(path, core.emitWorkload(32, 16, 8, 'f32').value);
  return path;
}

test('--fused --json: the lesson is one output fusion whose bytes leave out the 32x8 intermediate', async () => {
  const file = await lessonFile();
  const out = run(file, '--fused', '--json');
  assert.equal(out.status, 0, out.stderr);
  const [r] = JSON.parse(out.stdout);
  assert.deepEqual(r.errors, []);
  assert.equal(r.fusions.length, 1);
  const f = r.fusions[0];
  assert.equal(f.kind, 'kOutput');
  assert.equal(f.name, 'fusion.0');
  assert.deepEqual(f.ops, [
    { line: 3, column: 5, op: 'stablehlo.dot_general' },
    { line: 4, column: 5, op: 'stablehlo.tanh' },
  ]);
  assert.deepEqual([f.flops, f.transcendentals, f.bytes_accessed, f.bytes_saved], [8192, 256, 3584, 5632 - 3584]);
  assert.deepEqual(r.unfused_totals, { flops: 8192, transcendentals: 256, bytes_accessed: 5632 });
  assert.deepEqual(r.fused_totals, { flops: 8192, transcendentals: 256, bytes_accessed: 3584 });
  assert.equal(r.calls_inlined, 0);
  // The plain analysis is still there, unchanged.
  assert.equal(r.totals.bytes_accessed, 5632);
  assert.equal(r.fused_text.length, 1);
  assert.match(
    r.fused_text[0],
    /%fusion\.0 = f32\[32,8\] fusion\(f32\[32,16\] %Arg_0\.\d+, f32\[16,8\] %Arg_1\.\d+\), kind=kOutput, calls=%fused_computation\.0/,
  );
});

test("--fused inlines calls first, as XLA does: jax.nn.relu's @relu joins the dot's fusion", () => {
  const path = join(dir, 'layer.mlir');
  writeFileSync(
    path,
    `module @jit_layer {
  func.func public @main(%arg0: tensor<32x64xf32>, %arg1: tensor<64x16xf32>) -> tensor<32x16xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %1 = call @relu(%0) : (tensor<32x16xf32>) -> tensor<32x16xf32>
    return %1 : tensor<32x16xf32>
  }
  func.func private @relu(%arg0: tensor<32x16xf32>) -> tensor<32x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x16xf32>
    return %1 : tensor<32x16xf32>
  }
}
`,
  );
  const json = run(path, '--fused', '--json');
  assert.equal(json.status, 0, json.stderr);
  const [r] = JSON.parse(json.stdout);
  assert.equal(r.calls_inlined, 1);
  assert.equal(r.fusions.length, 1);
  assert.deepEqual(
    r.fusions[0].ops.map((o) => `${o.line}:${o.op}`),
    ['3:stablehlo.dot_general', '8:stablehlo.constant', '9:stablehlo.broadcast_in_dim', '10:stablehlo.maximum'],
  );
  // x and w read, the result written: the dot's 32x16 output never goes to memory.
  assert.equal(r.fused_totals.bytes_accessed, 4 * (32 * 64 + 64 * 16 + 32 * 16));
  assert.doesNotMatch(r.fused_text[0], /call\(|relu/);
  const text = run(path, '--fused');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^calls inlined first, as XLA's CallInliner does: 1$/m);
});

test('--fused prints the fused module as HLO, a row per fusion and both totals', async () => {
  const file = await lessonFile();
  const out = run(file, '--fused');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^HloModule jit_workload$/m);
  assert.match(
    out.stdout,
    /^%fused_computation\.0 \(param_0\.\d+: f32\[32,16\], param_1\.\d+: f32\[16,8\]\) -> f32\[32,8\] \{$/m,
  );
  assert.match(out.stdout, /^ {2}ROOT %tanh\.\d+ = f32\[32,8\] tanh\(f32\[32,8\] %dot\.\d+\)$/m);
  assert.match(out.stdout, /^ENTRY %main /m);
  assert.match(
    out.stdout,
    /^fusion\.0\s+kOutput\s+8192\s+256\s+3584\s+2048\s+3:5 stablehlo\.dot_general, 4:5 stablehlo\.tanh$/m,
  );
  assert.match(out.stdout, /^unfused: flops 8192, transcendentals 256, bytes accessed 5632$/m);
  assert.match(out.stdout, /^fused: {3}flops 8192, transcendentals 256, bytes accessed 3584 — saves 2048 bytes$/m);
});

test('--fused --xla-cpu leaves the matrix-matrix dot alone, as XLA CPU does', async () => {
  const file = await lessonFile();
  const out = run(file, '--fused', '--xla-cpu', '--json');
  assert.equal(out.status, 0, out.stderr);
  const [r] = JSON.parse(out.stdout);
  assert.deepEqual(r.fusions, []);
  assert.equal(r.fused_totals.bytes_accessed, 5632);
  assert.equal(run(file, '--xla-cpu').status, 1);
});

test(
  "--fused on optimized HLO reports the module's own fusions",
  { skip: !existsSync(join(CORPUS, 'hlo')) && 'corpus absent' },
  () => {
    const hlo = join(CORPUS, 'hlo');
    // The smallest corpus file that holds fusion instructions (read as text, not special-cased).
    const file = readdirSync(hlo)
      .filter((n) => n.endsWith('.hlo'))
      .map((n) => join(hlo, n))
      .filter((p) => /\bfusion\(.*kind=k\w+/.test(readFileSync(p, 'utf8')))
      .sort((a, b) => statSync(a).size - statSync(b).size)[0];
    assert.ok(file, 'some corpus HLO file has fusions');
    const out = run(file, '--fused', '--json');
    assert.equal(out.status, 0, out.stderr);
    const [r] = JSON.parse(out.stdout);
    assert.ok(r.fusions.length > 0);
    for (const f of r.fusions) {
      assert.equal(f.already_fused, true, f.name);
      assert.match(f.kind, /^k[A-Z]\w+$/);
      assert.ok(f.bytes_accessed <= f.unfused_bytes_accessed, f.name);
    }
    // Its own fusions are counted as the cost analysis counts them: the fused totals are its bytes accessed.
    assert.equal(r.fused_totals.bytes_accessed, r.totals.bytes_accessed);
    assert.equal(r.unfused_totals.bytes_accessed, r.totals.unfused_bytes_accessed);
  },
);
