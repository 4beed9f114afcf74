// Reading and checking the exercise's answers. Pure: no DOM, no core. The expected values are
// always passed in (the core's report.exercise); nothing here knows the lesson's numbers.

/** Ratios are accepted within this relative tolerance: 24/7, 3.4286 and 3.43 pass; 3.4 does not. */
export const RATIO_RELATIVE_TOLERANCE = 2e-3;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Drops a trailing unit word and approximation marks: "≈ 8064 bytes" → "8064". */
function stripDecorations(text, units) {
  let t = text.trim().replace(/^(≈|~|=|about)\s*/i, '');
  for (const unit of units) {
    const re = new RegExp(`\\s*${unit}$`, 'i');
    if (re.test(t)) {
      t = t.replace(re, '');
      break;
    }
  }
  return t.trim();
}

/** Removes digit grouping: "27,648", "27 648", "27_648" → "27648". A lone comma is not grouping. */
function ungroup(text) {
  if (/^[+-]?\d{1,3}([,  _]\d{3})+(\.\d*)?$/.test(text)) return text.replace(/[,  _]/g, '');
  return text;
}

/**
 * A whole number of flops or bytes. Accepts digit grouping, a unit word, and any notation of an
 * integer ("2.7648e4").
 * @returns {{ok: true, value: number} | {ok: false, error: string}}
 */
export function parseIntegerAnswer(text, units = ['flops', 'flop', 'bytes', 'byte', 'B']) {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'no answer yet' };
  const t = ungroup(stripDecorations(text, units));
  if (!NUMBER.test(t)) return { ok: false, error: `"${text.trim()}" is not a number` };
  const value = Number(t);
  if (!Number.isFinite(value)) return { ok: false, error: `"${text.trim()}" is not a finite number` };
  if (!Number.isInteger(value)) return { ok: false, error: `${t} is not a whole number: counts of flops and bytes are integers` };
  return { ok: true, value };
}

/**
 * A ratio: a decimal ("3.4286", "3.43") or a fraction ("24/7", "27648 / 8064").
 * @returns {{ok: true, value: number} | {ok: false, error: string}}
 */
export function parseRatioAnswer(text) {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'no answer yet' };
  const t = stripDecorations(text, ['flops per byte', 'flops/byte', 'flop/byte', 'flops/B', 'flop/B']);
  const fraction = t.split('/');
  if (fraction.length === 2) {
    const [num, den] = fraction.map((s) => ungroup(s.trim()));
    if (!NUMBER.test(num) || !NUMBER.test(den)) return { ok: false, error: `"${text.trim()}" is not a number or a fraction like 24/7` };
    if (Number(den) === 0) return { ok: false, error: 'the denominator is 0' };
    const value = Number(num) / Number(den);
    if (!Number.isFinite(value)) return { ok: false, error: `"${text.trim()}" is not a finite number` };
    return { ok: true, value };
  }
  const single = ungroup(t);
  if (fraction.length > 2 || !NUMBER.test(single)) return { ok: false, error: `"${text.trim()}" is not a number or a fraction like 24/7` };
  const value = Number(single);
  if (!Number.isFinite(value)) return { ok: false, error: `"${text.trim()}" is not a finite number` };
  return { ok: true, value };
}

/**
 * 'memory' or 'compute' from what a person chose or typed ("memory-bound", "Compute bound").
 * @returns {{ok: true, value: 'memory'|'compute'} | {ok: false, error: string}}
 */
export function parseBoundAnswer(text) {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'no answer yet' };
  const t = text.trim().toLowerCase().replace(/[\s_-]*bound$/, '');
  if (t === 'memory' || t === 'bandwidth' || t === 'mem') return { ok: true, value: 'memory' };
  if (t === 'compute' || t === 'peak') return { ok: true, value: 'compute' };
  return { ok: false, error: `"${text.trim()}" is neither memory-bound nor compute-bound` };
}

/** Whether `value` is within the stated relative tolerance of `expected`. */
export function ratioMatches(value, expected, rel = RATIO_RELATIVE_TOLERANCE) {
  return Math.abs(value - expected) <= rel * Math.abs(expected);
}

/**
 * Checks each answer against the report's exercise. The feedback hints at a likely slip but
 * never gives the expected value away (that is the reference solution's job).
 * @param {{work?: string, traffic?: string, ratio?: string, bound?: string}} answers  as typed
 * @param {{a: number[], b: number[], itemsize: number, work: number, traffic: number, ratio: number,
 *          bound: 'memory-bound'|'compute-bound'|'balanced'}} exercise  report.exercise from the core
 * @returns {{work: Verdict, traffic: Verdict, ratio: Verdict, bound: Verdict, allRight: boolean, attempted: boolean}}
 *   Verdict = {status: 'right'|'wrong'|'unreadable'|'empty', message: string}
 */
export function checkExercise(answers, exercise) {
  const [m, k] = exercise.a;
  const n = exercise.b[1];
  const elements = m * k + k * n + m * n;

  const work = verdict(parseIntegerAnswer(answers.work ?? ''), (v) => v === exercise.work, (v) => {
    if (2 * v === exercise.work) return 'that counts multiply-adds (m·k·n); each one is 2 flops.';
    return 'count 2·m·k·n flops, with a of shape (m, k) and b of shape (k, n).';
  }, (v) => `${v} flops is right.`);

  const traffic = verdict(parseIntegerAnswer(answers.traffic ?? ''), (v) => v === exercise.traffic, (v) => {
    if (v === elements) return `that counts elements; each one is ${exercise.itemsize} bytes.`;
    if (v === exercise.itemsize * (m * k + k * n)) return 'the result (m×n) is written once too.';
    if (v === exercise.itemsize * (m * k + k * n + 2 * m * n)) return 'the minimum traffic writes the result once; it is not read.';
    return 'minimum bytes = itemsize · (m·k + k·n + m·n): each input read once, the result written once.';
  }, (v) => `${v} bytes is right.`);

  const ratio = verdict(parseRatioAnswer(answers.ratio ?? ''), (v) => ratioMatches(v, exercise.ratio), (v) => {
    if (v !== 0 && ratioMatches(1 / v, exercise.ratio)) return 'that is bytes per flop; the ratio is flops per byte (work / traffic).';
    return `the ratio is work / traffic, in flops per byte (accepted within ${RATIO_RELATIVE_TOLERANCE * 100}%).`;
  }, () => `within ${RATIO_RELATIVE_TOLERANCE * 100}% of work / traffic, in flops per byte.`);

  const expectedBound = exercise.bound === 'memory-bound' ? 'memory' : exercise.bound === 'compute-bound' ? 'compute' : 'balanced';
  const bound = verdict(parseBoundAnswer(answers.bound ?? ''), (v) => expectedBound === 'balanced' || v === expectedBound,
    () => 'compare bandwidth · ratio with the peak: below the peak, memory is the limit.',
    (v) => (expectedBound === 'balanced' ? `${v}-bound: accepted, the workload sits exactly on the ridge.` : `${v}-bound is right.`));

  const all = [work, traffic, ratio, bound];
  return {
    work, traffic, ratio, bound,
    allRight: all.every((x) => x.status === 'right'),
    attempted: all.some((x) => x.status !== 'empty'),
  };
}

function verdict(parsed, isRight, hint, praise) {
  if (!parsed.ok) {
    return parsed.error === 'no answer yet'
      ? { status: 'empty', message: 'No answer yet.' }
      : { status: 'unreadable', message: `Cannot read this: ${parsed.error}.` };
  }
  if (isRight(parsed.value)) return { status: 'right', message: `Right: ${praise(parsed.value)}` };
  return { status: 'wrong', message: `Not yet: ${hint(parsed.value)}` };
}
