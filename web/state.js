// The page's one state store, and the pure functions that change it. No DOM here: every view
// renders from this object, the URL hash and localStorage are written from it (main.js), and
// every transition is tested in Node (tests/js/state_store.test.mjs). It is plain data: it
// survives JSON.stringify and structuredClone unchanged (serializeState / restoreState).
//
// state = {
//   defaults: the seed's values and the lesson's dtypes, from the core (core.lessonDefaults);
//   inputs:   what each field shows (text), dtype included;
//   report:   the lesson's report for the last valid inputs (never cleared by bad input): the
//             core's, from one call (core.lessonReport);
//   valid:    the inputs that report was built from (what the URL hash and state() show);
//   params:   the same, as numbers;
//   error:    the first problem, {input, message}, or null;  errors: every field's problem;
//   figure:   what the figure and the experiment draw, read from the report (web/model/figure_model.js);
//   measurements: this machine's measurements (section 4), or null; never mixed into the model's
//             numbers (the figure draws this machine's roofs and points from them, not the report);
//   trafficMeasurement: section 6's experiment measured on this machine (core.measureTraffic in a
//             Worker), or null; kept when the factor changes (the page marks it stale);
//   show:     {measuredRoof, measuredPoint, allCoresRoof, allCoresPoint}: what the figure adds
//             from the measurements (1 core; all cores);
//   notices:  things the page ignored (a bad value in a link), to be shown once;
//   exercise: section 7: {answers: {work, traffic, ratio, bound}, checked, attempted, tried, solved, check}:
//             the answers of the last Check, whether Check was pressed, whether any answer was given,
//             the questions ever answered at a Check, those ever right at a Check (the solution
//             opens by itself once all were; before, only when asked for), and
//             the core's verdicts on them by question id (re-checked as the budgets move);
//   analyze:  section 8 (web/analyze_state.js);
//   classroom: section 9 (web/classroom_state.js);
//   gradebook: the teacher's gradebook (web/gradebook_state.js).
// }
import { parseNumber, parseNumberList } from './model/parse.js';
import { buildLesson } from './model/lesson.js';
import { figureModel } from './model/figure_model.js';
import { decodeHash, encodeHash, hashKeyOf } from './model/hash.js';
import { measuredForReport } from './model/measure.js';
import { createAnalyzeState, runChoiceFromLink, runHashPart } from './analyze_state.js';
import { createClassroomState } from './classroom_state.js';
import { createGradebookState } from './gradebook_state.js';

/** The input fields, in page order; `sizes` is a comma-separated list, `dtype` a name. */
export const FIELDS = ['m', 'k', 'n', 'dtype', 'itemsize', 'sizes', 'peak', 'bandwidth', 'traffic_factor'];
/** The fields that take whole numbers only (the others take decimals): named so in messages. */
const INTEGER_FIELDS = ['m', 'k', 'n', 'itemsize'];

/** The experiment's range for the traffic factor on this page (the core accepts any positive factor). */
export const TRAFFIC_FACTOR_RANGE = { min: 0.25, max: 16 };

/** The dtypes the page offers, from the core: {f32: 4, …}. */
export const dtypesOf = (state) => state.defaults.dtypes;

/** What a person sees in each field for the seed's defaults (from the core). */
export function defaultInputs(defaults) {
  const inputs = {};
  for (const f of FIELDS) {
    if (f === 'sizes') inputs[f] = defaults.sizes.join(',');
    else if (f === 'dtype') inputs[f] = defaults.dtype_of_itemsize[defaults.itemsize] ?? '';
    else inputs[f] = String(defaults[f]);
  }
  return inputs;
}

/** The section 7 part of a fresh state. */
export const createExerciseState = () => ({
  answers: { work: '', traffic: '', ratio: '', bound: '' },
  checked: false,
  attempted: false,
  tried: [],
  solved: [],
  check: {},
});

/**
 * The whole store at start, the lesson built for the seed's values (one core call).
 */
export function createState(core) {
  const defaults = core.lessonDefaults();
  if (!defaults.ok) throw new Error(defaults.error);
  const plain = structuredClone(defaults.value); // the core's frozen copy stays the core's
  return recompute(core, {
    defaults: plain,
    inputs: defaultInputs(plain),
    report: null,
    valid: null,
    params: null,
    error: null,
    errors: {},
    figure: null,
    measurements: null,
    trafficMeasurement: null,
    show: { measuredRoof: false, measuredPoint: false, allCoresRoof: false, allCoresPoint: false },
    notices: [],
    exercise: createExerciseState(),
    analyze: createAnalyzeState(),
    classroom: createClassroomState(core),
    gradebook: createGradebookState(),
  });
}

/** The sizes as typed, each once: a size listed twice would be drawn and listed twice (this page's rule). */
function parseSizes(text) {
  const r = parseNumberList('sizes', text);
  if (!r.ok) return r;
  const n = r.value.length;
  for (const [j, x] of r.value.entries()) {
    const i = r.value.indexOf(x);
    if (i < j)
      return {
        ok: false,
        error: `sizes: entry ${j + 1} of ${n} must not repeat a size, got ${x} again (entry ${i + 1})`,
      };
  }
  return r;
}

function parseField(f, text) {
  if (f === 'sizes') return parseSizes(text);
  // The core judges the dtype's name (one list of dtypes); empty follows the itemsize.
  if (f === 'dtype') return { ok: true, value: text === '' ? undefined : text };
  // Messages name the field the way the core does ("traffic factor must be …").
  const r = parseNumber(f === 'traffic_factor' ? 'traffic factor' : f, text, { integer: INTEGER_FIELDS.includes(f) });
  if (!r.ok) return r;
  // The page's range, for any number outside it (0 and −1 too: "positive" alone would not say
  // what this page takes).
  if (f === 'traffic_factor' && !(r.value >= TRAFFIC_FACTOR_RANGE.min && r.value <= TRAFFIC_FACTOR_RANGE.max)) {
    return {
      ok: false,
      error: `traffic factor must be from ${TRAFFIC_FACTOR_RANGE.min} to ${TRAFFIC_FACTOR_RANGE.max} on this page, got ${text.trim()}`,
    };
  }
  return r;
}

/**
 * Reads the typed text into numbers, naming the first field that is not acceptable; `errors`
 * has every field's problem, and `params` every field that reads as a number (the core then
 * judges those by its rules). A field missing from `inputs` is left out (the seed's value).
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
  if (first) return { ok: false, input: first, error: errors[first], errors, params };
  return { ok: true, params };
}

/** What the report is built with besides the inputs: this machine's roofs, section 7's answers. */
function extrasOf(state) {
  return {
    measured: measuredForReport(state.measurements),
    answers: state.exercise.attempted ? { ...state.exercise.answers } : undefined,
  };
}

/** The field a refusal of the core belongs to ('dimensions' → m), or null. */
function fieldOf(input) {
  return FIELDS.includes(input) ? input : input === 'dimensions' ? 'm' : null;
}

/**
 * Every refused field's message, by field, from the page's reading of the text (`parsed`) and the
 * core's rules (`built`: its `errors` list every input it refused, each judged alone). A field the
 * page could not read keeps the page's message.
 */
function refusedFields(parsed, built) {
  const errors = {};
  const refusals = built.ok ? [] : (built.errors ?? [{ input: built.input, error: built.error }]);
  for (const r of refusals) {
    const field = fieldOf(r.input);
    if (field && !errors[field]) errors[field] = r.error;
  }
  Object.assign(errors, parsed.errors ?? {});
  const ordered = {};
  for (const f of FIELDS) if (errors[f]) ordered[f] = errors[f];
  return ordered;
}

/**
 * The state with a freshly built report, or the refusals as its errors (the last report stays):
 * `errors` marks every refused field, `error` is the first (or the core's refusal of the inputs
 * together, which names no one field's rule: counts that overflow).
 */
function withBuilt(state, built, inputs, parsed) {
  if (!parsed.ok || !built.ok) {
    const errors = refusedFields(parsed, built);
    const first = Object.keys(errors)[0];
    const error = first
      ? { input: first, message: errors[first] }
      : { input: fieldOf(built.input), message: built.error };
    return { ...state, error, errors };
  }
  return {
    ...state,
    report: built.report,
    figure: figureModel(built.report, built.measured),
    valid: { ...inputs },
    params: parsed.params,
    error: null,
    errors: {},
    exercise: { ...state.exercise, check: built.check },
  };
}

/**
 * The same inputs built again with new extras (measurements, answers): the model's report does not
 * change, so it is kept as it is; the figure and the verdicts follow.
 */
function rebuiltExtras(core, state) {
  if (!state.params) return state;
  const built = buildLesson(core, state.params, extrasOf(state));
  if (!built.ok) return state;
  return {
    ...state,
    figure: figureModel(state.report, built.measured),
    exercise: { ...state.exercise, check: built.check },
  };
}

/**
 * Rebuilds the report from the inputs: one core call. On bad input the error names the field and
 * the last valid report stays, so nothing on the page is lost.
 */
export function recompute(core, state) {
  // One core call even when the page cannot read a field: the core judges the others, so every
  // refused field is marked at once (m = 0 and peak = x: both).
  const parsed = inputsToParams(state.inputs);
  return withBuilt(state, buildLesson(core, parsed.params, extrasOf(state)), state.inputs, parsed);
}

/**
 * The texts after one field is typed. The dtype and the itemsize move together: choosing a dtype
 * sets its itemsize; typing an itemsize keeps the dtype if it has that size, or else picks the
 * usual type of that size (2 → bf16), or none (3). The tables are the core's.
 */
function typed(defaults, inputs, field, text) {
  const next = { ...inputs, [field]: text };
  const { dtypes, dtype_of_itemsize: usual } = defaults;
  if (field === 'dtype' && Object.hasOwn(dtypes, text)) next.itemsize = String(dtypes[text]);
  if (field === 'itemsize') {
    const size = parseNumber('itemsize', text, { integer: true });
    if (size.ok && dtypes[next.dtype] !== size.value) next.dtype = usual[size.value] ?? '';
  }
  return next;
}

/** One field typed: one rebuild. */
export function setInput(core, state, field, text) {
  return recompute(core, { ...state, inputs: typed(state.defaults, state.inputs, field, text) });
}

/** Back to the seed's values; measurements and figure toggles are kept. */
export function resetInputs(core, state) {
  return recompute(core, { ...state, inputs: defaultInputs(state.defaults), notices: [] });
}

/**
 * Stores this machine's measurements (their own part of the state): the figure gets their roofs
 * and point; the model's report is untouched.
 */
export function setMeasurements(core, state, measurements) {
  return rebuiltExtras(core, { ...state, measurements });
}

/** Stores section 6's measured experiment (core.measureTraffic's value); the model's report is untouched. */
export function setTrafficMeasurement(state, trafficMeasurement) {
  return { ...state, trafficMeasurement };
}

/** Turns one of the figure's measured layers (1 core or all cores: roofs, kernel points) on or off. */
export function setShow(state, key, on) {
  if (!Object.hasOwn(state.show, key)) return state;
  return { ...state, show: { ...state.show, [key]: Boolean(on) } };
}

/**
 * Section 7's Check: the answers as typed ({work, traffic, ratio, bound}); blank ones are not
 * checked. The report is rebuilt from the last valid inputs with the answers (one core call), and
 * carries the core's verdicts from then on, re-checked whenever the budgets move.
 */
export function checkExercise(core, state, answers) {
  const texts = {};
  for (const key of Object.keys(state.exercise.answers)) texts[key] = String(answers?.[key] ?? '');
  const attempted = state.exercise.attempted || Object.values(texts).some((t) => t.trim() !== '');
  const before = state.exercise.tried ?? [];
  const tried = Object.keys(texts).filter((key) => before.includes(key) || texts[key].trim() !== '');
  const solvedBefore = state.exercise.solved ?? [];
  const next = rebuiltExtras(core, {
    ...state,
    exercise: { answers: texts, checked: true, attempted, tried, solved: solvedBefore, check: {} },
  });
  const right = (key) => texts[key].trim() !== '' && next.exercise.check?.[key]?.correct === true;
  const solved = Object.keys(texts).filter((key) => solvedBefore.includes(key) || right(key));
  return { ...next, exercise: { ...next.exercise, solved } };
}

/** The URL hash of the last valid view. */
export function hashOf(state) {
  // The lesson's fields, then section 8's run choice when it is not the default (#…&fuse=ops).
  return [state.valid ? encodeHash(state.valid, dtypesOf(state)) : '', runHashPart(state.analyze)]
    .filter(Boolean)
    .join('&');
}

/**
 * Applies a URL hash: each value as if typed into its field, in page order, then one rebuild. A
 * value the page would refuse is left out, and `notices` says which and why; the page keeps
 * working. Only a value the core refuses costs another rebuild (without it).
 */
export function applyHash(core, state, hash) {
  const decoded = decodeHash(hash);
  // Section 8's run choice (#fuse=ops): judged by analyze_state.js, a bad value noticed after the lesson's.
  const linkedRun = runChoiceFromLink(state.analyze, decoded.run);
  const withRun = (s) => ({ ...s, analyze: linkedRun.analyze, notices: [...s.notices, ...linkedRun.notices] });
  return withRun(applyLessonHash(core, state, decoded));
}

function applyLessonHash(core, state, decoded) {
  const base = state.error && state.valid ? { ...state.valid } : { ...state.inputs };
  let linked = FIELDS.filter((f) => Object.hasOwn(decoded.values, f));
  const ignored = {}; // field → why, said in page order
  const ignore = (field, message) => {
    ignored[field] = `ignored ${hashKeyOf(field)}=${JSON.stringify(decoded.values[field])} in the link: ${message}`;
    linked = linked.filter((f) => f !== field);
  };
  const noticed = () => [...decoded.notices, ...FIELDS.filter((f) => ignored[f]).map((f) => ignored[f])];
  const inputsOf = () => {
    const inputs = linked.reduce((acc, f) => typed(state.defaults, acc, f, decoded.values[f]), base);
    // A link's dtype and itemsize are both its own: typing the itemsize after the dtype would
    // quietly drop a dtype of another size (#itemsize=3&dtype=f32); the core judges the pair, and
    // a dtype it refuses is ignored with a notice like any other value.
    return linked.includes('dtype') && linked.includes('itemsize')
      ? { ...inputs, dtype: decoded.values.dtype }
      : inputs;
  };
  // Values the page cannot read, each with its own message, before the core sees any.
  for (const f of [...linked]) {
    const alone = inputsToParams(typed(state.defaults, base, f, decoded.values[f]));
    if (!alone.ok && alone.errors[f]) ignore(f, alone.errors[f]);
  }
  for (;;) {
    const inputs = inputsOf();
    const parsed = inputsToParams(inputs);
    const built = parsed.ok
      ? buildLesson(core, parsed.params, extrasOf(state))
      : { ok: false, input: parsed.input, error: parsed.error };
    if (built.ok) return { ...withBuilt({ ...state, inputs }, built, inputs, parsed), notices: noticed() };
    // The core refused a linked value (for counts that overflow: the last of m, k, n, itemsize
    // the link gave): leave it out and build again.
    const culprit =
      built.input === 'dimensions'
        ? [...linked].reverse().find((f) => ['m', 'k', 'n', 'itemsize'].includes(f))
        : linked.find((f) => f === built.input);
    if (!culprit) return { ...recompute(core, { ...state, inputs: base }), notices: noticed() };
    ignore(culprit, built.error);
  }
}

/**
 * A link opened on the page (a hashchange): the seed's view with the link's values, as if the
 * page had been opened with it — one rebuild.
 */
export function applyLink(core, state, hash) {
  return applyHash(
    core,
    { ...state, inputs: defaultInputs(state.defaults), error: null, errors: {}, notices: [] },
    hash,
  );
}

/** Keys setState accepts besides the fields: the hash's name for the factor, and the figure's toggles. */
const ALIASES = { factor: 'traffic_factor' };
const SHOW_KEYS = {
  showMeasuredRoof: 'measuredRoof',
  showMeasuredPoint: 'measuredPoint',
  showAllCoresRoof: 'allCoresRoof',
  showAllCoresPoint: 'allCoresPoint',
};

/**
 * Applies a partial state from a script (`rooflineLab.setState`): numbers, arrays or text per
 * field, plus showMeasuredRoof / showMeasuredPoint / showAllCoresRoof / showAllCoresPoint. One rebuild
 * for all the fields.
 * @returns {{state: object, unknown: string[]}}
 */
export function applyPartial(core, state, partial) {
  const unknown = [];
  let s = state;
  const fieldValues = {};
  for (const [key, value] of Object.entries(partial ?? {})) {
    const field = ALIASES[key] ?? key;
    if (FIELDS.includes(field)) fieldValues[field] = Array.isArray(value) ? value.join(',') : String(value ?? '');
    else if (SHOW_KEYS[key]) s = setShow(s, SHOW_KEYS[key], value);
    else unknown.push(key);
  }
  const fields = FIELDS.filter((f) => Object.hasOwn(fieldValues, f));
  if (fields.length) {
    const inputs = fields.reduce((acc, f) => typed(s.defaults, acc, f, fieldValues[f]), s.inputs);
    s = recompute(core, { ...s, inputs });
  }
  return { state: s, unknown };
}

/** The view as plain values, for scripts: the last valid inputs as numbers, the toggles, the error. */
export function publicState(state) {
  const p = state.params ?? {};
  return {
    m: p.m,
    k: p.k,
    n: p.n,
    dtype: state.valid?.dtype || null,
    itemsize: p.itemsize,
    sizes: p.sizes ? [...p.sizes] : undefined,
    peak: p.peak,
    bandwidth: p.bandwidth,
    traffic_factor: p.traffic_factor,
    showMeasuredRoof: state.show.measuredRoof,
    showMeasuredPoint: state.show.measuredPoint,
    showAllCoresRoof: state.show.allCoresRoof,
    showAllCoresPoint: state.show.allCoresPoint,
    error: state.error ? { ...state.error } : null,
  };
}

/** The store as JSON text: everything the page shows can be drawn again from it. */
export function serializeState(state) {
  return JSON.stringify(state);
}

/** A store from serializeState's text (no core call: the report and the analysis are in it). */
export function restoreState(text) {
  return JSON.parse(text);
}
