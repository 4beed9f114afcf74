// The one door to the wasm core (cpp/bindings/bindings.cpp). Everything in web/ and the Node
// CLIs reaches C++ through here.
//
// Every call returns a plain value the caller owns:
//   {ok: true, value}  or  {ok: false, error: "m must be a positive integer, got 0"}.
// The rules (positive, integer, finite, in range) live once, in C++; the bindings also refuse
// a value of the wrong JS type by name. A JS exception from the module (a bug, never bad
// input) is turned into the same {ok: false} shape, so no caller crashes on it.
//
// The shapes of every function's value are declared in web/roofline-lab.d.ts (the `Core`
// interface), which tests/js/dts.test.mjs checks against the values the core really returns.
// Big results (an analysis, the lesson's report, exercises) cross as JSON text and are parsed
// here. Calls into the module are counted (embindCalls()): the page's budget is one call per
// keystroke.

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
function* expandReportSteps(report, columns) {
  for (const [k, m] of report.modules.entries()) {
    if (!m.rows) continue;
    const { count, strings, types } = m.rows;
    const c = columns[k];
    const values = {};
    for (const name of [
      'flops',
      'transcendentals',
      'bytes_accessed',
      'unfused_bytes_accessed',
      'output_bytes',
      'collective_bytes',
    ]) {
      values[name] = jsonValues(c[name]);
      yield;
    }
    const {
      flops: flopsCol,
      transcendentals: transCol,
      bytes_accessed: bytesCol,
      unfused_bytes_accessed: unfusedCol,
    } = values;
    const { output_bytes: outputCol, collective_bytes: collectiveCol } = values;
    const start = c.operand_bytes_start;
    const lists = [];
    for (let l = 0; l + 1 < start.length; l++) {
      if (l > 0 && l % EXPAND_STEP === 0) yield;
      lists.push(Array.from(c.operand_bytes.subarray(start[l], start[l + 1]), asJson));
    }
    const { top_level: top, line, column, op, type: typeOf, function: fn, note, modeled, operand_bytes_list: list } = c;
    const ops = new Array(count);
    for (let i = 0; i < count; i++) {
      if (i > 0 && i % EXPAND_STEP === 0) yield;
      const type = types[typeOf[i]];
      const flops = flopsCol[i];
      const bytes = bytesCol[i];
      const row = {
        top_level: top[i] === 1,
        line: line[i],
        column: column[i],
        op: strings[op[i]],
        shape: type.shape,
        element_type: type.element_type,
        dims: type.dims,
        function: strings[fn[i]],
        flops,
        transcendentals: transCol[i],
        bytes_accessed: bytes,
        unfused_bytes_accessed: unfusedCol[i],
        operand_bytes: lists[list[i]],
        output_bytes: outputCol[i],
        collective_bytes: collectiveCol[i],
        intensity: intensityOf(flops, bytes),
        modeled: modeled[i] === 1,
      };
      if (note[i] >= 0) row.note = strings[note[i]];
      ops[i] = row;
    }
    delete m.rows;
    m.ops = ops;
    yield;
  }
  return report;
}

/**
 * The analysis from its compact form ({json, columns}: what core.analyzeTextColumns returns and
 * what the page's Worker posts, the columns' buffers transferred rather than copied): the same
 * value core.analyzeText gives. JavaScript's own limits (memory) give an error, never a throw.
 * @returns {CoreResult}
 */
export function expandAnalysis(compact) {
  const steps = expandAnalysisSteps(compact);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Rows made between two yields of expandAnalysisSteps. */
const EXPAND_STEP = 2000;

/**
 * expandAnalysis as steps: a generator that yields every EXPAND_STEP rows and returns the same
 * value (the page makes a big analysis's rows across tasks: web/model/steps.js).
 */
export function* expandAnalysisSteps(compact) {
  try {
    return { ok: true, value: yield* expandReportSteps(JSON.parse(compact.json), compact.columns) };
  } catch (e) {
    return {
      ok: false,
      error: `the analysis of this text does not fit in JavaScript memory: ${e && e.message ? e.message : e}`,
    };
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
 * @param {{wasmBinary?: Uint8Array}} [options]  the module's options: the wasm's bytes (the page
 *   unpacks them from its bundle, Node reads roofline-core.wasm), so the glue fetches nothing
 */
export async function loadCore(createCore, options = {}) {
  if (typeof createCore !== 'function') {
    throw new Error('the wasm core did not load: roofline-core.js must be loaded before the app');
  }
  const module = await createCore({ ...options });
  const calls = { total: 0, by: {} };
  // A trap (an access out of bounds, unreachable code) stops the instance in the middle of a
  // call: its memory holds whatever that call left, so nothing runs on it again. A Worker's host
  // then has its Worker started afresh (worker_host.js); elsewhere each later call says so.
  let trapped = null;
  /** Calls the module's function `name`, counted. */
  const call = (name, ...args) => {
    if (trapped) {
      throw new Error(`the core stopped on an internal error in an earlier call (${trapped}): start it again`);
    }
    calls.total += 1;
    calls.by[name] = (calls.by[name] ?? 0) + 1;
    try {
      return module[name](...args);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) trapped = `core.${name}: ${e.message}`;
      throw e;
    }
  };
  // Every value the core composes crosses as JSON text written by its one writer (typed arrays
  // only for bulk tensors): parsed here, so callers get plain objects.
  const parsed = (r) => (r.ok ? { ok: true, value: JSON.parse(r.value) } : r);
  // A bandwidth ceiling past the largest double (bandwidth · intensity overflowing) crosses as
  // null, JSON having no infinity: read back as the Infinity it is.
  const infinite = (key, v) => (key === 'bandwidth_ceiling' && v === null ? Infinity : v);
  const ceilingsParsed = (r) => (r.ok ? { ok: true, value: JSON.parse(r.value, infinite) } : r);
  /** A value that never changes, fetched once (and frozen: callers share it). */
  const once = (fn) => {
    let result = null;
    return () => {
      if (!result) {
        result = fn();
        if (result.ok) deepFreeze(result.value);
      }
      return result;
    };
  };
  return {
    /** (m, k, n, itemsize = 4) → Contraction */
    contract: guarded('contract', (m, k, n, itemsize) => parsed(call('contract', m, k, n, itemsize))),
    /** (aRows, aCols, bRows, bCols, itemsize = 4) → Contraction; inner dimensions must match */
    contractShapes: guarded('contractShapes', (ar, ac, br, bc, itemsize) =>
      parsed(call('contractShapes', ar, ac, br, bc, itemsize)),
    ),
    /** (peak GFLOP/s, bandwidth GB/s, intensities[]) → {ridge, rows: Ceiling[]} */
    ceilings: guarded('ceilings', (peak, bandwidth, xs) => ceilingsParsed(call('ceilings', peak, bandwidth, xs))),
    /** (peak, bandwidth, intensities[], factor) → [{original: Ceiling, revised: Ceiling, bound_changed}] */
    trafficExperiment: guarded('trafficExperiment', (peak, bandwidth, xs, factor) =>
      ceilingsParsed(call('trafficExperiment', peak, bandwidth, xs, factor)),
    ),
    /** (peak, bandwidth, intensities[]) → {kind, x, xlabel, ylabel, series} (the seed's figure data) */
    figure: guarded('figure', (peak, bandwidth, xs) => parsed(call('figure', peak, bandwidth, xs))),
    /**
     * () → the seed's defaults: m, k, n, itemsize, peak, bandwidth, traffic_factor, sizes, exercise,
     * max_budget, dtypes ({f32: 4, …}), dtype_of_itemsize ({"2": "bf16", …}). Fetched once.
     */
    lessonDefaults: guarded(
      'lessonDefaults',
      once(() => parsed(call('lessonDefaults'))),
    ),
    /**
     * (params {m, k, n, dtype, itemsize, peak, bandwidth, traffic_factor, sizes}: any left out is the
     * seed's; extras {measured?: {gflops, bandwidth_gbs: {level: GB/s}, point: {m, k, n, gflops}},
     * answers?: {questionId: text}}) → the lesson's whole report (LessonReport in roofline-lab.d.ts),
     * or {ok: false, input, error} naming the refused input. One call: the page makes it per keystroke.
     */
    lessonReport: guarded('lessonReport', (params, extras) => parsed(call('lessonReport', params ?? {}, extras ?? {}))),

    // ---- kernels and measurements (measurements of this machine, never the model) ----
    /** () → [{name, isa, mr, nr, fused_tanh, packs_b, default}]; `default` marks the one an undefined variant means */
    kernelVariants: guarded('kernelVariants', () => parsed(call('kernelVariants'))),
    /** (variant?) → {variant, max_abs_error, passed, worst_ratio, worst_index, worst_value, worst_reference, atol, rtol} */
    checkLessonKernel: guarded('checkLessonKernel', (variant) => parsed(call('checkLessonKernel', variant))),
    /**
     * (variant?, m, k, n, samples, minSampleSeconds?) → {variant, m, k, n, seconds_per_call[], median,
     * min, max, repeats, timer_resolution, warm_seconds, target_sample_seconds, recalibrations,
     * gflops_median}; repeats × every sample ≥ target_sample_seconds ≥ 100 × timer_resolution.
     * Runs synchronously: call it in a Worker on the page.
     */
    /**
     * (now: () → seconds, giveUpSeconds = 1) → {seconds}: the tick of the caller's clock by the
     * harness's rule (the median of 9 waits for it to change); a clock that does not advance within
     * giveUpSeconds of wall time is refused. The page's measurements read performance.now() this way.
     */
    timerResolution: guarded('timerResolution', (now, giveUpSeconds) => {
      if (typeof now !== 'function') return parsed(call('timerResolution', now, giveUpSeconds));
      // A JS exception must not cross the wasm frames (they would not be unwound): a clock that
      // throws reads as NaN, which the core refuses, and its error is the answer.
      let thrown = null;
      const read = () => {
        if (thrown) return NaN;
        try {
          const t = now();
          return typeof t === 'number' ? t : NaN;
        } catch (e) {
          thrown = e;
          return NaN;
        }
      };
      const r = parsed(call('timerResolution', read, giveUpSeconds));
      return thrown
        ? { ok: false, error: `the clock threw: ${thrown && thrown.message ? thrown.message : thrown}` }
        : r;
    }),
    /**
     * The harness's rules for rounds the caller times itself (fork–join over Workers):
     * (timerResolution, minSampleSeconds, samples) → a sampler; run `units` units, time the round,
     * samplerRecord(sampler, seconds) → the next sampler, until its phase is 'done' or 'failed'.
     */
    samplerStart: guarded('samplerStart', (resolution, minSampleSeconds, samples) =>
      parsed(call('samplerStart', resolution, minSampleSeconds, samples)),
    ),
    samplerRecord: guarded('samplerRecord', (sampler, seconds) =>
      parsed(call('samplerRecord', JSON.stringify(sampler), seconds)),
    ),
    timeKernel: guarded('timeKernel', (variant, m, k, n, samples, minSampleSeconds) =>
      parsed(call('timeKernel', variant, m, k, n, samples, minSampleSeconds)),
    ),
    /**
     * () → {max_abs_error, passed, worst_ratio, worst_index, worst_value, worst_reference, atol, rtol,
     * inputs, ops_seconds, ops}: the lesson's StableHLO run by the interpreter on arange inputs and
     * checked against the double reference by the kernel check's rule. Call it in a Worker on the page.
     */
    checkLessonIr: guarded('checkLessonIr', () => parsed(call('checkLessonIr'))),
    /** (count, seed) → Float32Array uniform in [−1, 1): the kernels' own seeded generator (xorshift32) */
    uniformFloats: guarded('uniformFloats', (count, seed) => call('uniformFloats', count, seed)),
    /** (variant?, k, n, b: Float32Array k·n) → Float32Array: B laid out the way the variant's compute reads it (packed once per B) */
    packB: guarded('packB', (variant, k, n, b) => call('packB', variant, k, n, b)),
    /** (variant?, m, k, n, a: Float32Array m·k, b: Float32Array k·n) → Float32Array C: one whole product on this thread */
    runKernel: guarded('runKernel', (variant, m, k, n, a, b) => call('runKernel', variant, m, k, n, a, b)),
    /**
     * ({kind: 'chains'} | {kind: 'triad', level, workers?} | {kind: 'kernel', variant?, rows, k, n, a, packed_b})
     * → {handle, kind, flops_per_unit, bytes_per_unit, working_set_bytes}: work held in this instance for
     * runWork (fork–join timing across the Worker pool); release it with releaseWork.
     */
    createWork: guarded('createWork', (spec) => parsed(call('createWork', spec))),
    /** (handle, units) → {checksum}: runs the work's units back to back, untimed */
    runWork: guarded('runWork', (handle, units) => parsed(call('runWork', handle, units))),
    /** (handle) → Float32Array: a kernel work's rows of C after its last run */
    workOutput: guarded('workOutput', (handle) => call('workOutput', handle)),
    /** (handle) → true */
    releaseWork: guarded('releaseWork', (handle) => call('releaseWork', handle)),
    /** (minSeconds) → {gflops, chains, width}: f32x4 mul+add chains */
    measureCompute: guarded('measureCompute', (minSeconds) => parsed(call('measureCompute', minSeconds))),
    /** ('l1'|'l2'|'memory', minSeconds) → {level, working_set_bytes, gbs}: triad */
    measureBandwidth: guarded('measureBandwidth', (level, minSeconds) =>
      parsed(call('measureBandwidth', level, minSeconds)),
    ),
    /**
     * (factor 1..64, {reread?: 'after-array'|'right-away', samples? 1..100, default 3}) → section 6's
     * experiment measured (TrafficMeasurement in roofline-lab.d.ts): a memory-bound and a compute-bound
     * workload reading a 64 MiB array once and `factor` times (a chunk read again after the whole
     * array, or right away), their measured time ratios beside the roofline's prediction under the
     * roofs the 1× runs show. Runs synchronously for seconds: call it in a Worker on the page.
     */
    measureTraffic: guarded('measureTraffic', (factor, options) => parsed(call('measureTraffic', factor, options))),

    // ---- HLO ----
    /** (m, k, n, dtype 'f32'|'bf16'|'f16'|'f64') → StableHLO text of tanh(a @ b), as JAX prints it */
    emitWorkload: guarded('emitWorkload', (m, k, n, dtype) => call('emitWorkload', m, k, n, dtype)),
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
      const r = call('analyzeText', text);
      return r.ok ? expandAnalysis(r.value) : r;
    }),
    /**
     * (size) → {handle, bytes}: room in the core for a text of `size` bytes, `bytes` a view of it valid
     * until the next call into the core — a file read straight into it is never a JavaScript object
     * too; tableStart({buffer: handle}) takes it over, textBufferRelease drops one not taken.
     */
    textBuffer: guarded('textBuffer', (size) => call('textBuffer', size)),
    /** (handle) → true: drops a textBuffer no tableStart took */
    textBufferRelease: guarded('textBufferRelease', (handle) => call('textBufferRelease', handle)),
    /**
     * (text: string | Uint8Array of UTF-8 — a file's bytes, no string made — | {buffer: handle}, a
     * textBuffer's, taken over) → {handle, dialect, rows,
     * errors: [{module_name, error, message, line, column}]}: the text analysed as analyzeText does,
     * kept in the core as the CLI's per-op table (cpp/hlo/table.h: rows, totals, unmodeled ops,
     * notes as lines); the lines come out through tableNext. A parse error: {ok: false, error, line, column}.
     */
    tableStart: guarded('tableStart', (text) => parsed(call('tableStart', text))),
    /**
     * (handle, bytes) → Uint8Array: the table's next whole lines of UTF-8, about `bytes` (or one line
     * more), a view of the core's memory valid until the next call into the core (write it out
     * first: nothing is copied); an empty array once all are out, which releases the table.
     */
    tableNext: guarded('tableNext', (handle, bytes) => call('tableNext', handle, bytes)),
    /** (handle) → true: releases a table whose lines are not all out */
    tableRelease: guarded('tableRelease', (handle) => call('tableRelease', handle)),
    /**
     * (text, {dot_epilogues?: boolean}) → {dialect, modules: [{module_name, entry, already_fused, text,
     * totals, fused_totals, fusions: [{name, kind, function, ops: [{line, column, op}], flops,
     * transcendentals, bytes_accessed, unfused_bytes_accessed, bytes_saved}]} | {module_name, error, …}],
     * totals, fused_totals, errors}: the fusion pass (cpp/hlo/fuse.h) and the fused module as XLA prints
     * HLO; totals {flops, transcendentals, bytes_accessed} unfused and fused. A parse error: {ok: false, …}.
     */
    fuseText: guarded('fuseText', (text, options) => parsed(call('fuseText', text, options ?? {}))),
    /**
     * (source, {entry?}) → {ok: true, text, function, kept_args}: JAX-style Python lowered to the
     * StableHLO `jax.jit(f).lower(...).as_text()` prints (cpp/python); kept_args: the indices of the
     * function's arguments @main takes (jit leaves out those nothing reads); or {ok: false,
     * error: 'LINE:COL: message', line, column, message}.
     */
    lower: guarded('lower', (source, options) => {
      const r = parsed(call('lower', source, options ?? null));
      return r.ok ? { ok: true, text: r.value.text, function: r.value.function, kept_args: r.value.kept_args } : r;
    }),
    /**
     * (source, {filename?, maxSteps?}) → {ok: true, stdout, error, errorType, line}: a Python
     * notebook run with Python's, NumPy's and JAX's semantics on host values (cpp/python/notebook.h);
     * error is Python's traceback of the uncaught exception ('' when the program ran to the end).
     * time.perf_counter() reads the page's clock. Runs synchronously: call it in a Worker on the page.
     */
    notebook: guarded('notebook', (source, options) => {
      const r = parsed(call('notebook', source, options ?? null));
      return r.ok ? { ok: true, ...r.value } : r;
    }),
    /** ({maxSteps?}) → {handle}: a notebook kernel in this wasm instance (cpp/python/notebook.h NotebookSession); each cell has its own step budget. */
    notebookSession: guarded('notebookSession', (options) => parsed(call('notebookSession', options ?? null))),
    /**
     * (handle, source, cell) → {stdout, display, error, errorType, exception, line, column, file, sourceLine, cellsRun}:
     * one cell run in the kernel's globals; tracebacks name it "<cell N>" (N = cell). line is in
     * file (the cell a function came from), sourceLine in this cell. Synchronous: call it in a Worker.
     */
    notebookRunCell: guarded('notebookRunCell', (handle, source, cell) =>
      parsed(call('notebookRunCell', handle, source, cell)),
    ),
    /** handle → true: the kernel forgets every variable, function and import. */
    notebookReset: guarded('notebookReset', (handle) => call('notebookReset', handle)),
    /** handle → true: the kernel is freed. */
    notebookRelease: guarded('notebookRelease', (handle) => call('notebookRelease', handle)),
    /** source → [{source, firstLine}]: a notebook's cells (blank-line-separated top-level blocks, or # %% markers). */
    notebookCells: guarded('notebookCells', (source) => parsed(call('notebookCells', source))),
    /**
     * (text, {inputs?: 'none'|'seeded'|'arange', args?: [{name, bytes: Uint8Array}] (.npy files), seed?,
     * time_ops?, memory_cap?, max_iterations?, time_budget_seconds?, timing_budget_seconds?}) → the run report (cpp/report/run_report.h): {dialect, status, checks, ops, unsupported,
     * errors, results, inputs, seconds, ops_seconds, untimed_ops, peak_bytes}. Runs synchronously: call it in a Worker on the page.
     */
    runText: guarded('runText', (text, options) => parsed(call('runText', text, options))),
    /**
     * (text, options as runText's, plus args?: [{name, bytes: Uint8Array}] — .npy files, one per
     * argument, checked against the entry's signature) → {report (runText's), files: [{name:
     * 'result_N.npy', bytes: Uint8Array} | {name, error}]}: the results as NumPy's .npy files.
     */
    runTextNpy: guarded('runTextNpy', (text, options) => {
      const r = call('runTextNpy', text, options);
      return r.ok ? { ok: true, value: { report: JSON.parse(r.value.report), files: r.value.files } } : r;
    }),
    /**
     * ({roofs: [{peak GFLOP/s, bandwidth GB/s, interconnect GB/s | null}], flops: number[] | Float64Array,
     * bytes: …, totals: {flops, bytes_accessed, collective_bytes}, range: [xmin, xmax]}) →
     * {roofs: [{ridge, curve: [{x, y}], time}], ops: {bounds, ceilings}, program, measured,
     * measured_ops?}: each roof's ridge, curve and lower bound on the program's time; under the first
     * roof each op's bound and ceiling, and with measured times (request.seconds per op, NaN: none;
     * request.measured_seconds) what they achieved (gflops, gbs, of_roof = bound / measured).
     */
    roofline: guarded('roofline', (request) => {
      const r = call('roofline', request);
      if (!r.ok) return r;
      // The per-op columns cross as typed arrays (codes into bound_names; NaN: no ceiling).
      const { roofs, program, measured, bound_names: names } = JSON.parse(r.value.json);
      const { bounds, ceilings } = r.value;
      const plain = (column) => Array.from(column, (y) => (Number.isNaN(y) ? null : y));
      const value = {
        roofs,
        ops: { bounds: Array.from(bounds, (code) => (code === 0 ? null : names[code - 1])), ceilings: plain(ceilings) },
        program,
        measured,
      };
      if (r.value.gflops)
        value.measured_ops = {
          gflops: plain(r.value.gflops),
          gbs: plain(r.value.gbs),
          of_roof: plain(r.value.of_roof),
        };
      return { ok: true, value };
    }),
    /**
     * (text) → {json, columns}: the same analysis in its compact form, rows not yet objects (a
     * Worker posts it, transferring the columns; expandAnalysis makes it what analyzeText gives).
     */
    analyzeTextColumns: guarded('analyzeTextColumns', (text) => call('analyzeText', text)),
    /** () → {size, limit}: the wasm heap's bytes now (it only grows: after a call, that call's peak) and at most */
    heapBytes: guarded('heapBytes', () => parsed(call('heapBytes'))),
    /** () → [{name: 'lesson'|'mlp'|'attention', title, text}]: StableHLO examples generated by the core */
    exampleModules: guarded('exampleModules', () => parsed(call('exampleModules'))),

    // ---- exercises (deterministic from a seed: the same in the CLI and on the page) ----
    /** (seed text, count 1..100, families?: string[]) → [{index, family, title, statement, ir, params, sizes, questions, solution}] */
    generateExercises: guarded('generateExercises', (seed, count, families) =>
      parsed(call('generateExercises', seed, count, families)),
    ),
    /** () → [{id, label}]: the families in turn order, the one list (fetched once) */
    exerciseFamilies: guarded(
      'exerciseFamilies',
      once(() => parsed(call('exerciseFamilies'))),
    ),
    /** (seed, count, families?, index, questionId, answer text) → {correct, feedback} */
    checkAnswer: guarded('checkAnswer', (seed, count, families, index, questionId, answer) =>
      parsed(call('checkAnswer', seed, count, families, index, questionId, answer)),
    ),
    /**
     * (question {kind: 'number'|'choice'|'set', unit, value, exact, rel_tolerance, choices?, set?,
     * mistakes?: [{value, feedback}], hints?}, answer text) → {correct, feedback}: the generated exercises'
     * checker, for a question built elsewhere (a teacher's page; the page itself asks lessonReport).
     */
    checkQuestion: guarded('checkQuestion', (question, answer) => parsed(call('checkQuestion', question, answer))),

    /**
     * (files [{name, text, size?}], set? {seed, count, families?}) → the class table (GradebookTable):
     * every answer in the students' result files regraded by the core; files it cannot grade are
     * listed with their reasons. One call however many files (the page's gradebook makes it per drop).
     */
    gradebook: guarded('gradebook', (files, set) => parsed(call('gradebook', files, set))),
    /** (seed, count, families?) → the set as Moodle XML text (cpp/exercises/moodle.h) */
    moodleXml: guarded('moodleXml', (seed, count, families) => call('moodleXml', seed, count, families)),

    /** Calls made into the module so far: {total, by: {name: count}} (a copy). */
    embindCalls: () => ({ total: calls.total, by: { ...calls.by } }),
    /** null, or the call whose trap stopped this instance ("core.runTextNpy: memory access out of bounds") */
    trapped: () => trapped,
  };
}

function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
