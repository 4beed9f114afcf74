// node scripts/analyze.mjs: per-op costs of StableHLO text with XLA's rules, through the wasm core.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'analyze.mjs'), ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'analyze-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function lessonFile() {
  const core = await loadNodeCore();
  const path = join(dir, 'lesson.mlir');
  writeFileSync(path, core.emitWorkload(32, 16, 8, 'f32').value);
  return path;
}

test('the lesson module costs exactly what XLA recorded on CPU', async () => {
  const file = await lessonFile();
  const out = run(file, '--json');
  assert.equal(out.status, 0, out.stderr);
  const [r] = JSON.parse(out.stdout);
  assert.equal(r.file, file);
  assert.equal(r.dialect, 'stablehlo');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(
    {
      flops: r.totals.flops,
      transcendentals: r.totals.transcendentals,
      bytes_accessed: r.totals.bytes_accessed,
      operand: r.totals.bytes_accessed_operand,
      output: r.totals.bytes_accessed_output,
    },
    { flops: 8192, transcendentals: 256, bytes_accessed: 5632, operand: { 0: 3072, 1: 512 }, output: 2048 },
  );
  assert.equal(r.totals.collective_bytes, 0);
  assert.deepEqual(
    r.ops.map((o) => [o.line, o.op, o.flops, o.transcendentals, o.bytes_accessed]),
    [
      [3, 'stablehlo.dot_general', 2 * 32 * 8 * 16, 0, 4 * (32 * 16 + 16 * 8 + 32 * 8)],
      [4, 'stablehlo.tanh', 0, 32 * 8, 2 * 4 * 32 * 8],
    ],
  );
  assert.deepEqual(r.unmodeled, []);
  const text = run(file);
  assert.equal(text.status, 0);
  assert.match(
    text.stdout,
    /totals: flops 8192, transcendentals 256, bytes accessed 5632 \(operand 0: 3072, operand 1: 512, output: 2048\)/,
  );
  assert.match(text.stdout, /estimate from the IR, XLA's counting rules/);
});

test('a file that does not parse is reported as FILE:LINE:COL and the others are still analysed', async () => {
  const good = await lessonFile();
  const bad = join(dir, 'bad.mlir');
  // Cut off after line 3: the region is never closed.
  writeFileSync(
    bad,
    'module {\n  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = stablehlo.add %a, %a : tensor<2xf32>\n',
  );
  const out = run(bad, good, '--json');
  assert.equal(out.status, 1);
  const [badResult, goodResult] = JSON.parse(out.stdout);
  assert.equal(badResult.errors.length, 1);
  assert.equal(badResult.errors[0], `${bad}:4:1: error: unterminated region — expected '}', got end of input`);
  assert.equal(out.stderr, `${badResult.errors[0]}\n`);
  assert.equal(goodResult.totals.flops, 8192);
  const missing = run(join(dir, 'nope.mlir'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /nope\.mlir: cannot read: ENOENT/);
});

test('a shape-contract violation names the line and the rule', () => {
  const file = join(dir, 'contract.mlir');
  writeFileSync(
    file,
    [
      'func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {',
      '  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>',
      '  return %0 : tensor<2x5xf32>',
      '}',
      '',
    ].join('\n'),
  );
  const out = run(file);
  assert.equal(out.status, 1);
  assert.equal(
    out.stderr,
    `${file}:2:3: error: dot_general contracting dimension sizes differ — expected lhs dim 1 and rhs dim 0 of equal size, got lhs dim 1 = 3, rhs dim 0 = 4\n`,
  );
});

test('bad usage exits 1 with one line', () => {
  assert.deepEqual([run().status, run().stderr], [1, 'analyze.mjs: no FILE given (see --help)\n']);
  assert.deepEqual(
    [run('--jsn', 'x').status, run('--jsn', 'x').stderr],
    [1, 'analyze.mjs: unknown option "--jsn" (see --help)\n'],
  );
  assert.equal(run('--help').status, 0);
});

test('corpus StableHLO files give the same totals through the CLI as through the core', async (t) => {
  const folder = join(CORPUS, 'stablehlo');
  if (!existsSync(folder)) {
    t.skip(`corpus absent: ${folder} (set ROOFLINE_CORPUS)`);
    return;
  }
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.mlir') && f.startsWith('dot_general'))
    .slice(0, 5)
    .map((f) => join(folder, f));
  assert.ok(files.length > 0);
  const out = run('--json', ...files);
  assert.equal(out.status, 0, out.stderr);
  const results = JSON.parse(out.stdout);
  assert.equal(results.length, files.length);
  for (const r of results) {
    assert.deepEqual(r.errors, [], r.file);
    assert.ok(r.totals.flops > 0, r.file);
    const dots = r.ops.filter((o) => o.op === 'stablehlo.dot_general');
    assert.ok(dots.length > 0, r.file);
  }
});

test('in every corpus module the top-level rows add up to the totals', async (t) => {
  if (!existsSync(join(CORPUS, 'hlo'))) {
    t.skip(`corpus absent: ${CORPUS} (set ROOFLINE_CORPUS)`);
    return;
  }
  const core = await loadNodeCore();
  let modules = 0;
  for (const [folder, ext] of [
    ['stablehlo', '.mlir'],
    ['hlo', '.hlo'],
  ]) {
    for (const f of readdirSync(join(CORPUS, folder)).filter((x) => x.endsWith(ext))) {
      const r = core.analyzeText(readFileSync(join(CORPUS, folder, f), 'utf8'));
      if (!r.ok) continue; // invalid_concat.hlo
      for (const m of r.value.modules) {
        if (m.error) continue;
        modules++;
        const top = m.ops.filter((o) => o.top_level);
        for (const key of ['flops', 'transcendentals', 'bytes_accessed']) {
          const sum = top.reduce((a, o) => a + o[key], 0);
          assert.ok(
            Math.abs(sum - m.totals[key]) <= 1e-9 * Math.max(1, m.totals[key]),
            `${f} ${m.module_name} ${key}: ${sum} vs ${m.totals[key]}`,
          );
        }
      }
    }
  }
  assert.ok(modules > 400, `${modules} modules`);
});
