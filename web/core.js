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
    /** () → [{name, isa, mr, nr, fused_tanh, packs_b, default}]; `default` marks the one an undefined variant means */
    kernelVariants: guarded('kernelVariants', () => module.kernelVariants()),
    /** (variant?) → {variant, max_abs_error, passed, worst_ratio, worst_index, worst_value, worst_reference, atol, rtol} */
    checkLessonKernel: guarded('checkLessonKernel', (variant) => module.checkLessonKernel(variant)),
    /**
     * (variant?, m, k, n, samples, minSampleSeconds?) → {variant, m, k, n, seconds_per_call[], median,
     * min, max, repeats, timer_resolution, warm_seconds, target_sample_seconds, recalibrations,
     * gflops_median}; repeats × every sample ≥ target_sample_seconds ≥ 100 × timer_resolution.
     * Runs synchronously: call it in a Worker on the page.
     */
    timeKernel: guarded('timeKernel', (variant, m, k, n, samples, minSampleSeconds) =>
      module.timeKernel(variant, m, k, n, samples, minSampleSeconds)),
    /** (count, seed) → Float32Array uniform in [−1, 1): the kernels' own seeded generator (xorshift32) */
    uniformFloats: guarded('uniformFloats', (count, seed) => module.uniformFloats(count, seed)),
    /** (variant?, k, n, b: Float32Array k·n) → Float32Array: B laid out the way the variant's compute reads it (packed once per B) */
    packB: guarded('packB', (variant, k, n, b) => module.packB(variant, k, n, b)),
    /** (variant?, m, k, n, a: Float32Array m·k, b: Float32Array k·n) → Float32Array C: one whole product on this thread */
    runKernel: guarded('runKernel', (variant, m, k, n, a, b) => module.runKernel(variant, m, k, n, a, b)),
    /**
     * ({kind: 'chains'} | {kind: 'triad', level, workers?} | {kind: 'kernel', variant?, rows, k, n, a, packed_b})
     * → {handle, kind, flops_per_unit, bytes_per_unit, working_set_bytes}: work held in this instance for
     * runWork (fork–join timing across the Worker pool); release it with releaseWork.
     */
    createWork: guarded('createWork', (spec) => module.createWork(spec)),
    /** (handle, units) → {checksum}: runs the work's units back to back, untimed */
    runWork: guarded('runWork', (handle, units) => module.runWork(handle, units)),
    /** (handle) → Float32Array: a kernel work's rows of C after its last run */
    workOutput: guarded('workOutput', (handle) => module.workOutput(handle)),
    /** (handle) → true */
    releaseWork: guarded('releaseWork', (handle) => module.releaseWork(handle)),
    /** (minSeconds) → {gflops, chains, width}: f32x4 mul+add chains */
    measureCompute: guarded('measureCompute', (minSeconds) => module.measureCompute(minSeconds)),
    /** ('l1'|'l2'|'memory', minSeconds) → {level, working_set_bytes, gbs}: triad */
    measureBandwidth: guarded('measureBandwidth', (level, minSeconds) => module.measureBandwidth(level, minSeconds)),

    // ---- HLO ----
    /** (m, k, n, dtype 'f32'|'bf16'|'f16'|'f64') → StableHLO text of tanh(a @ b), as JAX prints it */
    emitWorkload: guarded('emitWorkload', (m, k, n, dtype) => module.emitWorkload(m, k, n, dtype)),
    /**
     * (text) → {dialect, modules: [{module_name, entry, ops: [{line, column, op, shape, function, flops,
     * transcendentals, bytes_accessed, operand_bytes, output_bytes, collective_bytes, intensity, modeled,
     * note?}], totals: {flops, transcendentals, bytes_accessed, bytes_accessed_operand: {"0": …},
     * bytes_accessed_output, collective_bytes, minimum_traffic_bytes, intensity}, unmodeled: [{op, count}],
     * notes} | {module_name, line, error}]}. Costs are estimates from the IR with XLA's counting rules.
     */
    analyzeText: guarded('analyzeText', (text) => {
      const r = module.analyzeText(text);  // the value crosses as JSON text: much faster than objects
      return r.ok ? { ok: true, value: JSON.parse(r.value) } : r;
    }),
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
