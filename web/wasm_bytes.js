// The core's wasm as the bundle embeds it: LZMA-packed by xz, then base-85 text
// (scripts/lib/pack_wasm.mjs, with encode85 below). The page and each Worker turn that text back
// into the module's bytes here; web/lzma.js unpacks (LZMA packs the core a quarter smaller than
// gzip, which is all DecompressionStream could unpack natively).
//
// Base 85 writes 4 bytes as 5 characters where base64 needs 5⅓: the one-file page is 43 kB
// smaller (issue 14, item 16), and gzip packs either text back to the compressed bytes' size.
// The alphabet is printable ASCII without the characters that mean something in a JS string,
// a template literal or HTML (" ' ` \ $ < > &), so the text needs no escape wherever it goes:
// a JSON string in the bundle, a string literal in a Worker's blob, an inline <script>.
// A last group of n < 4 bytes is written as n + 1 characters (as Ascii85 does): decoding pads
// it with the highest digit and keeps n bytes.

import { lzmaDecode } from './lzma.js';

const EXCLUDED = '"\'`\\$<>&~';
/** The 85 digits, in order: printable ASCII (0x21-0x7e) less EXCLUDED. */
export const ALPHABET_85 = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i))
  .filter((ch) => !EXCLUDED.includes(ch))
  .join('');
if (ALPHABET_85.length !== 85) throw new Error(`wasm_bytes: the base-85 alphabet has ${ALPHABET_85.length} digits`);

const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 85; i++) DIGIT[ALPHABET_85.charCodeAt(i)] = i;

/**
 * Bytes as base-85 text.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function encode85(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i += 4) {
    const n = Math.min(4, bytes.length - i);
    let v = 0;
    for (let j = 0; j < 4; j++) v = v * 256 + (j < n ? bytes[i + j] : 0);
    const group = new Array(5);
    for (let j = 4; j >= 0; j--) {
      group[j] = ALPHABET_85[v % 85];
      v = Math.floor(v / 85);
    }
    out.push(group.slice(0, n + 1).join(''));
  }
  return out.join('');
}

/**
 * The bytes base-85 text stands for. Throws, naming the position and the character, on a
 * character outside the alphabet or a group that does not fit 4 bytes.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function decode85(text) {
  const full = Math.floor(text.length / 5),
    rest = text.length % 5;
  if (rest === 1) throw new Error(`base-85 text: a last group of 1 character (of ${text.length}) stands for no byte`);
  const bytes = new Uint8Array(full * 4 + (rest ? rest - 1 : 0));
  let o = 0;
  for (let i = 0; i < text.length; i += 5) {
    const n = Math.min(5, text.length - i);
    let v = 0;
    for (let j = 0; j < 5; j++) {
      let d = 84;
      if (j < n) {
        const code = text.charCodeAt(i + j);
        d = code < 128 ? DIGIT[code] : -1;
        if (d < 0)
          throw new Error(
            `base-85 text: character ${i + j} is ${JSON.stringify(text[i + j])}, not one of the alphabet`,
          );
      }
      v = v * 85 + d;
    }
    if (v > 0xffffffff) throw new Error(`base-85 text: the group at character ${i} stands for more than 4 bytes`);
    for (let j = 0; j < n - 1; j++) bytes[o++] = Math.floor(v / 2 ** (24 - 8 * j)) & 0xff;
  }
  return bytes;
}

/**
 * The wasm bytes from the embedded text.
 * @param {string} text  LZMA-packed bytes (the .lzma format), base-85 encoded (encode85)
 * @returns {Promise<Uint8Array>}
 */
export async function wasmFromEmbedded(text) {
  // The core is 2 MB: a damaged text stops at 64 MiB, not at the decoder's 2 GiB.
  return lzmaDecode(decode85(text), { name: 'the embedded wasm core', maxBytes: 1 << 26 });
}
