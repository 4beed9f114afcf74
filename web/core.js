// The one door to the wasm core (cpp/bindings/bindings.cpp). Everything in web/ and the Node
// CLIs reaches C++ through here.
//
// Every call returns a plain value the caller owns:
//   {ok: true, value}  or  {ok: false, error: "m must be a positive integer, got 0"}.
// The rules (positive, integer, finite, in range) live once, in C++; the bindings also refuse
// a value of the wrong JS type by name. A JS exception from the module (a bug, never bad
// input) is turned into the same {ok: false} shape, so no caller crashes on it.

/**
 * @typedef {{ok: true, value: any} | {ok: false, error: string}} CoreResult
 * @typedef {{m: number, k: number, n: number, itemsize: number,
 *            flops: number, flops_exact: string, minimum_bytes: number,
 *            minimum_bytes_exact: string, intensity: number, intensity_fraction: string}} Contraction
 *   Counts are exact in C++ (128-bit); `flops` is exact up to 2^53, `flops_exact` always.
 * @typedef {{intensity: number, bandwidth_ceiling: number, ceiling: number,
 *            bound: 'memory-bound' | 'compute-bound' | 'balanced'}} Ceiling
 */

/**
 * A row's intensity as the core defines it (hlo::Analysis::intensity_of): flops / bytes_accessed,
 * the same IEEE division; null (the core's NaN) when no bytes are accessed. A count that is not
 * finite is null (as in JSON), and so is the intensity.
 */
function intensityOf(flops, bytes) {
  if (!(bytes > 0) || flops === null) return null;
  const q = flops / bytes;
  return Number.isFinite(q) ? q : null;
}

/** A number as JSON would carry it: NaN and infinities null, −0 as 0. */
const asJson = (x) => (Number.isFinite(x) ? x + 0 : null);

/** A column of counts as JSON values: the typed array itself when every value already is one. */
function jsonValues(column) {
  for (let i = 0; i < column.length; i++) {
    const x = column[i];
    if (!Number.isFinite(x) || (x === 0 && 1 / x < 0)) return Array.from(column, asJson);
  }
  return column;
}

/**
 * The core's report has each module's rows as columns: strings and types listed once in the JSON
 * text, the numbers as typed arrays (`columns[k]` for module k; names in cpp/hlo/report.h). This
 * makes them one object per op again. Strings, types' dims and equal operand byte lists are
 * shared between rows, not copied.
 */
function expandReport(report, columns) {
  report.modules.forEach((m, k) => {
    if (!m.rows) return;
    const { count, strings, types } = m.rows;
    const c = columns[k];
    const flopsCol = jsonValues(c.flops), transCol = jsonValues(c.transcendentals);
    const bytesCol = jsonValues(c.bytes_accessed), unfusedCol = jsonValues(c.unfused_bytes_accessed);
    const outputCol = jsonValues(c.output_bytes), collectiveCol = jsonValues(c.collective_bytes);
    const start = c.operand_bytes_start;
    const lists = [];
    for (let l = 0; l + 1 < start.length; l++) lists.push(Array.from(c.operand_bytes.subarray(start[l], start[l + 1]), asJson));
    const { top_level: top, line, column, op, type: typeOf, function: fn, note, modeled, operand_bytes_list: list } = c;
    const ops = new Array(count);
    for (let i = 0; i < count; i++) {
      const type = types[typeOf[i]];
      const flops = flopsCol[i];
      const bytes = bytesCol[i];
      const row = {
        top_level: top[i] === 1, line: line[i], column: column[i], op: strings[op[i]],
        shape: type.shape, element_type: type.element_type, dims: type.dims, function: strings[fn[i]],
        flops, transcendentals: transCol[i], bytes_accessed: bytes,
        unfused_bytes_accessed: unfusedCol[i], operand_bytes: lists[list[i]],
        output_bytes: outputCol[i], collective_bytes: collectiveCol[i], intensity: intensityOf(flops, bytes),
        modeled: modeled[i] === 1,
      };
      if (note[i] >= 0) row.note = strings[note[i]];
      ops[i] = row;
    }
    delete m.rows;
    m.ops = ops;
  });
  return report;
}

/**
 * The analysis from its compact form ({json, columns}: what core.analyzeTextColumns returns and
 * what the page's Worker posts, the columns' buffers transferred rather than copied): the same
 * value core.analyzeText gives. JavaScript's own limits (memory) give an error, never a throw.
 * @returns {CoreResult}
 */
export function expandAnalysis(compact) {
  try {
    return { ok: true, value: expandReport(JSON.parse(compact.json), compact.columns) };
  } catch (e) {
    return { ok: false, error: `the analysis of this text does not fit in JavaScript memory: ${e && e.message ? e.message : e}` };
  }
}

/** Turns a module call into a CoreResult, whatever happens inside. */
function guarded(name, fn) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      return { ok: false, error: `internal error in core.${name}: ${e && e.message ? e.message : e}` };
    }
  };
}

/**
 * Instantiates the module and returns the core's functions.
 * @param {(options?: object) => Promise<any>} createCore the factory that roofline-core.js defines
 */
export async function loadCore(createCore) {
  if (typeof createCore !== 'function') {
    throw new Error('the wasm core did not load: roofline-core.js must be loaded before the app');
  }
  const module = await createCore();
  return {
    /** (m, k, n, itemsize = 4) → Contraction */
    contract: guarded('contract', (m, k, n, itemsize) => module.contract(m, k, n, itemsize)),
    /** (aRows, aCols, bRows, bCols, itemsize = 4) → Contraction; inner dimensions must match */
    contractShapes: guarded('contractShapes', (ar, ac, br, bc, itemsize) =>
      module.contractShapes(ar, ac, br, bc, itemsize)),
    /** (peak GFLOP/s, bandwidth GB/s, intensities[]) → {ridge, rows: Ceiling[]} */
    ceilings: guarded('ceilings', (peak, bandwidth, xs) => module.ceilings(peak, bandwidth, xs)),
    /** (peak, bandwidth, intensities[], factor) → [{original: Ceiling, revised: Ceiling, bound_changed}] */
    trafficExperiment: guarded('trafficExperiment', (peak, bandwidth, xs, factor) =>
      module.trafficExperiment(peak, bandwidth, xs, factor)),
    /** (peak, bandwidth, intensities[]) → {kind, x, xlabel, ylabel, series} (the seed's figure data) */
    figure: guarded('figure', (peak, bandwidth, xs) => module.figure(peak, bandwidth, xs)),
    /** () → the seed's defaults: m, k, n, itemsize, peak, bandwidth, traffic_factor, sizes, exercise */
    lessonDefaults: guarded('lessonDefaults', () => module.lessonDefaults()),

    // ---- kernels and measurements (measurements of this machine, never the model) ----
    /** () → [{name, isa, mr, nr, fused_tanh}] */
    kernelVariants: guarded('kernelVariants', () => module.kernelVariants()),
    /** (variant?) → {variant, max_abs_error, passed, worst_ratio, worst_index, worst_value, worst_reference, atol, rtol} */
    checkLessonKernel: guarded('checkLessonKernel', (variant) => module.checkLessonKernel(variant)),
    /**
     * (variant?, m, k, n, samples, minSampleSeconds?) → {variant, m, k, n, seconds_per_call[], median,
     * min, max, repeats, timer_resolution, warm_seconds, gflops_median}. Runs synchronously: call it in
     * a Worker on the page.
     */
    timeKernel: guarded('timeKernel', (variant, m, k, n, samples, minSampleSeconds) =>
      module.timeKernel(variant, m, k, n, samples, minSampleSeconds)),
    /** (minSeconds) → {gflops, chains, width}: f32x4 mul+add chains */
    measureCompute: guarded('measureCompute', (minSeconds) => module.measureCompute(minSeconds)),
    /** ('l1'|'l2'|'memory', minSeconds) → {level, working_set_bytes, gbs}: triad */
    measureBandwidth: guarded('measureBandwidth', (level, minSeconds) => module.measureBandwidth(level, minSeconds)),

    // ---- HLO ----
    /** (m, k, n, dtype 'f32'|'bf16'|'f16'|'f64') → StableHLO text of tanh(a @ b), as JAX prints it */
    emitWorkload: guarded('emitWorkload', (m, k, n, dtype) => module.emitWorkload(m, k, n, dtype)),
    /**
     * (text) → {dialect, modules: [{module_name, entry, ops: [Row], totals, unmodeled: [{op, count}], notes}
     * | {module_name, module_line, error, line, column}], totals, unmodeled, notes,
     * errors: [{module_name, error, line, column}]}, the file's totals summed over its modules.
     * Row: {top_level, line, column, op, shape, element_type, dims, function, flops, transcendentals,
     * bytes_accessed, unfused_bytes_accessed, operand_bytes, output_bytes, collective_bytes, intensity,
     * modeled, note?}. A parse error: {ok: false, error, line, column}. Costs are estimates from the IR
     * with XLA's counting rules (the core's report, cpp/hlo/report.h).
     */
    analyzeText: guarded('analyzeText', (text) => {
      // The value crosses as JSON text and typed arrays: much faster than objects built by Embind.
      const r = module.analyzeText(text);
      return r.ok ? expandAnalysis(r.value) : r;
    }),
    /**
     * (text) → {json, columns}: the same analysis in its compact form, rows not yet objects (a
     * Worker posts it, transferring the columns; expandAnalysis makes it what analyzeText gives).
     */
    analyzeTextColumns: guarded('analyzeTextColumns', (text) => module.analyzeText(text)),
    /** () → {size, limit}: the wasm heap's bytes now (it only grows: after a call, that call's peak) and at most */
    heapBytes: guarded('heapBytes', () => module.heapBytes()),
    /** () → [{name: 'lesson'|'mlp'|'attention', title, text}]: StableHLO examples generated by the core */
    exampleModules: guarded('exampleModules', () => module.exampleModules()),

    // ---- exercises (deterministic from a seed: the same in the CLI and on the page) ----
    /** (seed text, count 1..100, families?: string[]) → [{index, family, title, statement, ir, params, sizes, questions, solution}] */
    generateExercises: guarded('generateExercises', (seed, count, families) => {
      const r = module.generateExercises(seed, count, families);
      return r.ok ? { ok: true, value: JSON.parse(r.value) } : r;
    }),
    /** (seed, count, families?, index, questionId, answer text) → {correct, feedback} */
    checkAnswer: guarded('checkAnswer', (seed, count, families, index, questionId, answer) =>
      module.checkAnswer(seed, count, families, index, questionId, answer)),
    /**
     * (question {kind: 'number'|'choice'|'set', unit, value, exact, rel_tolerance, set?, mistakes?: [{value, feedback}],
     * hints?}, answer text) → {correct, feedback}: the generated exercises' checker, for a question built in JS.
     */
    checkQuestion: guarded('checkQuestion', (question, answer) => module.checkQuestion(question, answer)),
  };
}
