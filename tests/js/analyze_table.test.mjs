// The CLI's per-op table, made in the core (cpp/hlo/table.h) and streamed a chunk at a time
// (core.tableStart / tableNext): the same lines the CLI printed when JavaScript built them from
// core.analyzeText's rows. The reference below is that earlier JavaScript (web/model/analysis.js's
// summaryLines, kept here as the test's oracle), run on the non-streamed analysis.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { denseHlo, denseStablehlo } from '../../scripts/lib/dense_modules.mjs';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { ESTIMATE_LABEL, summarizeFile } from '../../web/model/analysis.js';
import { sci, short } from '../../web/model/format.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
const dir = mkdtempSync(join(tmpdir(), 'analyze-table-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'analyze.mjs'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });

let core;
before(async () => {
  core = await loadNodeCore();
});

// ---- the oracle: the table as JavaScript made it from the rows before the core did ----
const num = (x) =>
  x == null ? '—' : Number.isInteger(x) && Math.abs(x) < 1e15 ? String(x) : Math.abs(x) >= 1e15 ? sci(x, 4) : short(x);
function referenceLines(s) {
  const lines = [];
  if (s.ops.length) {
    const header = ['line', 'op', 'shape', 'flops', 'transcendentals', 'bytes', 'intensity'];
    const rows = s.ops.map((o) => [
      String(o.line),
      o.op + (o.modeled ? '' : ' (unmodeled)'),
      o.shape,
      num(o.flops),
      num(o.transcendentals),
      num(o.bytes_accessed),
      o.intensity == null ? '—' : short(o.intensity),
    ]);
    const widths = header.map((h) => h.length);
    for (const r of rows) for (let i = 0; i < r.length; i++) if (r[i].length > widths[i]) widths[i] = r[i].length;
    const fmt = (r) => r.map((c, i) => (i === 1 || i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    lines.push(fmt(header));
    for (const r of rows) lines.push(fmt(r));
  }
  const t = s.totals;
  if (s.modules.length) {
    lines.push(
      `totals: flops ${num(t.flops)}, transcendentals ${num(t.transcendentals)}, bytes accessed ${num(t.bytes_accessed)} ` +
        `(${Object.entries(t.bytes_accessed_operand)
          .map(([i, b]) => `operand ${i}: ${num(b)}`)
          .join(
            ', ',
          )}${Object.keys(t.bytes_accessed_operand).length ? ', ' : ''}output: ${num(t.bytes_accessed_output)}), ` +
        `intensity ${t.intensity == null ? '—' : short(t.intensity)} flops/byte`,
      ...(t.unfused_bytes_accessed !== t.bytes_accessed
        ? [
            `fusion: ${num(t.bytes_accessed)} bytes at fusion boundaries vs ${num(t.unfused_bytes_accessed)} unfused — saves ${num(t.unfused_bytes_accessed - t.bytes_accessed)}`,
          ]
        : []),
      `minimum traffic (arguments + results, once each): ${num(t.minimum_traffic_bytes)} bytes` +
        (t.collective_bytes ? `; collective bytes per device: ${num(t.collective_bytes)}` : ''),
    );
  }
  if (s.unmodeled.length)
    lines.push(`unmodeled (no cost rule; not counted): ${s.unmodeled.map((u) => `${u.op} ×${u.count}`).join(', ')}`);
  for (const n of s.notes) lines.push(`note: ${n}`);
  return lines.map((l) => `${l}\n`).join('');
}

/** The core's table of `text`, streamed `bytes` at a time: {start, text, chunks}. */
function streamed(text, bytes = 1 << 20) {
  const start = core.tableStart(text);
  if (!start.ok) return { start };
  const decoder = new TextDecoder();
  const chunks = [];
  for (;;) {
    const c = core.tableNext(start.value.handle, bytes);
    assert.equal(c.ok, true, c.error);
    if (c.value.length === 0) break;
    chunks.push(decoder.decode(c.value)); // copied out before the next call, as the CLI writes it
  }
  return { start, text: chunks.join(''), chunks };
}

function sameAsReference(name, text) {
  // analyzeText takes a string; the table the bytes, as the CLI hands them over.
  const s = summarizeFile(name, core.analyzeText(typeof text === 'string' ? text : new TextDecoder().decode(text)));
  const got = streamed(typeof text === 'string' ? new TextEncoder().encode(text) : text);
  if (!s.dialect) {
    assert.equal(got.start.ok, false, `${name}: the table analysed a text analyzeText refused`);
    assert.equal(summarizeFile(name, got.start).errors.join('\n'), s.errors.join('\n'));
    return 0;
  }
  assert.equal(got.start.ok, true, `${name}: ${got.start.error}`);
  assert.equal(got.start.value.dialect, s.dialect);
  assert.equal(got.start.value.rows, s.ops.length);
  assert.deepEqual(
    got.start.value.errors.map((e) => `${name}:${e.error}`.replace(/^([^:]+):(?!\d+:\d+: )/, '$1: ')),
    s.errors,
  );
  assert.equal(got.text, referenceLines(s), `${name}: the core's table differs from the rows' reference`);
  return s.ops.length;
}

// A module whose ops give intensities with every kind of rounding: an exact tie at the fourth
// digit (the dot's 1000 flops / 1280 bytes = 0.78125 → "0.7813", where printf's rounding to even
// gives 0.7812), repeating fractions, zero, no bytes, an unmodeled op, and a second module that
// does not verify.
const EDGES = [
  'module @edges {',
  '  func.func public @main(%a: tensor<17xf32>, %b: tensor<10x2xf32>, %c: tensor<16xf32>, %d: tensor<10x25xf32>) -> tensor<17xf32> {',
  '    %0 = stablehlo.add %a, %a : tensor<17xf32>',
  '    %1 = stablehlo.dot_general %b, %d, contracting_dims = [0] x [0] : (tensor<10x2xf32>, tensor<10x25xf32>) -> tensor<2x25xf32>',
  '    %2 = stablehlo.tanh %c : tensor<16xf32>',
  '    %3 = stablehlo.custom_call @foo(%a) : (tensor<17xf32>) -> tensor<17xf32>',
  '    %4 = stablehlo.multiply %0, %3 : tensor<17xf32>',
  '    return %4 : tensor<17xf32>',
  '  }',
  '}',
  '// -----',
  'module @broken {',
  '  func.func public @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {',
  '    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>',
  '    return %0 : tensor<2x5xf32>',
  '  }',
  '}',
  '',
].join('\n');

test("the core's table is the rows' table, line for line, on small and edge modules", () => {
  let rows = 0;
  rows += sameAsReference('lesson.mlir', core.emitWorkload(32, 16, 8, 'f32').value);
  for (const m of core.exampleModules().value) rows += sameAsReference(`${m.name}.mlir`, m.text);
  rows += sameAsReference('edges.mlir', EDGES);
  rows += sameAsReference('dense.hlo', denseHlo(3e5));
  rows += sameAsReference('dense.mlir', denseStablehlo(3e5));
  rows += sameAsReference('garbage.mlir', 'garbage');
  assert.ok(rows > 8000, `${rows} rows compared`);
  // The edge module's intensities as JavaScript writes them, and the second module's error.
  const s = summarizeFile('edges.mlir', core.analyzeText(EDGES));
  assert.deepEqual(
    s.ops.map((o) => o.intensity),
    [1 / 12, 0.78125, 0, null, 1 / 12],
  );
  const table = streamed(EDGES).text;
  assert.match(table, /^ +4 +stablehlo\.dot_general +tensor<2x25xf32> +1000 +0 +1280 +0\.7813$/m);
  assert.match(table, /^ +5 +stablehlo\.tanh +tensor<16xf32> +0 +16 +128 +0$/m);
  assert.match(table, /stablehlo\.custom_call \(unmodeled\)/);
  assert.match(table, /^unmodeled \(no cost rule; not counted\): stablehlo\.custom_call ×1$/m);
  assert.equal(streamed(EDGES).start.value.errors.length, 1);
});

test("on the corpus: every file's table is the rows' table", (t) => {
  let files = 0;
  for (const folder of ['hlo', 'stablehlo']) {
    const path = join(CORPUS, folder);
    if (!existsSync(path)) {
      t.diagnostic(`corpus ${path} absent: skipped`);
      continue;
    }
    for (const f of readdirSync(path).filter((x) => x.endsWith('.hlo') || x.endsWith('.mlir'))) {
      sameAsReference(f, readFileSync(join(path, f)));
      files += 1;
    }
  }
  if (files === 0) t.skip('no corpus');
  else assert.ok(files > 50, `${files} files`);
});

test('chunks hold whole lines, whatever their size; a string and its UTF-8 bytes give one table', () => {
  const text = denseHlo(5e4);
  const whole = streamed(text).text;
  const small = streamed(new TextEncoder().encode(text), 100);
  assert.equal(small.text, whole);
  assert.ok(small.chunks.length > 20, `${small.chunks.length} chunks`);
  for (const c of small.chunks) assert.ok(c.endsWith('\n') && c.length >= 100, JSON.stringify(c.slice(-40)));
});

test('handles: a table released early, a spent one and a wrong one are refused with the rule', () => {
  const start = core.tableStart(denseHlo(2e4));
  assert.equal(start.ok, true);
  assert.equal(core.tableNext(start.value.handle, 1000).value.length > 0, true);
  assert.deepEqual(core.tableRelease(start.value.handle), { ok: true, value: true });
  const gone = core.tableNext(start.value.handle, 1000);
  assert.equal(gone.ok, false);
  assert.match(gone.error, /^handle must be a handle tableStart returned whose lines are not all out, got \d+$/);
  const t = core.tableStart('HloModule m\n\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n');
  assert.match(core.tableNext(t.value.handle, 0).error, /^bytes must be from 1 to 67108864, got 0$/);
  while (core.tableNext(t.value.handle, 1 << 20).value.length > 0);
  assert.equal(core.tableNext(t.value.handle, 10).ok, false, 'a table is released once its lines are out');
  assert.match(
    core.tableStart(42).error,
    /^text must be a string, a Uint8Array of UTF-8 or \{buffer: handle\}, got number$/,
  );
});

test('a text read straight into the core (textBuffer) gives the table the string gives, and is taken once', () => {
  const text = denseHlo(3e4);
  const bytes = new TextEncoder().encode(text);
  const b = core.textBuffer(bytes.length);
  assert.equal(b.ok, true);
  assert.equal(b.value.bytes.length, bytes.length);
  b.value.bytes.set(bytes);
  const lines = (start) => {
    let out = '';
    for (;;) {
      const c = core.tableNext(start.value.handle, 1 << 20).value;
      if (c.length === 0) return out;
      out += new TextDecoder().decode(c);
    }
  };
  const fromBuffer = core.tableStart({ buffer: b.value.handle });
  assert.equal(fromBuffer.ok, true);
  assert.equal(lines(fromBuffer), lines(core.tableStart(text)));
  const again = core.tableStart({ buffer: b.value.handle });
  assert.match(again.error, /^handle must be a handle textBuffer returned and no tableStart took, got \d+$/);
  // A buffer not taken is released; sizes the core cannot hold or that are no size are refused.
  const spare = core.textBuffer(8).value.handle;
  assert.deepEqual(core.textBufferRelease(spare), { ok: true, value: true });
  assert.equal(core.tableStart({ buffer: spare }).ok, false);
  assert.match(core.textBuffer(-1).error, /^size must be a whole number of bytes, got -1$/);
  assert.match(core.textBuffer(1.5).error, /^size must be a whole number of bytes, got 1.5$/);
  assert.match(
    core.textBuffer(2 ** 40).error,
    /^size must be at most 268435456 bytes \(the most text the core analyses at once\), got 1099511627776$/,
  );
});

test("the CLI prints the core's table under its heading, for files of UTF-8 and of other bytes", () => {
  const good = join(dir, 'edges.mlir');
  writeFileSync(good, EDGES);
  const out = cli(good);
  assert.equal(out.status, 1, 'the module that does not verify fails the run');
  const s = summarizeFile(good, core.analyzeText(EDGES));
  assert.equal(out.stderr, s.errors.map((e) => `${e}\n`).join(''));
  assert.equal(out.stdout, `${good} (stablehlo) — ${ESTIMATE_LABEL}\n${referenceLines(s)}\n`);
  // Bytes that are not UTF-8 (in a comment): analysed as Node decodes them, as before.
  const latin = join(dir, 'latin1.hlo');
  const text = 'HloModule m\n\n// caf\xe9\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT t = f32[4] tanh(p)\n}\n';
  writeFileSync(latin, Buffer.from(text, 'latin1'));
  const decoded = readFileSync(latin, 'utf8');
  const l = cli(latin);
  const ls = summarizeFile(latin, core.analyzeText(decoded));
  assert.equal(l.stderr, ls.errors.map((e) => `${e}\n`).join(''));
  assert.equal(l.stdout, ls.dialect ? `${latin} (${ls.dialect}) — ${ESTIMATE_LABEL}\n${referenceLines(ls)}\n` : '');
  assert.equal(l.status, ls.errors.length ? 1 : 0);
});

test('the CLI reads a pipe (/dev/stdin) as it reads a file: the same table', () => {
  const text = 'HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT t = f32[4] tanh(p)\n}\n';
  const file = join(dir, 'piped.hlo');
  writeFileSync(file, text);
  // A shell's pipe (spawnSync's `input` is a socket, which /dev/stdin cannot reopen).
  const piped = spawnSync(
    'sh',
    ['-c', 'cat "$1" | "$2" "$3" /dev/stdin', 'sh', file, process.execPath, join(ROOT, 'scripts', 'analyze.mjs')],
    { encoding: 'utf8' },
  );
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stdout, cli(file).stdout.replace(file, '/dev/stdin'));
  assert.match(piped.stdout, /^ {3}5 {2}tanh/m);
});
