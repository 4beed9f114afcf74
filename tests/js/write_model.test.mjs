// Section 8's Write: the examples (each lowered by the real core, and analysed, as the page does),
// the source's link codec (web/model/source_link.js) and its place in the URL hash, and the tab's
// state (web/write_state.js): stale answers dropped, links in and out.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { caretUnder, offsetOfByteColumn } from '../../web/model/columns.js';
import { decodeHash } from '../../web/model/hash.js';
import { decodeSource, encodeSource, MAX_ENCODED_LENGTH, MAX_SOURCE_BYTES } from '../../web/model/source_link.js';
import { DEFAULT_WRITE_EXAMPLE, WRITE_EXAMPLES } from '../../web/model/write_examples.js';
import { TASKS } from '../../web/worker_host.js';
import {
  applyWriteLink,
  createWriteState,
  errorText,
  setLowered,
  setLowerFailure,
  setLowerPending,
  setWriteMode,
  setWriteSource,
  writeLink,
} from '../../web/write_state.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

describe('the Write examples', () => {
  let core;
  before(async () => {
    core = await loadNodeCore();
  });

  test('every example lowers with the core to a module named after its function, which analyses with flops', () => {
    assert.deepEqual(
      WRITE_EXAMPLES.map((e) => e.name),
      ['lesson', 'mlp', 'softmax', 'layer_norm', 'attention', 'conv_net', 'fori_loop'],
    );
    assert.ok(WRITE_EXAMPLES.some((e) => e.name === DEFAULT_WRITE_EXAMPLE));
    for (const ex of WRITE_EXAMPLES) {
      const r = core.lower(ex.source, {});
      assert.equal(r.ok, true, `${ex.name}: ${r.error}`);
      assert.match(r.text, new RegExp(`^module @jit_${r.function} `), ex.name);
      const a = core.analyzeText(r.text);
      assert.equal(a.ok, true, ex.name);
      assert.ok(a.value.totals.flops > 0, `${ex.name} has flops`);
    }
  });

  test('the lesson example lowers to the lesson module, byte for byte: 8192 flops', () => {
    const lesson = WRITE_EXAMPLES.find((e) => e.name === 'lesson');
    const r = core.lower(lesson.source, {});
    assert.equal(r.text, core.emitWorkload(32, 16, 8, 'f32').value);
    assert.equal(core.analyzeText(r.text).value.totals.flops, 2 * 32 * 16 * 8);
  });

  test("the Worker's lower task answers the core's value: the module, or the error with its line and column", () => {
    const good = TASKS.lower(core, { source: WRITE_EXAMPLES[0].source });
    assert.equal(good.ok, true);
    assert.equal(good.function, 'workload');
    const bad = TASKS.lower(core, {
      source:
        'import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return jnp.foo(x)\n\njax.jit(f).lower(jnp.ones((2, 2)))\n',
    });
    assert.equal(bad.ok, false);
    assert.equal(bad.line, 5);
    assert.equal(bad.column, 12);
    assert.match(bad.message, /jnp\.foo is not supported here/);
  });
});

describe('the Write source in a link', () => {
  test('encodes as base64url of UTF-8 and decodes back, any text', () => {
    for (const text of ['', 'x', 'xy', 'xyz', 'def f(x):\n    return x @ x  # ü, 𝛼, 中\n', '\0\uffff']) {
      const e = encodeSource(text);
      assert.equal(e.ok, true);
      assert.match(e.value, /^[A-Za-z0-9_-]*$/);
      if (text) assert.deepEqual(decodeSource(e.value), { ok: true, source: text });
    }
    assert.equal(encodeSource('ü?>').value, 'w7w_Pg'); // '/' and '+' of base64 become '_' and '-'
    assert.equal(encodeSource('ü?~').value, 'w7w_fg');
    assert.equal(encodeSource('\u00fb\u00ef').value, 'w7vDrw');
    assert.equal(decodeSource('-_8').ok, false); // 0xFB 0xFF: not UTF-8
  });

  test('refuses a program over the limit, naming its size and the limit', () => {
    assert.equal(encodeSource('a'.repeat(MAX_SOURCE_BYTES)).ok, true);
    const e = encodeSource('ü'.repeat(MAX_SOURCE_BYTES / 2 + 1));
    assert.deepEqual(e, {
      ok: false,
      error: `the program is ${MAX_SOURCE_BYTES + 2} bytes of UTF-8; a link carries at most ${MAX_SOURCE_BYTES}`,
    });
  });

  test('a bad value is refused with the key, the rule and the value, never thrown', () => {
    const cases = [
      ['', /py= in the link is empty/],
      ['abc$def', /not base64url: it has "\$" at character 4/],
      ['abc=', /not base64url: it has "=" at character 4/],
      ['abcde', /its length, 5, leaves one character over/],
      ['_w', /does not decode to UTF-8 text \(1 bytes\)/],
      [
        'A'.repeat(MAX_ENCODED_LENGTH + 1),
        new RegExp(
          `is ${MAX_ENCODED_LENGTH + 1} characters long; a link's program is at most ${MAX_SOURCE_BYTES} bytes`,
        ),
      ],
    ];
    for (const [value, message] of cases) {
      const d = decodeSource(value);
      assert.equal(d.ok, false, value.slice(0, 20));
      assert.match(d.error, message);
    }
    assert.equal(decodeSource(undefined).ok, false);
  });

  test("the hash hands py= over raw, apart from the lesson's keys and without a notice", () => {
    const value = encodeSource('def f(x):\n    return x\n').value;
    const d = decodeHash(`#py=${value}&m=64`);
    assert.deepEqual(d.write, { py: value });
    assert.deepEqual(d.values, { m: '64' });
    assert.deepEqual(d.notices, []);
    assert.equal(decodeHash('#m=4').write, null);
    // Longer than the lesson's 200-character limit: still handed over, judged by decodeSource.
    const long = encodeSource('x = 1\n'.repeat(100)).value;
    assert.equal(decodeHash(`#py=${long}`).write.py, long);
    assert.equal(decodeSource(decodeHash(`#py=${long}`).write.py).source, 'x = 1\n'.repeat(100));
  });
});

describe("the Write tab's state (web/write_state.js)", () => {
  test('the tab opens on the lesson when it has no source, and keeps a source it has', () => {
    const w = setWriteMode(createWriteState(), 'write');
    assert.equal(w.mode, 'write');
    assert.equal(w.example, 'lesson');
    assert.equal(w.source, WRITE_EXAMPLES[0].source);
    const typed = setWriteSource(w, 'x = 1\n');
    assert.equal(typed.example, null);
    assert.equal(setWriteMode(setWriteMode(typed, 'paste'), 'write').source, 'x = 1\n');
    assert.equal(setWriteMode(typed, 'vibes'), typed);
  });

  test('an answer to an older lowering is dropped, the newest is kept', () => {
    let w = setLowerPending(setWriteSource(createWriteState(), 'a'));
    const first = w.seq;
    w = setLowerPending(setWriteSource(w, 'b'));
    const second = w.seq;
    assert.equal(
      setLowered(w, first, { ok: true, text: 'old', function: 'f' }, 5),
      w,
      'the older answer changes nothing',
    );
    const done = setLowered(w, second, { ok: true, text: 'module', function: 'g' }, 7);
    assert.deepEqual(
      [done.pending, done.lowered, done.error, done.ms],
      [false, { text: 'module', function: 'g', seq: second }, null, 7],
    );
    const failed = setLowered(
      setLowerPending(done),
      second + 1,
      { ok: false, error: '3:5: bad', line: 3, column: 5, message: 'bad' },
      2,
    );
    assert.deepEqual(failed.error, { line: 3, column: 5, message: 'bad' });
    assert.equal(failed.lowered, done.lowered, 'the last module that lowered stays');
    assert.equal(errorText(failed.error), 'program.py:3:5: bad');
    const worker = setLowerFailure(setLowerPending(done), second + 1, 'the Worker stopped');
    assert.equal(errorText(worker.error), 'the Worker stopped');
  });

  test('a link opens the tab with its program, a bad one says why and keeps the program, none changes nothing', () => {
    const source = 'def f(x):\n    return x\n';
    const w = applyWriteLink(createWriteState(), `#m=4&py=${encodeSource(source).value}`);
    assert.deepEqual([w.mode, w.source, w.linkError], ['write', source, null]);
    assert.deepEqual(writeLink(w), { part: `py=${encodeSource(source).value}`, error: null });
    const bad = applyWriteLink(w, '#py=%25%25');
    assert.equal(bad.source, source);
    assert.match(
      bad.linkError,
      /^py= in the link is not base64url: it has "%" at character 1 .*; the program on show is kept$/,
    );
    assert.equal(applyWriteLink(w, '#m=8'), w);
    assert.deepEqual(
      writeLink(setWriteMode(w, 'paste')),
      { part: '', error: null },
      'the Paste tab leaves the link alone',
    );
    const long = writeLink(setWriteSource(w, 'x'.repeat(MAX_SOURCE_BYTES + 1)));
    assert.equal(long.part, '');
    assert.match(long.error, /bytes of UTF-8; a link carries at most 16384, so the link does not carry it/);
  });
});

describe('columns across the seam (web/model/columns.js)', () => {
  test("the core's byte column becomes the editor's UTF-16 offset: ASCII, 2-byte, 4-byte characters", async () => {
    const core = await loadNodeCore();
    for (const [prefix, offset] of [
      ['u', 10],
      ['ü', 10],
      ['𝛼', 11],
      ['中', 10],
    ]) {
      const line = `x = ('${prefix}', jnp.foo(1))`;
      const r = core.lower(`import jax.numpy as jnp\n${line}\n`, {});
      assert.equal(r.ok, false);
      assert.equal(offsetOfByteColumn(line, r.column), offset, `${prefix}: the core's column ${r.column}`);
      assert.equal(line.slice(offsetOfByteColumn(line, r.column)).slice(0, 7), 'jnp.foo');
    }
    assert.equal(offsetOfByteColumn('ab', 99), 2, "past the end: the line's length");
    assert.equal(offsetOfByteColumn('ü', 2), 0, 'inside a character: that character');
    assert.equal(offsetOfByteColumn('', 1), 0);
  });

  test("an excerpt's caret: under the byte column's character, tabs kept, a long line windowed around it", () => {
    // Column 5 of '%0 = add' (bytes) is 'a' after 'ü' (2 bytes) — the 4th character.
    assert.deepEqual(caretUnder('ü = add', 5), { text: 'ü = add', pad: '   ' });
    assert.deepEqual(caretUnder('\t\tx = y', 4), { text: '\t\tx = y', pad: '\t\t ' });
    assert.deepEqual(caretUnder('𝛼 x', 6), { text: '𝛼 x', pad: '  ' }, 'a 4-byte character is one character');
    assert.deepEqual(caretUnder('ab', 1), { text: 'ab', pad: '' });
    assert.deepEqual(caretUnder('ab', 99), { text: 'ab', pad: '  ' }, 'past the end: after the last character');
    // A 1000-character line: a window of 400 around the column, its cut ends marked.
    const long = `${'a'.repeat(700)}X${'b'.repeat(299)}`;
    const w = caretUnder(long, 701);
    assert.equal(w.text.length, 402);
    assert.ok(w.text.startsWith('…') && w.text.endsWith('…'));
    assert.equal(w.text[w.pad.length], 'X', 'the caret sits under the column');
    const near = caretUnder(long, 3);
    assert.equal(near.text, `${long.slice(0, 400)}…`);
    assert.equal(near.pad, '  ');
    const end = caretUnder(long, 1000);
    assert.equal(end.text, `…${long.slice(600)}`);
    assert.equal(end.text[end.pad.length], 'b');
    // A window never splits a surrogate pair.
    const astral = '𝛼'.repeat(600);
    const a = caretUnder(astral, 4 * 300 + 1);
    assert.ok(!/^…[\uDC00-\uDFFF]/.test(a.text) && !/[\uD800-\uDBFF]…$/.test(a.text), 'whole characters only');
    assert.equal([...a.pad].length, 101, "one pad character per character shown before the caret ('…' and 100)");
    assert.equal([...a.text][101], '𝛼');
  });
});
