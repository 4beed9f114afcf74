// The page's one state object and the pure functions that change it. No DOM here.
import { parseNumber, parseNumberList } from './model/parse.js';
import { buildLesson } from './model/lesson.js';

/** The input fields, in page order; `sizes` is a comma-separated list. */
export const FIELDS = ['m', 'k', 'n', 'itemsize', 'sizes', 'peak', 'bandwidth', 'traffic_factor'];

/** What a person sees in each field for the seed's defaults (from the core). */
export function defaultInputs(defaults) {
  const inputs = {};
  for (const f of FIELDS) inputs[f] = f === 'sizes' ? defaults.sizes.join(',') : String(defaults[f]);
  return inputs;
}

/**
 * @returns {{inputs: Record<string,string>, report: object|null, error: {input: string, message: string}|null}}
 */
export function createState(core) {
  const defaults = core.lessonDefaults();
  if (!defaults.ok) throw new Error(defaults.error);
  return recompute(core, { inputs: defaultInputs(defaults.value), report: null, error: null });
}

/** Reads the typed text into numbers, naming the first field that is not a number. */
export function inputsToParams(inputs) {
  const params = {};
  for (const f of FIELDS) {
    const r = f === 'sizes' ? parseNumberList(f, inputs[f]) : parseNumber(f, inputs[f]);
    if (!r.ok) return { ok: false, input: f, error: r.error };
    params[f] = r.value;
  }
  return { ok: true, params };
}

/**
 * Rebuilds the report from the inputs. On bad input the error names the field and the last
 * valid report stays, so nothing on the page is lost.
 */
export function recompute(core, state) {
  const parsed = inputsToParams(state.inputs);
  if (!parsed.ok) return { ...state, error: { input: parsed.input, message: parsed.error } };
  const built = buildLesson(core, parsed.params);
  if (!built.ok) {
    const input = FIELDS.includes(built.input) ? built.input : built.input === 'dimensions' ? 'm' : null;
    return { ...state, error: { input, message: built.error } };
  }
  return { ...state, report: built.report, error: null };
}

export function setInput(core, state, field, text) {
  return recompute(core, { ...state, inputs: { ...state.inputs, [field]: text } });
}
