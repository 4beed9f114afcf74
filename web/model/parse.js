// Reading numbers people type, in the CLI and on the page. Pure: no DOM.
//
// Only the text → number step lives here; what makes a number acceptable (positive,
// integer, finite) is decided once, in the C++ core, whose messages the callers show.

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPECIAL = /^[+-]?(inf|infinity|nan)$/i;

/**
 * Parses one number, or explains why not. Number('') is 0 and Number('0x10') is 16: both are
 * refused here, so an empty field never becomes a silent zero.
 * @returns {{ok: true, value: number} | {ok: false, error: string}}
 */
export function parseNumber(name, text) {
  const t = typeof text === 'string' ? text.trim() : '';
  if (NUMBER.test(t)) return { ok: true, value: Number(t) };
  if (SPECIAL.test(t)) {
    // Let the core refuse these by its own rule, with the value named ("got inf").
    const lower = t.toLowerCase();
    if (lower.includes('nan')) return { ok: true, value: NaN };
    return { ok: true, value: lower.startsWith('-') ? -Infinity : Infinity };
  }
  const shown = typeof text === 'string' ? (text === '' ? 'nothing' : JSON.stringify(text)) : 'nothing';
  return { ok: false, error: `${name} must be a number, got ${shown}` };
}

/** A comma-separated list of numbers: "8,16,32". */
export function parseNumberList(name, text) {
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, error: `${name} must be a comma-separated list of numbers, got nothing` };
  }
  const values = [];
  for (const [i, part] of text.split(',').entries()) {
    const r = parseNumber(`${name}[${i}]`, part);
    if (!r.ok) return r;
    values.push(r.value);
  }
  return { ok: true, value: values };
}
