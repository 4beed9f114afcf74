// The page's LZMA decoder (web/lzma.js), against what xz writes: the embedded core is xz's .lzma
// (scripts/lib/pack_wasm.mjs), so every test packs with xz itself and checks the bytes come back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lzmaDecode } from '../../web/lzma.js';
import { wasmFromEmbedded } from '../../web/wasm_bytes.js';
import { lzmaPack, packWasm } from '../../scripts/lib/pack_wasm.mjs';
import { ROOT } from '../../scripts/lib/node-core.mjs';
import { bytesOf } from '../lib/bytes.mjs';

/** xz's .lzma of `bytes` with the given --lzma1 options. */
function xz(bytes, options) {
  const r = spawnSync('xz', ['--format=lzma', `--lzma1=${options}`, '--stdout'], { input: bytes, maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `xz --lzma1=${options}: ${r.stderr}`);
  return new Uint8Array(r.stdout);
}

const text = new TextEncoder().encode(
  'func.func public @main(%arg0: tensor<32x16xf32>, %arg1: tensor<16x8xf32>) -> tensor<32x8xf32> {\n'.repeat(300),
);
// A random block, then the same block again 300 kB later: distances past 2^14 (the slots coded
// with direct bits and the align model), matches of the longest length (273).
const far = (() => {
  const block = bytesOf(300_000, 11);
  const out = new Uint8Array(605_017);
  out.set(block, 0);
  out.set(block.subarray(0, 5000), 300_000);
  out.set(bytesOf(17, 12), 305_000);
  out.set(block, 305_017);
  return out;
})();
const inputs = {
  'no bytes': new Uint8Array(0),
  'one byte': new Uint8Array([42]),
  'zeros (runs: short and long repeated matches)': new Uint8Array(100_000),
  'random (literals)': bytesOf(50_000, 3),
  'text (matches at every distance below 2^14)': text,
  'a block repeated 300 kB later': far,
  'text with random bytes between its lines (repeated matches 1 to 3)': (() => {
    const out = new Uint8Array(text.length * 2);
    const noise = bytesOf(text.length, 5);
    for (let i = 0; i < text.length; i++) {
      out[2 * i] = text[i];
      out[2 * i + 1] = noise[i] & 3;
    }
    return out;
  })(),
};

describe('LZMA: what xz packs comes back byte for byte', () => {
  for (const [name, bytes] of Object.entries(inputs)) {
    test(`${name} (${bytes.length} bytes), as the bundle packs`, () => {
      const packed = lzmaPack(bytes);
      assert.deepEqual(lzmaDecode(new Uint8Array(packed)), bytes);
    });
  }

  test('every kind of literal context, position bits and position state xz writes', () => {
    for (const options of ['lc=0,lp=0,pb=0', 'lc=4,lp=0,pb=4', 'lc=0,lp=4,pb=4', 'lc=1,lp=2,pb=1', 'lc=3,lp=0,pb=2']) {
      for (const [name, bytes] of Object.entries(inputs)) {
        if (bytes.length > 200_000) continue;
        assert.deepEqual(lzmaDecode(xz(bytes, `preset=6,${options}`)), bytes, `${name} with ${options}`);
      }
    }
  });

  test('a header with the size known: the stream is read to that size (the end marker unread)', () => {
    const bytes = inputs['text (matches at every distance below 2^14)'];
    const packed = new Uint8Array(lzmaPack(bytes));
    assert.deepEqual(Array.from(packed.subarray(5, 13)), new Array(8).fill(0xff), 'xz writes the size unknown');
    new DataView(packed.buffer, packed.byteOffset).setUint32(5, bytes.length, true);
    packed.fill(0, 9, 13);
    assert.deepEqual(lzmaDecode(packed), bytes);
  });

  test('the wasm core, as app.js carries it, comes back as the file (skipped without a wasm build)', async (t) => {
    const wasmPath = join(ROOT, 'build', 'wasm', 'roofline-core.wasm');
    if (!existsSync(wasmPath)) {
      t.skip(`${wasmPath} absent: build the wasm core (scripts/build)`);
      return;
    }
    const wasm = readFileSync(wasmPath);
    const embedded = packWasm(wasm);
    const gz = (await import('node:zlib')).gzipSync(wasm, { level: 9 }).length;
    assert.ok(embedded.length * 0.8 < gz, `LZMA (${(embedded.length * 4) / 5} bytes) smaller than gzip -9 (${gz})`);
    assert.ok(Buffer.from(await wasmFromEmbedded(embedded)).equals(wasm));
  });
});

describe('LZMA: bad input is an error naming the rule and the value, never a hang', () => {
  const good = new Uint8Array(lzmaPack(text));
  const with_ = (edit) => {
    const b = good.slice();
    edit(b);
    return b;
  };

  test('what is not a .lzma file', () => {
    assert.throws(() => lzmaDecode('abc'), /^Error: LZMA data: must be a Uint8Array, got string$/);
    assert.throws(
      () => lzmaDecode(good.subarray(0, 10)),
      /has 10 bytes, fewer than a header \(13\) and a stream \(5\) take/,
    );
    assert.throws(
      () => lzmaDecode(with_((b) => (b[0] = 225))),
      /the properties byte is 225, more than 224 \(lc < 9, lp < 5, pb < 5\)/,
    );
    assert.throws(() => lzmaDecode(with_((b) => (b[13] = 7))), /the stream's first byte is 7, not 0/);
  });

  test('a stream cut short, and one whose marker is missing', () => {
    const random = new Uint8Array(lzmaPack(bytesOf(5000, 8)));
    assert.throws(
      () => lzmaDecode(random.subarray(0, 400), { name: 'the embedded wasm core' }),
      /^Error: the embedded wasm core: the stream ends after 400 bytes with \d+ bytes unpacked, before its end$/,
    );
    // The size written as 10 more than the stream holds: its end marker comes first.
    const short = with_((b) => {
      new DataView(b.buffer).setUint32(5, text.length + 10, true);
      b.fill(0, 9, 13);
    });
    assert.throws(
      () => lzmaDecode(short),
      new RegExp(
        `the end marker comes after ${text.length} bytes, before the ${text.length + 10} bytes the header gives`,
      ),
    );
  });

  test('a damaged header: a size too small, a dictionary too small, bytes after the end', () => {
    const sized = (n) =>
      with_((b) => {
        new DataView(b.buffer).setUint32(5, n, true);
        b.fill(0, 9, 13);
      });
    assert.throws(() => lzmaDecode(sized(10)), /the stream goes on past the 10 bytes the header gives/);
    assert.throws(() => lzmaDecode(sized(0)), /the stream goes on past the 0 bytes the header gives/);
    const far = new Uint8Array(lzmaPack(inputs['a block repeated 300 kB later']));
    far.fill(0, 1, 5); // a dictionary of 0 bytes: LZMA's least, 4096
    assert.throws(
      () => lzmaDecode(far),
      /a match at byte 300000 reaches back 300000 bytes, past the 4096-byte dictionary/,
    );
    const longer = new Uint8Array(good.length + 3);
    longer.set(good);
    assert.throws(() => lzmaDecode(longer), /^Error: LZMA data: 3 bytes follow the end of the stream$/);
    // A header that says 2 GiB of a stream of a few bytes: refused when the stream ends, having
    // reserved only what a few bytes could fill.
    const huge = new Uint8Array(18);
    huge[0] = 93;
    new DataView(huge.buffer).setUint32(5, 2 ** 31 - 1, true);
    assert.throws(() => lzmaDecode(huge), /the stream ends after 18 bytes with \d+ bytes unpacked/);
  });

  test('more bytes than allowed: by the header, and by a stream of unknown size', () => {
    const big = with_((b) => {
      new DataView(b.buffer).setUint32(5, 5000, true);
      b.fill(0, 9, 13);
    });
    assert.throws(
      () => lzmaDecode(big, { maxBytes: 4096 }),
      /the header says 5000 bytes unpacked, more than the 4096 allowed/,
    );
    const zeros = new Uint8Array(lzmaPack(new Uint8Array(1 << 20)));
    assert.throws(() => lzmaDecode(zeros, { maxBytes: 100_000 }), /unpacks to more than the 100000 bytes allowed/);
  });

  test('damaged bytes: each of 300 damaged streams is unpacked or refused by name, within the limit', () => {
    const seen = new Set();
    const rnd = bytesOf(900, 99);
    for (let i = 0; i < 300; i++) {
      const b = good.slice();
      const at = (rnd[3 * i] * 256 + rnd[3 * i + 1]) % b.length; // the header's bytes too
      b[at] ^= 1 + (rnd[3 * i + 2] % 255);
      try {
        const out = lzmaDecode(b, { maxBytes: 1 << 20 });
        assert.ok(out.length <= 1 << 20);
        seen.add('unpacked');
      } catch (e) {
        assert.match(e.message, /^LZMA data: /);
        seen.add(e.message.replace(/\d+/g, 'N'));
      }
    }
    assert.ok(seen.size >= 2, `damage is refused in more than one way: ${[...seen].join(' | ')}`);
  });
});
