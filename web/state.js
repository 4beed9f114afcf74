// The page's one state object and the pure functions that change it. No DOM here.
//
// state = {
//   inputs:   what each field shows (text), dtype included;
//   report:   the lesson's report for the last valid inputs (never cleared by bad input);
//   valid:    the inputs that report was built from (what the URL hash and state() show);
//   params:   the same, as numbers;
//   error:    the first problem, {input, message}, or null;  errors: every field's problem;
//   figure:   the figure's data (web/model/figure_model.js) for the report and the measurements;
//   measurements: this machine's measurements (section 4), or null; never mixed into the report;
//   show:     {measuredRoof, measuredPoint, allCoresRoof, allCoresPoint}: what the figure adds
//             from the measurements (1 core; all cores);
//   notices:  things the page ignored (a bad value in a link), to be shown once.
// }
import { parseNumber, parseNumberList } from './model/parse.js';
import { buildLesson, DTYPE_OF_ITEMSIZE, ITEMSIZE_OF_DTYPE } from './model/lesson.js';
import { figureModel } from './model/figure_model.js';
import { decodeHash, encodeHash, hashKeyOf } from './model/hash.js';

/** The input fields, in page order; `sizes` is a comma-separated list, `dtype` a name. */
export const FIELDS = ['m', 'k', 'n', 'dtype', 'itemsize', 'sizes', 'peak', 'bandwidth', 'traffic_factor'];

/** The experiment's range for the traffic factor (the core accepts any positive factor). */
export const TRAFFIC_FACTOR_RANGE = { min: 0.25, max: 16 };

export const DTYPES = Object.keys(ITEMSIZE_OF_DTYPE);

/** What a person sees in each field for the seed's defaults (from the core). */
export function defaultInputs(defaults) {
  const inputs = {};
  for (const f of FIELDS) {
    if (f === 'sizes') inputs[f] = defaults.sizes.join(',');
    else if (f === 'dtype') inputs[f] = DTYPE_OF_ITEMSIZE[defaults.itemsize] ?? '';
    else inputs[f] = String(defaults[f]);
  }
  return inputs;
}

/**
 * @returns {{inputs: Record<string,string>, report: object|null, error: {input: string, message: string}|null}}
 */
export function createState(core) {
  const defaults = core.lessonDefaults();
  if (!defaults.ok) throw new Error(defaults.error);
  return recompute(core, {
    inputs: defaultInputs(defaults.value), report: null, valid: null, params: null, error: null, errors: {},
    figure: null, measurements: null, show: { measuredRoof: false, measuredPoint: false, allCoresRoof: false, allCoresPoint: false }, notices: [],
  });
}

function parseField(f, text) {
  if (f === 'sizes') return parseNumberList(f, text);
  if (f === 'dtype') {
    if (text === '') return { ok: true, value: undefined };  // no float type for this itemsize
    return DTYPES.includes(text)
      ? { ok: true, value: text }
      : { ok: false, error: `dtype must be one of ${DTYPES.join(', ')}, got ${JSON.stringify(text)}` };
  }
  // Messages name the field the way the core does ("traffic factor must be …").
  const r = parseNumber(f === 'traffic_factor' ? 'traffic factor' : f, text);
  if (!r.ok) return r;
  if (f === 'traffic_factor' && Number.isFinite(r.value) && r.value > 0 &&
      (r.value < TRAFFIC_FACTOR_RANGE.min || r.value > TRAFFIC_FACTOR_RANGE.max)) {
    return { ok: false, error: `traffic factor must be from ${TRAFFIC_FACTOR_RANGE.min} to ${TRAFFIC_FACTOR_RANGE.max} on this page, got ${text.trim()}` };
  }
  return r;
}

/**
 * Reads the typed text into numbers, naming the first field that is not acceptable; `errors`
 * has every field's problem. A field missing from `inputs` is left out (the seed's value).
 */
export function inputsToParams(inputs) {
  const params = {};
  const errors = {};
  for (const f of FIELDS) {
    if (inputs[f] === undefined) continue;
    const r = parseField(f, inputs[f]);
    if (!r.ok) errors[f] = r.error;
    else if (r.value !== undefined) params[f] = r.value;
  }
  const first = Object.keys(errors)[0];
  if (first) return { ok: false, input: first, error: errors[first], errors };
  return { ok: true, params };
}

/**
 * Rebuilds the report from the inputs. On bad input the error names the field and the last
 * valid report stays, so nothing on the page is lost.
 */
export function recompute(core, state) {
  const parsed = inputsToParams(state.inputs);
  if (!parsed.ok) return { ...state, error: { input: parsed.input, message: parsed.error }, errors: parsed.errors };
  const built = buildLesson(core, parsed.params);
  if (!built.ok) {
    const input = FIELDS.includes(built.input) ? built.input : built.input === 'dimensions' ? 'm' : null;
    return { ...state, error: { input, message: built.error }, errors: input ? { [input]: built.error } : {} };
  }
  const figure = figureModel(core, built.report, state.measurements);
  if (!figure.ok) return { ...state, error: { input: null, message: figure.error }, errors: {} };
  return {
    ...state, report: built.report, figure: figure.value, valid: { ...state.inputs }, params: parsed.params,
    error: null, errors: {},
  };
}

/**
 * One field typed. The dtype and the itemsize move together: choosing a dtype sets its
 * itemsize; typing an itemsize keeps the dtype if it has that size, or else picks the usual
 * type of that size (2 → bf16), or none (3).
 */
export function setInput(core, state, field, text) {
  const inputs = { ...state.inputs, [field]: text };
  if (field === 'dtype' && ITEMSIZE_OF_DTYPE[text] !== undefined) inputs.itemsize = String(ITEMSIZE_OF_DTYPE[text]);
  if (field === 'itemsize') {
    const size = parseNumber('itemsize', text);
    if (size.ok && ITEMSIZE_OF_DTYPE[inputs.dtype] !== size.value) inputs.dtype = DTYPE_OF_ITEMSIZE[size.value] ?? '';
  }
  return recompute(core, { ...state, inputs });
}

/** Back to the seed's values; measurements and figure toggles are kept. */
export function resetInputs(core, state) {
  const fresh = createState(core);
  return recompute(core, { ...state, inputs: fresh.inputs, notices: [] });
}

/** Stores this machine's measurements (their own part of the state) and redraws the figure's data. */
export function setMeasurements(core, state, measurements) {
  const next = { ...state, measurements };
  if (!next.report) return next;
  const figure = figureModel(core, next.report, measurements);
  return figure.ok ? { ...next, figure: figure.value } : next;
}

/** Turns one of the figure's measured layers (1 core or all cores: roofs, kernel points) on or off. */
export function setShow(state, key, on) {
  if (!Object.hasOwn(state.show, key)) return state;
  return { ...state, show: { ...state.show, [key]: Boolean(on) } };
}

/** The URL hash of the last valid view. */
export function hashOf(state) {
  return state.valid ? encodeHash(state.valid, ITEMSIZE_OF_DTYPE) : '';
}

/**
 * Applies a URL hash: each value as if typed into its field, in page order. A value the page
 * would refuse is left out, and `notices` says which and why; the page keeps working.
 */
export function applyHash(core, state, hash) {
  const decoded = decodeHash(hash);
  const notices = [...decoded.notices];
  let s = state;
  for (const f of FIELDS) {
    if (!Object.hasOwn(decoded.values, f)) continue;
    const text = decoded.values[f];
    const next = setInput(core, s, f, text);
    if (next.error) notices.push(`ignored ${hashKeyOf(f)}=${JSON.stringify(text)} in the link: ${next.error.message}`);
    else s = next;
  }
  if (s.error) s = recompute(core, { ...s, inputs: { ...s.valid } });
  return { ...s, notices };
}

/** Keys setState accepts besides the fields: the hash's name for the factor, and the figure's toggles. */
const ALIASES = { factor: 'traffic_factor' };
const SHOW_KEYS = {
  showMeasuredRoof: 'measuredRoof', showMeasuredPoint: 'measuredPoint', showAllCoresRoof: 'allCoresRoof', showAllCoresPoint: 'allCoresPoint',
};

/**
 * Applies a partial state from a script (`rooflineLab.setState`): numbers, arrays or text per
 * field, plus showMeasuredRoof / showMeasuredPoint / showAllCoresRoof / showAllCoresPoint.
 * @returns {{state: object, unknown: string[]}}
 */
export function applyPartial(core, state, partial) {
  const unknown = [];
  let s = state;
  const entries = Object.entries(partial ?? {});
  const fieldValues = {};
  for (const [key, value] of entries) {
    const field = ALIASES[key] ?? key;
    if (FIELDS.includes(field)) fieldValues[field] = Array.isArray(value) ? value.join(',') : String(value ?? '');
    else if (SHOW_KEYS[key]) s = setShow(s, SHOW_KEYS[key], value);
    else unknown.push(key);
  }
  for (const f of FIELDS) if (Object.hasOwn(fieldValues, f)) s = setInput(core, s, f, fieldValues[f]);
  return { state: s, unknown };
}

/** The view as plain values, for scripts: the last valid inputs as numbers, the toggles, the error. */
export function publicState(state) {
  const p = state.params ?? {};
  return {
    m: p.m, k: p.k, n: p.n, dtype: state.valid?.dtype || null, itemsize: p.itemsize,
    sizes: p.sizes ? [...p.sizes] : undefined, peak: p.peak, bandwidth: p.bandwidth, traffic_factor: p.traffic_factor,
    showMeasuredRoof: state.show.measuredRoof, showMeasuredPoint: state.show.measuredPoint,
    showAllCoresRoof: state.show.allCoresRoof, showAllCoresPoint: state.show.allCoresPoint,
    error: state.error ? { ...state.error } : null,
  };
}
