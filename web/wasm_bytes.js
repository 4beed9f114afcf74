// The core's wasm as the bundle embeds it: gzip, then base64 (scripts/bundle.mjs). The page and
// each Worker turn that text back into the module's bytes here; DecompressionStream does the
// gunzip (every current browser has it: Chrome 80, Firefox 113, Safari 16.4 and later).

/**
 * The wasm bytes from the embedded text.
 * @param {string} base64  gzip-compressed bytes, base64-encoded
 * @returns {Promise<Uint8Array>}
 */
export async function wasmFromEmbedded(base64) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser cannot unpack the embedded core: it lacks DecompressionStream ' +
      '(Chrome 80, Firefox 113, Safari 16.4 or later have it)');
  }
  const binary = atob(base64);
  const packed = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) packed[i] = binary.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
