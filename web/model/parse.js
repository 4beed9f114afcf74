// Reading numbers people type, in the CLI and on the page. Pure: no DOM.
//
// Only the text → number step lives here; what makes a number acceptable (positive,
// integer, finite) is decided once, in the C++ core, whose messages the callers show.

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPECIAL = /^[+-]?(inf|infinity|nan)$/i;
const INTEGER = /^[+-]?\d+$/;

/**
 * Parses one number, or explains why not. Number('') is 0 and Number('0x10') is 16: both are
 * refused here, so an empty field never becomes a silent zero. `integer`: the field takes whole
 * numbers only (said in the message for a whole number past 2^53).
 * @returns {{ok: true, value: number} | {ok: false, error: string}}
 */
export function parseNumber(name, text, { integer = false } = {}) {
  const t = typeof text === 'string' ? text.trim() : '';
  if (NUMBER.test(t)) {
    const value = Number(t);
    // Text that no double holds is refused as typed, not passed on as a different number.
    if (!Number.isFinite(value)) {
      return { ok: false, error: `${name} must be a number a double can hold (at most about 1.8e308), got ${t}` };
    }
    if (INTEGER.test(t) && BigInt(t) !== BigInt(value)) {
      // A field that takes decimals is not told it must be an integer: only that this whole number,
      // typed in full, is past what a double holds exactly.
      const rule = integer
        ? 'an integer a double holds exactly (at most 2^53 = 9007199254740992)'
        : 'a number a double holds exactly (a whole number typed in full: at most 2^53 = 9007199254740992)';
      return { ok: false, error: `${name} must be ${rule}, got ${t.replace(/^\+/, '')}` };
    }
    return { ok: true, value };
  }
  if (SPECIAL.test(t)) {
    // Let the core refuse these by its own rule, with the value named ("got infinity").
    const lower = t.toLowerCase();
    if (lower.includes('nan')) return { ok: true, value: NaN };
    return { ok: true, value: lower.startsWith('-') ? -Infinity : Infinity };
  }
  const shown = typeof text === 'string' ? (text === '' ? 'nothing' : JSON.stringify(text)) : 'nothing';
  return { ok: false, error: `${name} must be a number, got ${shown}` };
}

/**
 * A comma-separated list of numbers: "8,16,32". Entries are named as people count them, from 1:
 * "sizes: entry 2 of 3 must be a number, got \"x\"" (the core names its refusals the same way).
 */
export function parseNumberList(name, text) {
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, error: `${name} must be a comma-separated list of numbers, got nothing` };
  }
  const values = [];
  const parts = text.split(',');
  for (const [i, part] of parts.entries()) {
    const r = parseNumber(`${name}: entry ${i + 1} of ${parts.length}`, part, { integer: true });
    if (!r.ok) return r;
    values.push(r.value);
  }
  return { ok: true, value: values };
}
