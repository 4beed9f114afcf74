// scripts/bench --only size's rooms (scripts/lib/size_rooms.mjs): app.js sliced by its source map,
// a wasm file's function bodies found, and — on the built core where there is one — every byte
// of the wasm given to some room.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { roomOfScript, roomOfSource, scriptRooms, wasmRooms, wasmSections } from '../../scripts/lib/size_rooms.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('sources map to rooms', () => {
  assert.equal(roomOfScript('../node_modules/@codemirror/view/dist/index.js'), 'CodeMirror');
  assert.equal(roomOfScript('../node_modules/@lezer/python/dist/index.js'), 'CodeMirror');
  assert.equal(roomOfScript('../node_modules/chart.js/dist/chart.js'), 'Chart.js');
  assert.equal(roomOfScript('../web/views/measure_view.js'), 'page code: web/views/');
  assert.equal(roomOfScript('../web/main.js'), 'page code: web/*.js');
  assert.equal(roomOfSource('cpp/interp/fused.cpp'), 'fusion');
  assert.equal(roomOfSource('cpp/hlo/fuse.cpp'), 'fusion');
  assert.equal(roomOfSource('cpp/hlo/inline.cpp'), 'fusion');
  assert.equal(roomOfSource('cpp/interp/ops_regions.cpp'), 'interp');
});

test('app.js is sliced by its source map, the embedded string cut out first', () => {
  // Line 0: "abc" from chart.js, "def" from web/views; line 1: "XYZ" still from web/views, with
  // "Y" the embedded core.
  const map = { version: 3, sources: ['node_modules/chart.js/x.js', 'web/views/a.js'], mappings: 'AAAA,GCAA;AAAA' };
  const rows = scriptRooms('abcdef\nXYZ', map, [['core', 'Y']]);
  const raw = Object.fromEntries(rows.map((r) => [r.room, r.raw_bytes]));
  assert.deepEqual(raw, { 'Chart.js': 3, 'page code: web/views/': 6, core: 1 }); // "def\n" + "X" + "Z"
  assert.throws(() => scriptRooms('abc', map, [['core', 'Q']]), /does not contain core/);
});

test("a wasm file's function bodies are found after its imported functions", () => {
  // (module (import "m" "f" (func)) (func) (func nop)): two bodies, indices 1 and 2.
  const bytes = Buffer.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    1,
    0,
    0,
    0,
    1,
    4,
    1,
    0x60,
    0,
    0, // type: () -> ()
    2,
    7,
    1,
    1,
    0x6d,
    1,
    0x66,
    0,
    0, // import m.f, a function of type 0
    3,
    3,
    2,
    0,
    0, // two functions of type 0
    10,
    8,
    2,
    2,
    0,
    0x0b,
    3,
    0,
    0x01,
    0x0b,
  ]); // bodies: (end), (nop end)
  const { bodies, sections } = wasmSections(bytes);
  assert.deepEqual(
    bodies.map((b) => [b.index, b.end - b.start]),
    [
      [1, 3],
      [2, 4],
    ],
  );
  assert.deepEqual(
    sections.map((s) => s.id),
    [1, 2, 3, 10],
  );
  assert.throws(() => wasmSections(Buffer.from('not wasm at all')), /not a wasm file/);
});

const built = join(ROOT, 'build', 'wasm', 'roofline-core.js.symbols');
test(
  'the built core: every byte of the wasm is in some room, and the rooms of cpp/ are there',
  { skip: !existsSync(built) && 'build/wasm has no symbol map (scripts/build)' },
  () => {
    const rows = wasmRooms(join(ROOT, 'build', 'wasm'));
    if (rows.skipped) assert.fail(rows.skipped);
    const wasm = readFileSync(join(ROOT, 'build', 'wasm', 'roofline-core.wasm'));
    const { bodies } = wasmSections(wasm);
    // Bodies plus the other sections cover the file but for the header (8 bytes) and the code section's own framing (id, size, count: at most 12).
    const total = rows.reduce((n, r) => n + r.raw_bytes, 0);
    assert.ok(total <= wasm.length && total >= wasm.length - 8 - 12, `${total} of ${wasm.length} bytes in rooms`);
    assert.equal(
      rows.reduce((n, r) => n + r.functions, 0),
      bodies.length,
    );
    for (const room of ['interp', 'hlo', 'python', 'fusion', 'bindings', 'kernels']) {
      assert.ok(rows.find((r) => r.room === room)?.raw_bytes > 1000, `${room} has its functions`);
    }
  },
);
