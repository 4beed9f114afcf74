// The embedded core's text encoding (web/wasm_bytes.js): base 85, 5 characters for 4 bytes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALPHABET_85, decode85, encode85 } from '../../web/wasm_bytes.js';
import { bytesOf } from '../lib/bytes.mjs';

describe('base-85 text of the embedded core', () => {
  test('the alphabet is 85 distinct printable characters, none that a JS string or HTML treats specially', () => {
    assert.equal(ALPHABET_85.length, 85);
    assert.equal(new Set(ALPHABET_85).size, 85);
    for (const ch of ALPHABET_85) {
      assert.ok(ch > ' ' && ch <= '~', `${JSON.stringify(ch)} is printable ASCII`);
      assert.ok(!'"\'`\\$<>&'.includes(ch), `${JSON.stringify(ch)} needs no escape`);
    }
    assert.equal(JSON.stringify(ALPHABET_85), `"${ALPHABET_85}"`, 'JSON writes it as it is');
  });

  test('every length, 0 to 4 groups and every tail, round-trips; the text is ceil(5n/4) long', () => {
    for (let n = 0; n <= 17; n++) {
      for (const bytes of [bytesOf(n, n + 1), new Uint8Array(n), new Uint8Array(n).fill(0xff)]) {
        const text = encode85(bytes);
        assert.equal(text.length, Math.floor(n / 4) * 5 + (n % 4 ? (n % 4) + 1 : 0), `length for ${n} bytes`);
        assert.deepEqual(decode85(text), bytes, `${n} bytes: ${Array.from(bytes).join(',')}`);
      }
    }
  });

  test('a megabyte round-trips, 1.25 characters per byte where base64 takes 1.33', () => {
    const bytes = bytesOf(1 << 20, 7);
    const text = encode85(bytes);
    assert.equal(text.length, (bytes.length * 5) / 4);
    assert.ok(text.length < Buffer.from(bytes).toString('base64').length);
    assert.deepEqual(decode85(text), bytes);
  });

  test('bad text is refused with its position and character, or why the group cannot be bytes', () => {
    const good = encode85(bytesOf(8, 3));
    assert.throws(
      () => decode85(good.slice(0, 3) + '"' + good.slice(4)),
      /character 3 is "\\"", not one of the alphabet/,
    );
    assert.throws(() => decode85(good.slice(0, 6) + 'é' + good.slice(7)), /character 6 is "é"/);
    assert.throws(() => decode85(good + ALPHABET_85[0]), /a last group of 1 character \(of 11\) stands for no byte/);
    const top = ALPHABET_85[84].repeat(5); // 85^5 - 1 > 2^32 - 1
    assert.throws(() => decode85(top), /the group at character 0 stands for more than 4 bytes/);
  });
});
