// Big programs through the JS surface: the size limit's error, the compact form the page's
// Worker posts, the CLI on a module of a quarter million ops (text and streamed --json), and the
// streaming JSON writer against JSON.stringify.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expandAnalysis } from '../../web/core.js';
import { denseHlo, denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { ChunkedWriter, writeJson } from '../../scripts/lib/json_stream.mjs';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'analyze-big-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'analyze.mjs'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });

// Each op of a dense module: [flops, transcendentals, bytes] (f32[128,128]: 16384 elements, 65536 bytes).
const E = 128 * 128;
const B = 4 * E;
const COST = {
  add: [E, 0, 3 * B],
  multiply: [E, 0, 3 * B],
  tanh: [0, E, 2 * B],
  dot: [2 * 128 ** 3, 0, 3 * B],
  negate: [E, 0, 2 * B],
};
function expectedTotals(text) {
  const t = { ops: 0, flops: 0, transcendentals: 0, bytes_accessed: 0 };
  for (const m of text.matchAll(/ (add|multiply|tanh|dot|negate)\(/g)) {
    const [f, tr, b] = COST[m[1]];
    t.ops++;
    t.flops += f;
    t.transcendentals += tr;
    t.bytes_accessed += b;
  }
  return t;
}

test("a text past the core's limit is refused with its size and the limit, before it is copied", async () => {
  const core = await loadNodeCore();
  const limit = 256 * 2 ** 20;
  const r = core.analyzeText('x'.repeat(limit + 1));
  assert.equal(r.ok, false);
  assert.equal(
    r.error,
    `the text is at least 256.0 MiB (${limit + 1} bytes), more than the 256.0 MiB (${limit} bytes) the core can analyse at once`,
  );
  assert.equal(r.input, 'text');
  // The core is still there.
  assert.equal(core.analyzeText(denseHlo(1e4)).ok, true);
  const heap = core.heapBytes();
  assert.equal(heap.ok, true);
  assert.equal(heap.value.limit, 2 ** 31);
  assert.ok(heap.value.size >= 16 * 2 ** 20 && heap.value.size <= heap.value.limit);
});

test("the compact form the page's Worker posts expands to what analyzeText gives", async () => {
  const core = await loadNodeCore();
  for (const text of [denseStablehlo(2e5), denseHlo(2e5), core.exampleModules().value[1].text]) {
    const compact = core.analyzeTextColumns(text);
    assert.equal(compact.ok, true);
    assert.equal(typeof compact.value.json, 'string');
    assert.ok(
      compact.value.columns[0].flops instanceof Int32Array || compact.value.columns[0].flops instanceof Float64Array,
    );
    assert.deepEqual(expandAnalysis(compact.value), core.analyzeText(text));
  }
  const bad = core.analyzeTextColumns('garbage');
  assert.equal(bad.ok, false);
});

test('the CLI prints a module of a quarter million ops as text (one line per op) and streams its --json', () => {
  const text = denseHlo(14e6);
  const want = expectedTotals(text);
  assert.ok(want.ops > 200000, `${want.ops} ops`);
  const file = join(dir, 'dense.hlo');
  writeFileSync(file, text);
  const plain = run(file);
  assert.equal(plain.status, 0, plain.stderr.slice(0, 500));
  assert.equal(plain.stderr, '');
  const lines = plain.stdout.split('\n');
  assert.match(lines[0], /dense\.hlo \(hlo\) — estimate from the IR/);
  assert.match(lines[1], /^\s+line\s+op\s+shape\s+flops/);
  assert.equal(lines.filter((l) => /^\s*\d+\s+(add|multiply|tanh|dot|negate)\s/.test(l)).length, want.ops);
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        `totals: flops ${want.flops}, transcendentals ${want.transcendentals}, bytes accessed ${want.bytes_accessed} `,
      ),
    ),
  );

  const small = denseStablehlo(4e6);
  writeFileSync(join(dir, 'dense.mlir'), small);
  const json = run('--json', join(dir, 'dense.mlir'), file);
  assert.equal(json.status, 0, json.stderr.slice(0, 500));
  const [s, h] = JSON.parse(json.stdout);
  assert.equal(h.ops.length, want.ops);
  assert.deepEqual(
    [h.totals.flops, h.totals.transcendentals, h.totals.bytes_accessed],
    [want.flops, want.transcendentals, want.bytes_accessed],
  );
  assert.equal(s.dialect, 'stablehlo');
  assert.equal(s.ops.length, (small.match(/ = stablehlo\./g) || []).length);
  assert.deepEqual(h.ops.at(-1), {
    ...h.ops.at(-1),
    op: 'negate',
    line: text.split('\n').length - 2,
    flops: E,
    modeled: true,
  });
});

test('writeJson writes what JSON.stringify(value, null, 2) writes, in pieces', () => {
  const values = [
    [],
    {},
    null,
    0,
    -0,
    1.5,
    NaN,
    Infinity,
    'text "quoted" \\ é\n',
    true,
    [1, [2, [3, [4, []]]], {}, { a: undefined, b: () => 1, c: null }],
    {
      ops: [
        { line: 1, dims: [2, 3], note: 'n' },
        { line: 2, dims: [], nested: { deep: [{ x: 1 }] } },
      ],
      empty: [],
      o: {},
    },
    [undefined, () => 1, Symbol('s'), { toJSON: () => 'j' }],
  ];
  for (const v of values) {
    for (const depth of [0, 1, 2, 3, 5]) {
      const parts = [];
      const out = new ChunkedWriter((t) => parts.push(t), 8);
      writeJson(v, out, depth);
      out.flush();
      assert.equal(parts.join(''), JSON.stringify(v, null, 2) ?? 'null', `${JSON.stringify(v)} at depth ${depth}`);
      assert.ok(parts.length >= 1);
    }
  }
  // Indented as an element of an outer array, as the CLI writes each file.
  const parts = [];
  const out = new ChunkedWriter((t) => parts.push(t));
  out.write('[\n  ');
  writeJson({ a: [1, { b: 2 }] }, out, 2, '  ');
  out.write('\n]');
  out.flush();
  assert.equal(parts.join(''), JSON.stringify([{ a: [1, { b: 2 }] }], null, 2));
});
