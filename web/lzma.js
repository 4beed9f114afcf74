// A decoder of LZMA's .lzma format (LZMA1, the "alone" format `xz --format=lzma` writes), for the
// core's wasm as the bundle embeds it (web/wasm_bytes.js, scripts/lib/pack_wasm.mjs). LZMA packs
// the wasm a quarter smaller than gzip at its highest level, and browsers unpack only gzip and
// deflate natively (DecompressionStream), so the page carries this decoder: pure, no DOM, no I/O.
//
// Written from the format's description (Igor Pavlov's lzma-specification.txt in the LZMA SDK,
// public domain): a 13-byte header (the properties byte lc + 9·(lp + 5·pb), the dictionary size
// and the unpacked size, 64-bit little endian, all ones when unknown), then a range-coded stream
// of literals, matches and repeated matches, each bit coded against an adaptive 11-bit
// probability. A stream of unknown size ends with the end marker (a distance of 2^32 - 1).
//
// Bad input is an Error naming the rule and the value, never a hang or a silent short result.

const PROB_INIT = 1024; // probabilities are 11-bit, 1024 = one half
const STATES = 12;
const POS_STATES_MAX = 16; // 2^pb, pb <= 4
const LEN_LOW = 8,
  LEN_MID = 8,
  LEN_HIGH = 256;
const END_POS_MODEL = 14; // distance slots below this code their low bits with models
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;

// Offsets of each model in one Uint16Array of probabilities.
const IS_MATCH = 0;
const IS_REP = IS_MATCH + STATES * POS_STATES_MAX;
const IS_REP_G0 = IS_REP + STATES;
const IS_REP_G1 = IS_REP_G0 + STATES;
const IS_REP_G2 = IS_REP_G1 + STATES;
const IS_REP0_LONG = IS_REP_G2 + STATES;
const POS_SLOT = IS_REP0_LONG + STATES * POS_STATES_MAX; // 4 trees of 64
const SPEC_POS = POS_SLOT + 4 * 64; // 1 + 128 - 14 = 115
const ALIGN = SPEC_POS + 1 + FULL_DISTANCES - END_POS_MODEL;
const LEN_SIZE = 2 + POS_STATES_MAX * (LEN_LOW + LEN_MID) + LEN_HIGH; // choice, choice2, low, mid, high
const LEN = ALIGN + (1 << ALIGN_BITS);
const REP_LEN = LEN + LEN_SIZE;
const LITERAL = REP_LEN + LEN_SIZE;

/**
 * The bytes a .lzma stream packs.
 * @param {Uint8Array} input  a whole .lzma file: the 13-byte header and the range-coded stream
 * @param {{name?: string, maxBytes?: number}} [options]  a name for messages ("LZMA data" if none);
 *   the most bytes the output may have (2^31 if not given)
 * @returns {Uint8Array}
 */
export function lzmaDecode(input, options = {}) {
  const name = options.name || 'LZMA data';
  const maxBytes = options.maxBytes ?? 2 ** 31;
  const fail = (what) => {
    throw new Error(`${name}: ${what}`);
  };
  if (!(input instanceof Uint8Array)) fail(`must be a Uint8Array, got ${input === null ? 'null' : typeof input}`);
  if (input.length < 13 + 5) fail(`has ${input.length} bytes, fewer than a header (13) and a stream (5) take`);

  // ---- header ----
  let d = input[0];
  if (d >= 9 * 5 * 5) fail(`the properties byte is ${d}, more than 224 (lc < 9, lp < 5, pb < 5)`);
  const lc = d % 9;
  d = (d / 9) | 0;
  const lp = d % 5;
  const pb = (d / 5) | 0;
  // The dictionary: no match reaches back further (LZMA's minimum is 4 KiB).
  const dictSize = Math.max(4096, input[1] + input[2] * 2 ** 8 + input[3] * 2 ** 16 + input[4] * 2 ** 24);
  let unpacked = 0;
  let unknownSize = true;
  for (let i = 0; i < 8; i++) if (input[5 + i] !== 0xff) unknownSize = false;
  if (!unknownSize) {
    for (let i = 7; i >= 0; i--) unpacked = unpacked * 256 + input[5 + i];
    if (unpacked > maxBytes) fail(`the header says ${unpacked} bytes unpacked, more than the ${maxBytes} allowed`);
  }

  // ---- output: grown by doubling as bytes come, up to the size the header gives (or the most
  // allowed), so a damaged header reserves nothing the stream does not fill ----
  const limit = unknownSize ? maxBytes : unpacked;
  let out = new Uint8Array(Math.min(limit, Math.max(1 << 16, input.length * 8)));
  let pos = 0;
  const grow = (need) => {
    if (need > maxBytes) fail(`unpacks to more than the ${maxBytes} bytes allowed`);
    const bigger = new Uint8Array(Math.min(limit, Math.max(need, out.length * 2)));
    bigger.set(out.subarray(0, pos));
    out = bigger;
  };

  // ---- the range decoder ----
  let inPos = 13;
  const inEnd = input.length;
  if (input[inPos++] !== 0) fail(`the stream's first byte is ${input[13]}, not 0`);
  let code0 = 0;
  for (let i = 0; i < 4; i++) code0 = code0 * 256 + input[inPos++];
  if (code0 === 0xffffffff) fail('the stream starts with a code of 2^32 - 1, which no encoder writes');
  const next = () => {
    if (inPos >= inEnd) fail(`the stream ends after ${inEnd} bytes with ${pos} bytes unpacked, before its end`);
    return input[inPos++];
  };
  const probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(PROB_INIT);
  // The coder's range and code live in an Int32Array (their bit patterns): unsigned 32-bit values in closures' shared
  // state without a boxed number per update (this is the hot path: about 10^7 bits for the core).
  const rc = new Int32Array(2); // [range, code], as int32 bit patterns
  rc[0] = -1;
  rc[1] = code0 | 0;
  const bit = (i) => {
    const p = probs[i];
    let range = rc[0],
      code = rc[1];
    const bound = Math.imul(range >>> 11, p);
    let b;
    if ((code ^ 0x80000000) < (bound ^ 0x80000000)) {
      range = bound;
      probs[i] = p + ((2048 - p) >>> 5);
      b = 0;
    } else {
      range = (range - bound) | 0;
      code = (code - bound) | 0;
      probs[i] = p - (p >>> 5);
      b = 1;
    }
    if (range >>> 24 === 0) {
      range <<= 8;
      code = (code << 8) | next();
    }
    rc[0] = range;
    rc[1] = code;
    return b;
  };
  const direct = (count) => {
    let range = rc[0],
      code = rc[1],
      v = 0;
    for (; count > 0; count--) {
      range >>>= 1;
      let b = 0;
      if (code >>> 0 >= range >>> 0) {
        code = (code - range) | 0;
        b = 1;
      }
      v = v * 2 + b;
      if (range >>> 24 === 0) {
        range <<= 8;
        code = (code << 8) | next();
      }
    }
    rc[0] = range;
    rc[1] = code;
    return v;
  };
  const tree = (base, bits) => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  };
  const reverseTree = (base, bits) => {
    let m = 1,
      v = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(base + m);
      m = (m << 1) | b;
      v |= b << i;
    }
    return v;
  };
  const length = (base, posState) => {
    if (bit(base) === 0) return tree(base + 2 + posState * LEN_LOW, 3);
    if (bit(base + 1) === 0) return LEN_LOW + tree(base + 2 + POS_STATES_MAX * LEN_LOW + posState * LEN_MID, 3);
    return LEN_LOW + LEN_MID + tree(base + 2 + POS_STATES_MAX * (LEN_LOW + LEN_MID), 8);
  };

  // ---- the stream ----
  const pbMask = (1 << pb) - 1,
    lpMask = (1 << lp) - 1;
  let state = 0,
    rep0 = 0,
    rep1 = 0,
    rep2 = 0,
    rep3 = 0;
  let marker = false; // a stream of unknown size ends only at its marker
  // With the size known, the stream ends there with a range code of 0, or with its end marker.
  let markerDue = false;
  const pastSize = () => fail(`the stream goes on past the ${unpacked} bytes the header gives`);
  for (;;) {
    if (!unknownSize && pos === unpacked) {
      if (rc[1] === 0) break;
      markerDue = true;
    }
    const posState = pos & pbMask;
    if (bit(IS_MATCH + state * POS_STATES_MAX + posState) === 0) {
      if (markerDue) pastSize();
      const prev = pos > 0 ? out[pos - 1] : 0;
      const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
      let s = 1;
      if (state >= 7) {
        let match = out[pos - rep0 - 1];
        while (s < 0x100) {
          const mb = (match >>> 7) & 1;
          match <<= 1;
          const b = bit(base + ((1 + mb) << 8) + s);
          s = (s << 1) | b;
          if (b !== mb) break;
        }
      }
      while (s < 0x100) s = (s << 1) | bit(base + s);
      if (pos >= out.length) grow(pos + 1);
      out[pos++] = s & 0xff;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (bit(IS_REP + state) === 1) {
      if (markerDue) pastSize();
      if (pos === 0) fail('a repeated match comes before any byte');
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + state * POS_STATES_MAX + posState) === 0) {
          state = state < 7 ? 9 : 11;
          if (pos >= out.length) grow(pos + 1);
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist;
        if (bit(IS_REP_G1 + state) === 0) dist = rep1;
        else {
          if (bit(IS_REP_G2 + state) === 0) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      const slot = tree(POS_SLOT + (len < 3 ? len : 3) * 64, 6);
      if (slot < 4) rep0 = slot;
      else {
        const bits = (slot >>> 1) - 1;
        let dist = (2 | (slot & 1)) * 2 ** bits;
        if (slot < END_POS_MODEL) dist += reverseTree(SPEC_POS + dist - slot, bits);
        else dist += direct(bits - ALIGN_BITS) * 2 ** ALIGN_BITS + reverseTree(ALIGN, ALIGN_BITS);
        rep0 = dist;
      }
      if (rep0 === 0xffffffff) {
        marker = true;
        break;
      }
      if (markerDue) pastSize();
      if (rep0 >= pos) fail(`a match at byte ${pos} reaches back ${rep0 + 1} bytes, before the start`);
      if (rep0 >= dictSize)
        fail(`a match at byte ${pos} reaches back ${rep0 + 1} bytes, past the ${dictSize}-byte dictionary`);
    }
    len += 2;
    if (!unknownSize && pos + len > unpacked)
      fail(`a match at byte ${pos} of length ${len} runs past the ${unpacked} bytes the header gives`);
    if (pos + len > out.length) grow(pos + len);
    const from = pos - rep0 - 1;
    if (rep0 + 1 >= len) out.copyWithin(pos, from, from + len);
    else for (let i = 0; i < len; i++) out[pos + i] = out[from + i];
    pos += len;
  }
  if (!unknownSize && pos !== unpacked)
    fail(`the end marker comes after ${pos} bytes, before the ${unpacked} bytes the header gives`);
  if (rc[1] !== 0) fail(`the stream ends with a range code of ${rc[1] >>> 0}, not 0 (it is damaged)`);
  if (inPos !== inEnd) fail(`${inEnd - inPos} bytes follow the end of the stream`);
  return out.length === pos ? out : out.slice(0, pos);
}
