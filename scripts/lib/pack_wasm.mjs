// The core's wasm as the bundle embeds it in app.js: LZMA-packed by xz (its .lzma format), then
// base-85 text (web/wasm_bytes.js encode85). The page and each Worker turn it back with
// web/wasm_bytes.js wasmFromEmbedded (web/lzma.js decodes). scripts/bundle.mjs embeds this text and
// scripts/bench --only size finds the same text in app.js to size the core's share.
//
// Why LZMA and not gzip, which browsers unpack natively: on the core, xz -9e's LZMA is about a
// quarter smaller than gzip -9 (scripts/bench --only size prints both), and the page then carries
// a decoder of 1.8 kB gzipped (minified). lc=3, lp=0, pb=0: wasm code is bytes, not 4-byte words, and
// pb=0 packs it smaller than xz's default pb=2.
import { spawnSync } from 'node:child_process';
import { encode85 } from '../../web/wasm_bytes.js';

/** xz's options for the core: LZMA1 at its strongest preset, byte-aligned positions. */
export const XZ_ARGS = ['--format=lzma', '--lzma1=preset=9e,lc=3,lp=0,pb=0', '--stdout', '--quiet'];

/**
 * The .lzma bytes of `bytes` (xz, deterministic: the same input gives the same output).
 * @param {Uint8Array} bytes
 * @returns {Buffer}
 */
export function lzmaPack(bytes) {
  const r = spawnSync('xz', XZ_ARGS, { input: bytes, maxBuffer: 1 << 30 });
  if (r.error)
    throw new Error(
      `packing the wasm core needs xz (Debian's xz-utils; scripts/build installs it): ${r.error.message}`,
    );
  if (r.status !== 0) throw new Error(`xz ${XZ_ARGS.join(' ')} failed (${r.status}): ${r.stderr.toString().trim()}`);
  return r.stdout;
}

/**
 * The wasm as app.js embeds it: LZMA, then base 85.
 * @param {Uint8Array} wasm
 * @returns {string}
 */
export function packWasm(wasm) {
  return encode85(lzmaPack(wasm));
}
