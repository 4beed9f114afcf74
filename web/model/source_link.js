// Section 8's "Write" source in the URL hash, so a link reproduces the program: `#py=<base64url>`,
// the source's UTF-8 bytes in base64url (RFC 4648 §5: A–Z a–z 0–9 - _, no padding), which needs
// no further URL encoding. Pure: no DOM, no core.

/** The hash key that carries the source. */
export const SOURCE_KEY = 'py';
/** Longest source a link carries, in UTF-8 bytes (the link is then at most 21,846 characters long). */
export const MAX_SOURCE_BYTES = 16384;
/** Longest value of `py=` that can hold MAX_SOURCE_BYTES bytes. */
export const MAX_ENCODED_LENGTH = Math.ceil((MAX_SOURCE_BYTES * 4) / 3);

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/**
 * The source as the value of `py=`: {ok: true, value} or, when it is too long for a link,
 * {ok: false, error} naming the rule and the value.
 */
export function encodeSource(source) {
  const bytes = new TextEncoder().encode(String(source));
  if (bytes.length > MAX_SOURCE_BYTES) {
    return {
      ok: false,
      error: `the program is ${bytes.length} bytes of UTF-8; a link carries at most ${MAX_SOURCE_BYTES}`,
    };
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return { ok: true, value: btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') };
}

/**
 * The source a link's `py=` value holds: {ok: true, source} or {ok: false, error}, the error
 * naming the key, the rule and the value (shortened) — never throws.
 */
export function decodeSource(value) {
  const text = typeof value === 'string' ? value : '';
  const what = `${SOURCE_KEY}= in the link`;
  if (text === '') return { ok: false, error: `${what} is empty: it should hold the program, base64url-encoded` };
  if (text.length > MAX_ENCODED_LENGTH) {
    return {
      ok: false,
      error: `${what} is ${text.length} characters long; a link's program is at most ${MAX_SOURCE_BYTES} bytes (${MAX_ENCODED_LENGTH} characters)`,
    };
  }
  if (!ALPHABET.test(text)) {
    const bad = text.match(/[^A-Za-z0-9_-]/)[0];
    return {
      ok: false,
      error: `${what} is not base64url: it has ${JSON.stringify(bad)} at character ${text.indexOf(bad) + 1} (only A–Z, a–z, 0–9, - and _ may appear)`,
    };
  }
  if (text.length % 4 === 1)
    return {
      ok: false,
      error: `${what} is not base64url: its length, ${text.length}, leaves one character over (it was cut short)`,
    };
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return { ok: true, source: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return {
      ok: false,
      error: `${what} does not decode to UTF-8 text (${bytes.length} bytes): it was cut short or changed`,
    };
  }
}
