// Test inputs of bytes shared by the JS tests.

/**
 * Deterministic bytes (a 32-bit LCG), so a failure names a reproducible input.
 * @param {number} length
 * @param {number} seed
 * @returns {Uint8Array}
 */
export function bytesOf(length, seed) {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
