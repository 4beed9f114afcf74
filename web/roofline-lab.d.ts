// The JS surface of Roofline Lab, typed: the core (what web/core.js's loadCore resolves to, the
// one door to the wasm module of cpp/bindings/bindings.cpp) and window.rooflineLab (web/main.js).
// Declarations only: the code stays plain JS. tests/js/dts.test.mjs (the core, in Node) and
// tests/browser/surface.test.mjs (the page) check every declared value against the objects the
// code really returns, and that nothing is returned that is not declared here.
//
// The checker reads a subset of TypeScript (tests/lib/dts.mjs): interfaces (with extends), type
// aliases (one generic parameter at most), unions, literal types, arrays, tuples, object types,
// Record<string, T>, Promise<T>, Partial<T>, Float32Array and Float64Array. Keep to it.
//
// Units are written next to the numbers: GFLOP/s and GB/s for budgets (the model's), FLOP/s and
// B/s for the analyze view's roofs (as vendors state them), flops per byte for intensities.

// ---- results -----------------------------------------------------------------------------------

/** A refusal: the input, the rule and the value ("m must be a positive integer, got 0"). */
export interface CoreFailure {
  ok: false;
  /** the whole message; for a text, it starts with its place: "3:5: error: …" */
  error: string;
  /** which input is refused ("m", "sizes", "peak", "traffic_factor", "dtype", …), where one is */
  input?: string;
  /** lessonReport: every refused input, each judged by its own rule ({input, error} of the first is `input` and `error`) */
  errors?: { input: string; error: string }[];
  /** for an error in a text: its 1-based place, and the message without the place */
  line?: number;
  column?: number;
  message?: string;
}
/**
 * A lowering: the module's text, the lowered function's name and the indices of its arguments
 * @main takes (jit leaves out those nothing reads), or the error with its place.
 */
export type LowerResult =
  | { ok: true; text: string; function: string; kept_args: number[] }
  | { ok: false; error: string; line?: number; column?: number; message?: string };

/** A notebook run: what the program printed and Python's traceback of its uncaught exception ('' when none). */
export interface NotebookRun {
  stdout: string;
  /** Python's traceback ('Traceback (most recent call last): …'), '' when the program ran to its end */
  error: string;
  /** the exception's type ('ValueError', 'SyntaxError', …), '' when none */
  errorType: string;
  /** the failing line, 0 when none */
  line: number;
}
export type NotebookResult =
  | { ok: true; stdout: string; error: string; errorType: string; line: number }
  | CoreFailure;

/** One cell run in a notebook kernel (core.notebookRunCell). */
export interface NotebookCellRun {
  stdout: string;
  /** the repr of the cell's last expression, as Jupyter shows it (Out[n]); '' when it is not an
   *  expression, is None, raised, or a ';' ends the cell */
  display: string;
  /** Python's traceback, its frames naming "<cell N>", '' when the cell ran to its end */
  error: string;
  errorType: string;
  /** the traceback's last line ('ZeroDivisionError: …'), '' when none */
  exception: string;
  /** the failing line in `file`, 0 when none */
  line: number;
  /** a SyntaxError's column (1-based), else 0 */
  column: number;
  /** the cell the failing line is in ("<cell 2>"), '' when none */
  file: string;
  /** the line of this cell where the error surfaced, 0 when none */
  sourceLine: number;
  /** cells run in the kernel since it started or was reset */
  cellsRun: number;
}

/** A notebook's cell as core.notebookCells splits it: its text and the line of the source it begins on. */
export interface NotebookCell {
  source: string;
  firstLine: number;
}

export type CoreResult<T> = { ok: true; value: T } | CoreFailure;

export type Bound = 'memory-bound' | 'compute-bound' | 'balanced';

// ---- the model -----------------------------------------------------------------------------------

/** One matmul (m×k)·(k×n). Counts are exact in C++ (128-bit); `flops` is exact up to 2^53, `flops_exact` always. */
export interface Contraction {
  m: number;
  k: number;
  n: number;
  itemsize: number;
  flops: number;
  flops_exact: string;
  minimum_bytes: number;
  minimum_bytes_exact: string;
  /** flops / minimum_bytes, flops per byte */
  intensity: number;
  /** the same, reduced: "16/7" */
  intensity_fraction: string;
}

/** The roofline at one intensity under budgets (GFLOP/s, GB/s). */
export interface Ceiling {
  intensity: number;
  /** bandwidth · intensity, GFLOP/s */
  bandwidth_ceiling: number;
  /** min(peak, bandwidth · intensity), GFLOP/s */
  ceiling: number;
  bound: Bound;
}

export interface Ceilings {
  /** peak / bandwidth, flops per byte */
  ridge: number;
  rows: Ceiling[];
}

export interface TrafficRow {
  original: Ceiling;
  /** at intensity / factor */
  revised: Ceiling;
  bound_changed: boolean;
}

/** The seed's figure data: {kind, x, xlabel, ylabel, series}. */
export interface FigureData {
  kind: string;
  x: number[];
  xlabel: string;
  ylabel: string;
  series: { label: string; y: number[] }[];
}

export interface LessonDefaults {
  m: number;
  k: number;
  n: number;
  itemsize: number;
  /** GFLOP/s, hypothetical */
  peak: number;
  /** GB/s, hypothetical */
  bandwidth: number;
  traffic_factor: number;
  sizes: number[];
  exercise: { a: number[]; b: number[] };
  /** the largest budget accepted, GFLOP/s or GB/s */
  max_budget: number;
  /** the element types the lesson emits, with their itemsize: {f32: 4, bf16: 2, f16: 2, f64: 8} */
  dtypes: Record<string, number>;
  /** the usual element type of an itemsize: {"2": "bf16", "4": "f32", "8": "f64"} */
  dtype_of_itemsize: Record<string, string>;
}

// ---- the lesson's report (core.lessonReport) --------------------------------------------------------

/** The inputs; any left out takes the seed's value. */
export interface LessonParams {
  m?: number;
  k?: number;
  n?: number;
  /** 'f32' | 'bf16' | 'f16' | 'f64'; '' or null: follow the itemsize */
  dtype?: string | null;
  itemsize?: number;
  peak?: number;
  bandwidth?: number;
  traffic_factor?: number;
  sizes?: number[];
}

export interface LessonExtras {
  /**
   * this machine's measurements, for the figure's measured roofs and points: the ceilings and the
   * headline kernel point on 1 core; with all cores measured, the ceilings on each other core
   * count and every kernel timing (web/model/measure.js measuredForReport)
   */
  measured?: {
    gflops: number;
    bandwidth_gbs: Record<string, number>;
    point: { m: number; k: number; n: number; gflops: number };
    other_cores?: { cores: number; gflops: number; bandwidth_gbs: Record<string, number> }[];
    kernels?: { m: number; k: number; n: number; cores: number; gflops: number }[];
  };
  /** section 7's answers as typed, by question id; blank ones are not checked */
  answers?: Record<string, string>;
}

export interface StableHLO {
  dtype: string;
  /** as JAX prints it: jax.jit(workload).lower(a, b).as_text() */
  text: string;
  ops_present: string[];
  contract: {
    dot_general: boolean;
    tanh: boolean;
    lhs: number[];
    rhs: number[];
    result: number[];
    contracting: string;
    result_type: string | null;
    verified: boolean;
  };
}

/** The core's estimate before web/model/lesson.js puts its label first. */
export interface CoreCostEstimate {
  flops: number;
  transcendentals: number;
  bytes_accessed: number;
  bytes_accessed_operand: Record<string, number>;
  bytes_accessed_output: number;
  minimum_traffic_bytes: number;
  per_op: { line: number; op: string; flops: number; transcendentals: number; bytes_accessed: number }[];
}

/** Estimates from the IR with XLA's counting rules, not measurements: the core's, labelled. */
export interface CostEstimate extends CoreCostEstimate {
  label: string;
}

/** The kernel tanh(A·B) on the seed's inputs against the double reference, |x − y| ≤ atol + rtol·|y|. */
export interface KernelCheck {
  variant: string;
  max_abs_error: number;
  passed: boolean;
  worst_ratio: number;
  worst_index: number;
  worst_value: number;
  worst_reference: number;
  atol: number;
  rtol: number;
}

/** The lesson's StableHLO run by the interpreter and checked like the kernel (core.checkLessonIr). */
export interface IrCheck {
  max_abs_error: number;
  passed: boolean;
  worst_ratio: number;
  worst_index: number;
  worst_value: number;
  worst_reference: number;
  atol: number;
  rtol: number;
  /** the module run: the seed's lesson at m × k · k × n, whatever sizes the page shows */
  m: number;
  k: number;
  n: number;
  /** its element type: 'f32' */
  dtype: string;
  /** how the arguments were made: 'arange' */
  inputs: string;
  /** the IR's ops, each timed, summed: seconds per run of the program (a measurement) */
  ops_seconds: number;
  /** how many ops were timed */
  ops: number;
}

/** Section 2's two checks side by side, run in a Worker at start (rooflineLab.lessonChecks()). */
export interface LessonChecks {
  ir: IrCheck;
  /** the hand-written kernel's median seconds per call of tanh(a@b) at 32×16×8 (core.timeKernel; a measurement) */
  kernel_seconds: number;
  kernel_variant: string;
}

export interface Question {
  id: string;
  prompt: string;
  kind: 'number' | 'choice' | 'set';
  /** 'flops', 'bytes', 'flops/byte', 'GFLOP/s' or '' */
  unit: string;
  value: number;
  /** the answer as text: "27648", "24/7", "memory-bound", "32, 64" */
  exact: string;
  /** 0: exact */
  rel_tolerance: number;
  choices: string[];
  hints: string[];
}

export interface LessonExercise {
  a: number[];
  b: number[];
  itemsize: number;
  work: number;
  traffic: number;
  ratio: number;
  ratio_fraction: string;
  bandwidth_times_ratio_gflops: number;
  ceiling_gflops: number;
  bound: Bound;
  questions: Question[];
}

export interface TrafficExperimentRow {
  n: number;
  intensity: number;
  fraction: string;
  ceiling: number;
  bound: Bound;
  revised_intensity: number;
  revised_ceiling: number;
  revised_bound: Bound;
  bound_changed: boolean;
}

/** The lesson's report: what `node scripts/lesson.mjs --json --no-measure` prints and rooflineLab.report() gives. */
export interface LessonReport {
  stablehlo: StableHLO | null;
  stablehlo_ops: string[] | null;
  stablehlo_unavailable: string | null;
  cost_estimate: CostEstimate | null;
  kernel_check: KernelCheck;
  /** filled by whoever measures (the CLI), never by the model */
  local_samples_seconds: number[] | null;
  matmul_accounting: {
    m: number;
    k: number;
    n: number;
    itemsize: number;
    flops: number;
    minimum_bytes: number;
    flops_per_byte: number;
    flops_exact: string;
    minimum_bytes_exact: string;
    flops_per_byte_fraction: string;
  };
  sizes: number[];
  intensity: number[];
  intensity_fraction: string[];
  hypothetical_ceilings_gflops: number[];
  bounds: Bound[];
  traffic_factor: number;
  doubled_traffic_ceilings_gflops: number[];
  traffic_bound_changed_sizes: number[];
  ridge: number;
  figure: FigureData;
  exercise: LessonExercise;
  budgets: { peak: number; bandwidth: number; hypothetical: boolean; units: { peak: string; bandwidth: string } };
  traffic_experiment: TrafficExperimentRow[];
  /** the roof with traffic_factor times the traffic: its corner and its curve over the figure's axis */
  revised_roof: { factor: number; ridge: number; curve: Point[] };
}

export interface Point {
  x: number;
  y: number;
}

export interface MeasuredRoof {
  level: string;
  gflops: number;
  gbs: number;
  ridge: number;
  points: Point[];
}

/** A measured kernel: model intensity at itemsize 4, measured GFLOP/s, on `cores` Workers at once. */
export interface MeasuredPoint {
  x: number;
  y: number;
  m: number;
  k: number;
  n: number;
  cores: number;
}

export interface MeasuredRoofline {
  /** on 1 core */
  roofs: MeasuredRoof[];
  /** the headline measured kernel (256³ on 1 core) */
  point: MeasuredPoint;
  /** per core count, ascending (1 core first): its roofs (none when only kernels ran on it) and kernel points */
  layers: { cores: number; roofs: MeasuredRoof[]; points: MeasuredPoint[] }[];
}

export interface Verdict {
  correct: boolean;
  feedback: string;
}

/** What core.lessonReport returns: the report with the measured roofline and the verdicts in it. */
export interface CoreLessonReport {
  stablehlo: StableHLO | null;
  stablehlo_ops: string[] | null;
  stablehlo_unavailable: string | null;
  cost_estimate: CoreCostEstimate | null;
  kernel_check: KernelCheck;
  local_samples_seconds: null;
  matmul_accounting: LessonReport['matmul_accounting'];
  sizes: number[];
  intensity: number[];
  intensity_fraction: string[];
  hypothetical_ceilings_gflops: number[];
  bounds: Bound[];
  traffic_factor: number;
  doubled_traffic_ceilings_gflops: number[];
  traffic_bound_changed_sizes: number[];
  ridge: number;
  figure: FigureData;
  exercise: CoreLessonExercise;
  budgets: LessonReport['budgets'];
  traffic_experiment: TrafficExperimentRow[];
  revised_roof: LessonReport['revised_roof'];
  measured_roofline: MeasuredRoofline | null;
}

export interface CoreLessonExercise extends LessonExercise {
  /** the checker's verdicts on the answers given, by question id */
  check: Record<string, Verdict>;
}

// ---- kernels and measurements ----------------------------------------------------------------------

export interface KernelVariant {
  name: string;
  isa: string;
  mr: number;
  nr: number;
  fused_tanh: boolean;
  /** whether its compute reads B packed (packB) rather than as given */
  packs_b: boolean;
  /** the variant an undefined variant means */
  default: boolean;
}

/** The harness's timing of a call (cpp/measure/harness.h): measurements of this machine, never the model. */
export interface HarnessTiming {
  seconds_per_call: number[];
  median: number;
  min: number;
  max: number;
  repeats: number;
  timer_resolution: number;
  warm_seconds: number;
  /** max(100 × timer_resolution, minSampleSeconds): repeats × every sample lasts at least this */
  target_sample_seconds: number;
  /** times a short sample made the harness raise the repeats and take every sample again */
  recalibrations: number;
}

/** One workload of section 6's measured experiment at 1× or at the factor (core.measureTraffic). */
export interface TrafficRun extends HarnessTiming {
  /** times the array was read in one call: 1, or the factor as met */
  reads: number;
  /** exact counts of one call: 2 flops per multiply-add step, 4 bytes per element read */
  flops: number;
  bytes: number;
  /** flops and bytes over the median time (measurements) */
  gflops: number;
  gbs: number;
}

export interface TrafficWorkload {
  name: 'memory-bound' | 'compute-bound';
  /** multiply-add steps per element: per read (memory-bound) or in all its reads (compute-bound) */
  steps: number;
  once: TrafficRun;
  factor: TrafficRun;
  /** factor.median / once.median (a measurement) */
  measured_ratio: number;
  /** the roofline's prediction for these counts under the roofs the 1× runs show (the model) */
  predicted: {
    intensity: number;
    factor_intensity: number;
    bound: string;
    factor_bound: string;
    seconds: number;
    factor_seconds: number;
    time_ratio: number;
  };
  /** measured_ratio / predicted.time_ratio */
  agreement: number;
  verdict: 'agrees' | 'faster than predicted' | 'slower than predicted';
}

/** Section 6's experiment measured on this machine (core.measureTraffic). */
export interface TrafficMeasurement {
  factor_asked: number;
  /** the factor as met: chunk reads over chunks (exact to 1/4096 of the array) */
  factor: number;
  reread: 'after-array' | 'right-away';
  reread_name: string;
  elements: number;
  array_bytes: number;
  /** this machine's roofs as the 1× runs show them (measurements): GFLOP/s, GB/s, flops per byte */
  roofs: { peak_gflops: number; bandwidth_gbs: number; ridge: number };
  /** a measured ratio within this share of the predicted one agrees */
  agreement_tolerance: number;
  compute_bound_steps: number;
  workloads: TrafficWorkload[];
}

/** Measurements of this machine: seconds per call, never the model. */
export interface KernelTiming extends HarnessTiming {
  variant: string;
  m: number;
  k: number;
  n: number;
  gflops_median: number;
}

export interface ComputeCeiling {
  gflops: number;
  chains: number;
  width: number;
}

export interface BandwidthCeiling {
  level: string;
  working_set_bytes: number;
  gbs: number;
}

/** Work held in a wasm instance under a handle (createWork), for fork–join timing on the Worker pool. */
export interface Work {
  handle: number;
  kind: 'chains' | 'triad' | 'kernel';
  /** chains: 2 per lane per step; kernel: 2·rows·k·n (tanh not counted) */
  flops_per_unit: number;
  /** triad: 2 reads + 1 write per element; kernel: the model's minimum traffic */
  bytes_per_unit: number;
  working_set_bytes: number;
}

export type WorkSpec =
  | { kind: 'chains' }
  | { kind: 'triad'; level: string; workers?: number }
  | { kind: 'kernel'; variant?: string; rows: number; k: number; n: number; a: Float32Array; packed_b: Float32Array };

// ---- HLO ---------------------------------------------------------------------------------------------

export interface OpCost {
  /** one of the entry's own ops, which the totals add up */
  top_level: boolean;
  line: number;
  column: number;
  op: string;
  shape: string;
  /** of the (first) result: "f32", "bf16", … ; null when it is no array (a token, an empty tuple) */
  element_type: string | null;
  /** of the (first) result; null when it is no array */
  dims: number[] | null;
  function: string;
  flops: number;
  transcendentals: number;
  bytes_accessed: number;
  unfused_bytes_accessed: number;
  operand_bytes: number[];
  output_bytes: number;
  collective_bytes: number;
  /** flops / bytes_accessed; null when no bytes are accessed */
  intensity: number | null;
  modeled: boolean;
  note?: string;
}

export interface ModuleTotals {
  flops: number;
  transcendentals: number;
  bytes_accessed: number;
  unfused_bytes_accessed: number;
  bytes_accessed_operand: Record<string, number>;
  bytes_accessed_output: number;
  collective_bytes: number;
  minimum_traffic_bytes: number;
  intensity: number | null;
}

export interface ModuleAnalysis {
  module_name: string;
  entry: string;
  ops: OpCost[];
  totals: ModuleTotals;
  unmodeled: { op: string; count: number }[];
  notes: string[];
}

/** A module that failed to verify: the others are still analysed. */
export interface ModuleError {
  module_name: string;
  /** where the module starts */
  module_line: number;
  /** "LINE:COL: error: …" */
  error: string;
  /** the error without its place */
  message: string;
  line: number;
  column: number;
}

export interface TextAnalysis {
  dialect: string;
  modules: (ModuleAnalysis | ModuleError)[];
  /** the file: its modules summed (estimates from the IR) */
  totals: ModuleTotals;
  unmodeled: { op: string; count: number }[];
  notes: string[];
  errors: { module_name: string; error: string; message: string; line: number; column: number }[];
}

// ---- the fusion pass (cpp/hlo/fuse.h; cpp/hlo/report.h fused_json) ------------------------------------

export interface FuseOptions {
  /** true (default): a dot or convolution takes its elementwise epilogue into an output fusion; false: XLA CPU's rule only */
  dot_epilogues?: boolean;
}

/** the entry's counts, unfused (every op alone) or fused (each fusion at its boundary); a file's summed */
export interface FusedTotals {
  flops: number;
  transcendentals: number;
  bytes_accessed: number;
}

export interface FusionInfo {
  /** "fusion.0"; a module's own fusion keeps its name */
  name: string;
  /** "kLoop" | "kInput" | "kOutput" (or what a module's own fusion says) */
  kind: string;
  /** the function holding it */
  function: string;
  /** its ops in program order, the root last */
  ops: { line: number; column: number; op: string }[];
  flops: number;
  transcendentals: number;
  /** at its boundary: parameters read, output written */
  bytes_accessed: number;
  /** its ops' own bytes summed */
  unfused_bytes_accessed: number;
  bytes_saved: number;
}

export interface FusedModuleAnalysis {
  module_name: string;
  entry: string;
  /** the module had fusions of its own (optimized HLO): reported as they are, none added */
  already_fused: boolean;
  /** call sites replaced by their callee's ops before fusing (XLA's CallInliner) */
  calls_inlined: number;
  /** calls left as calls: a cycle, a callee of several blocks, an HLO callee whose ROOT is a parameter or whose layouts differ, past the size budget or the nesting limit (cpp/hlo/inline.h) */
  calls_kept: number;
  /** the fused module as XLA prints HLO */
  text: string;
  totals: FusedTotals;
  fused_totals: FusedTotals;
  fusions: FusionInfo[];
}

export interface FusedAnalysis {
  dialect: string;
  modules: (FusedModuleAnalysis | ModuleError)[];
  totals: FusedTotals;
  fused_totals: FusedTotals;
  errors: { module_name: string; error: string; message: string; line: number; column: number }[];
}

// ---- the interpreter ---------------------------------------------------------------------------------

export interface RunOptions {
  /** how arguments of an entry function with arguments are made; 'none' refuses to run it */
  inputs?: 'none' | 'seeded' | 'arange';
  /** NumPy .npy files, one per argument of the entry, each of its argument's type and shape exactly (not with inputs) */
  args?: { name: string; bytes: Uint8Array }[];
  seed?: number;
  /** measure each of the entry's own ops (repeated until it lasts 100 timer ticks) */
  time_ops?: boolean;
  /** run as XLA would compile it: each fusion (analyze --fused) as one unit (default true); false: op by op */
  fuse?: boolean;
  /** with fuse: a dot's elementwise epilogue joins its fusion, as XLA's GPU backend fuses it (default true); false: only as XLA's CPU backend fuses it (an add into a matrix-vector dot) */
  dot_epilogues?: boolean;
  /** bytes of live tensors (default: what the wasm heap can still give, at least 256 MiB) */
  memory_cap?: number;
  /** of one while loop (default 10^7) */
  max_iterations?: number;
  time_budget_seconds?: number;
  /** with time_ops: once this many seconds went to timing, later ops run untimed (0, the default: no limit) */
  timing_budget_seconds?: number;
  /** told the entry's own ops run so far, of all (at the start, at most every 0.1 s, at the end) */
  on_progress?: (done: number, total: number) => void;
}

/** one result of the entry: its shape, the sum of its elements, the first few as text */
export interface RunResultSummary {
  shape: string;
  /** a tuple's: the sum of its elements' checksums; 'nan', 'inf' or '-inf' when not finite (JSON
   *  has no such numbers) */
  checksum: number | 'nan' | 'inf' | '-inf';
  /** a tuple's: "tuple of 2: see elements" */
  preview: string;
  /** FNV-1a (64-bit) of the result's bytes as XLA stores them, 16 hex digits (a tuple's: of its elements' in order): equal bits, equal hash */
  bits: string;
  /** a tuple's elements, one summary each (nested tuples likewise, 4 levels deep); absent for a tensor */
  elements?: RunResultSummary[];
}

export interface RunReport {
  dialect: string;
  status: 'passed' | 'failed' | 'not_run' | 'error';
  checks: { line: number; column: number; kind: string; passed: boolean; detail: string }[];
  /** measurements of this machine, beside the cost analysis's estimates for the same op */
  /** view: run as a view of its operand (a reshape of the same buffer): none of its counted bytes moved */
  ops: { line: number; column: number; op: string; seconds: number; repeats: number; flops: number; transcendentals: number; bytes_accessed: number; view: boolean }[];
  /** the run fused (RunOptions.fuse) */
  fused: boolean;
  /** its fusion rule (RunOptions.dot_epilogues): false, a dot's epilogue fused only as XLA's CPU backend fuses it */
  dot_epilogues: boolean;
  /** a fused run: its fusions, each timed as one unit (0 seconds and repeats: untimed), with XLA's counts for one execution of it; a body's fusions once each, untimed, with `within` */
  fusions: RunFusion[];
  unsupported: { op: string; line: number; column: number; why: string }[];
  errors: { error: string; message: string; line: number; column: number }[];
  results: RunResultSummary[];
  inputs: string;
  /** the whole run, wall clock (with the timing's repeats) */
  seconds: number;
  /** the timed ops' and fusions' per-execution times summed: the program's measured time (0: nothing timed) */
  ops_seconds: number;
  /** entry ops run untimed once timing_budget_seconds was spent */
  untimed_ops: number;
  peak_bytes: number;
  /** what the program needs at most by its IR's liveness (bytes of live tensors): an estimate, known before it runs */
  memory_need_bytes: number;
}

/** One fusion of a fused run (hlo/fuse.h's grouping, run by interp/fused.h). */
export interface RunFusion {
  /** "fusion.0", as analyze --fused names it */
  name: string;
  kind: 'kLoop' | 'kInput' | 'kOutput';
  /** its root op's place */
  line: number;
  column: number;
  /** the ops it holds, in program order, the root last */
  ops: { line: number; column: number; op: string }[];
  seconds: number;
  repeats: number;
  flops: number;
  transcendentals: number;
  /** at its boundary: its parameters read once, its output written once */
  bytes_accessed: number;
  /** '' when it ran fused; otherwise why its ops ran one by one inside it */
  fallback: string;
  /** null: one of the entry's own; else the entry op whose while, call or region body holds it (its time is that op's) */
  within: { line: number; column: number; op: string } | null;
}

/** What `node scripts/run.mjs --json` prints per file and rooflineLab.run() gives: the core's run report with the file's name. */
export interface FileRunReport extends RunReport {
  file: string;
}

export interface ExampleModule {
  name: string;
  title: string;
  text: string;
}

/** A roof in the model's units, for core.roofline. */
export interface RoofBudgets {
  /** GFLOP/s */
  peak: number;
  /** GB/s */
  bandwidth: number;
  /** GB/s one way, or null when the roof states none */
  interconnect?: number | null;
}

export interface RooflineRequest {
  roofs: RoofBudgets[];
  flops?: number[] | Float64Array;
  bytes?: number[] | Float64Array;
  totals?: { flops: number; bytes_accessed: number; collective_bytes?: number };
  /** [xmin, xmax], flops per byte: the span of the roofs' curves */
  range: number[];
  /** measured seconds per op (NaN: not measured): a measurement of this machine */
  seconds?: number[] | Float64Array;
  /** the program's measured seconds (a run's ops_seconds) */
  measured_seconds?: number | null;
}

/** A measured time set against the first roof (model::achieved): a measurement beside the model. */
export interface MeasuredAgainstRoof {
  seconds: number;
  /** achieved GFLOP/s and GB/s */
  gflops: number;
  gbs: number;
  /** the lower bound on the time under the roof */
  bound_seconds: number;
  /** bound_seconds / seconds: the share of the roof reached */
  of_roof: number;
  /** seconds / bound_seconds (0: no work) */
  over_bound: number;
}

/** The lower bound on a program's time under a roof, seconds. */
export interface TimeBound {
  seconds: number;
  compute: number;
  memory: number;
  collective: number | null;
  collectives: string;
  /** 'compute', 'memory', 'collectives', 'balanced (compute = memory)', or null at 0 s */
  bound: string | null;
}

export interface Roofline {
  roofs: { ridge: number; curve: Point[]; time: TimeBound }[];
  /** under the first roof: each op's bound and ceiling (GFLOP/s), null where it has none */
  ops: { bounds: (Bound | null)[]; ceilings: (number | null)[] };
  program: Point | null;
  /** with request.seconds: what each measured op achieved under the first roof (null: not measured; of_roof null: no bound) */
  measured_ops?: { gflops: (number | null)[]; gbs: (number | null)[]; of_roof: (number | null)[] };
  /** with request.measured_seconds: the program's measured time under the first roof */
  measured: MeasuredAgainstRoof | null;
}

// ---- exercises ---------------------------------------------------------------------------------------

export interface Exercise {
  index: number;
  family: string;
  title: string;
  statement: string;
  /** StableHLO text, for read_ir; '' otherwise */
  ir: string;
  params: Record<string, number>;
  sizes: number[];
  questions: Question[];
  solution: string;
}

export interface ExerciseFamily {
  id: string;
  label: string;
}

export interface EmbindCalls {
  total: number;
  by: Record<string, number>;
}

/** A question built outside the core, for checkQuestion. */
export interface QuestionInput {
  kind: 'number' | 'choice' | 'set';
  unit?: string;
  value?: number;
  exact?: string;
  rel_tolerance?: number;
  choices?: string[];
  set?: number[];
  mistakes?: { value: number; feedback: string }[];
  hints?: string[];
}

// ---- the teacher's gradebook (cpp/exercises/gradebook.h) ----------------------------------------

/** A student's result file as the page read it: its text, and its size when the text is only its start. */
export interface GradebookFile {
  name: string;
  text: string;
  /** bytes; the page reads at most 8 MiB of a file, and the core refuses one over 5 MB by this */
  size?: number;
}

/** The set a gradebook grades against: the teacher's seed (no student), the count, the families (none: all). */
export interface GradebookSet {
  seed: string;
  count: number;
  families?: string[];
}

/** One student's answer to one question, regraded by the core. */
export interface GradebookAnswer {
  status: 'right' | 'wrong' | 'not_tried';
  attempts: number;
  /** the attempt (1-based) of the first right answer: it counts even if a later one is wrong */
  right_at: number | null;
  hints: number;
  /** the solution of its exercise was opened */
  solution_opened: boolean;
  /** the answer that counts (the first right one, else the last) and the checker's feedback on it */
  answer: string;
  feedback: string;
  /** the checker's category of that answer: "right", a mistake's id ("mkn_not_2mkn"), "factor_of_2", … */
  category: string;
}

export interface GradebookStudent {
  file: string;
  student: string;
  /** with no student name: the id that student's browser gave its exports ("" for a name, or an older file) */
  unnamed_id: string;
  /** the seed of the student's own variant: "teacher/student" */
  seed_used: string;
  exported: string;
  right: number;
  tried: number;
  attempts: number;
  hints: number;
  solutions: number;
  /** one per question of the table, in its order */
  answers: GradebookAnswer[];
}

/** The class table: what rooflineLab.gradebook() gives and `node scripts/exercises.mjs --grade FILE… --json` prints. */
export interface GradebookTable {
  /** the set graded against, given or the one most files belong to (families: [] = all); null when no file could be read */
  set: { seed: string; count: number; families: string[]; from: 'given' | 'files' } | null;
  /** the columns: every question of the set, exercise by exercise (exercise 0-based) */
  questions: { exercise: number; family: string; title: string; question: string; prompt: string; hints: number }[];
  students: GradebookStudent[];
  /** per question: students graded, tried, right, the share right, and the mistake most students made */
  summary: { students: number; tried: number; right: number; share_right: number | null; mistake: { category: string; feedback: string; students: number } | null }[];
  /** the files not graded, each with its reason (not JSON, another set, a repeated student, too big, …) */
  refused: { file: string; reason: string }[];
  totals: { files: number; students: number; refused: number };
}

/**
 * One module's rows as columns (cpp/hlo/report.h, RowColumnSink): indices and flags as 32-bit
 * integers; the counts as 32-bit integers when every value of the column is one, else as doubles.
 */
export interface AnalysisColumns {
  top_level: Int32Array;
  line: Int32Array;
  column: Int32Array;
  /** index into the module's rows.strings */
  op: Int32Array;
  /** index into the module's rows.types */
  type: Int32Array;
  function: Int32Array;
  /** index into rows.strings, −1 for none */
  note: Int32Array;
  modeled: Int32Array;
  flops: Int32Array | Float64Array;
  transcendentals: Int32Array | Float64Array;
  bytes_accessed: Int32Array | Float64Array;
  unfused_bytes_accessed: Int32Array | Float64Array;
  output_bytes: Int32Array | Float64Array;
  collective_bytes: Int32Array | Float64Array;
  /** each distinct operand byte list once, one after another */
  operand_bytes: Float64Array;
  /** list k is operand_bytes[start[k], start[k + 1]) */
  operand_bytes_start: Int32Array;
  /** each row's list */
  operand_bytes_list: Int32Array;
}

/** core.tableStart's value: the table's handle for tableNext, the text's dialect, its rows and the modules that did not verify. */
export interface OpTableStart {
  handle: number;
  dialect: string;
  rows: number;
  errors: { module_name: string; error: string; message: string; line: number; column: number }[];
}

/** core.analyzeTextColumns's value: the report's JSON text without the rows' numbers, and those numbers per module. */
export interface CompactAnalysis {
  json: string;
  columns: AnalysisColumns[];
}

/**
 * The harness's rules as a state (cpp/measure/harness.h): run `units` units, time the round,
 * hand its seconds to samplerRecord, until phase is 'done' (seconds_per_call holds the samples,
 * units × each ≥ target) or 'failed' (error says why).
 */
export interface Sampler {
  phase: 'warm' | 'calibrate' | 'sample' | 'done' | 'failed';
  units: number;
  target: number;
  warm_seconds: number;
  seconds_per_call: number[];
  recalibrations: number;
  settling: number;
  previous: number;
  error: string;
  options: { timer_resolution: number; min_sample_seconds: number; samples: number; warm_round: boolean; settle: boolean; max_units: number };
}

/** What loadCore(createCore) resolves to (web/core.js). */
export interface Core {
  contract(m: number, k: number, n: number, itemsize?: number): CoreResult<Contraction>;
  contractShapes(aRows: number, aCols: number, bRows: number, bCols: number, itemsize?: number): CoreResult<Contraction>;
  ceilings(peak: number, bandwidth: number, intensities: number[]): CoreResult<Ceilings>;
  trafficExperiment(peak: number, bandwidth: number, intensities: number[], factor: number): CoreResult<TrafficRow[]>;
  figure(peak: number, bandwidth: number, intensities: number[]): CoreResult<FigureData>;
  lessonDefaults(): CoreResult<LessonDefaults>;
  lessonReport(params?: LessonParams, extras?: LessonExtras): CoreResult<CoreLessonReport>;
  kernelVariants(): CoreResult<KernelVariant[]>;
  checkLessonKernel(variant?: string): CoreResult<KernelCheck>;
  checkLessonIr(): CoreResult<IrCheck>;
  timeKernel(variant: string | undefined, m: number, k: number, n: number, samples: number, minSampleSeconds?: number): CoreResult<KernelTiming>;
  timerResolution(now: () => number, giveUpSeconds?: number): CoreResult<{ seconds: number }>;
  samplerStart(timerResolution: number, minSampleSeconds: number, samples: number): CoreResult<Sampler>;
  samplerRecord(sampler: Sampler, seconds: number): CoreResult<Sampler>;
  measureCompute(minSeconds: number): CoreResult<ComputeCeiling>;
  measureBandwidth(level: 'l1' | 'l2' | 'memory', minSeconds: number): CoreResult<BandwidthCeiling>;
  measureTraffic(factor: number, options?: { reread?: 'after-array' | 'right-away'; samples?: number }): CoreResult<TrafficMeasurement>;
  uniformFloats(count: number, seed: number): CoreResult<Float32Array>;
  packB(variant: string | undefined, k: number, n: number, b: Float32Array): CoreResult<Float32Array>;
  runKernel(variant: string | undefined, m: number, k: number, n: number, a: Float32Array, b: Float32Array): CoreResult<Float32Array>;
  createWork(spec: WorkSpec): CoreResult<Work>;
  runWork(handle: number, units: number): CoreResult<{ checksum: number }>;
  workOutput(handle: number): CoreResult<Float32Array>;
  releaseWork(handle: number): CoreResult<true>;
  emitWorkload(m: number, k: number, n: number, dtype: string): CoreResult<string>;
  analyzeText(text: string): CoreResult<TextAnalysis>;
  /** JAX-style Python → the StableHLO jax.jit(f).lower(...).as_text() prints (cpp/python) */
  lower(source: string, options?: { entry?: string }): LowerResult;
  /** a Python notebook run with Python's, NumPy's and JAX's semantics (cpp/python/notebook.h); synchronous: call it in a Worker */
  notebook(source: string, options?: { filename?: string; maxSteps?: number }): NotebookResult;
  /** a notebook kernel in this wasm instance: cells run in its globals (notebookRunCell) until reset or released */
  notebookSession(options?: { maxSteps?: number }): CoreResult<{ handle: number }>;
  /** one cell run in the kernel's globals; synchronous: call it in a Worker */
  notebookRunCell(handle: number, source: string, cell: number): CoreResult<NotebookCellRun>;
  notebookReset(handle: number): CoreResult<true>;
  notebookRelease(handle: number): CoreResult<true>;
  /** a notebook's source split into cells (blank-line-separated top-level blocks, or # %% markers) */
  notebookCells(source: string): CoreResult<NotebookCell[]>;
  /** the same analysis, rows not yet objects: what the page's Worker posts (the columns' buffers moved); expandAnalysis (web/core.js) makes it analyzeText's value */
  analyzeTextColumns(text: string): CoreResult<CompactAnalysis>;
  /** room in the core for a text of `size` bytes: bytes is a view of it, valid until the next call into the core (a file is read straight into it); tableStart({buffer: handle}) takes it over */
  textBuffer(size: number): CoreResult<{ handle: number; bytes: Uint8Array }>;
  /** drops a textBuffer no tableStart took */
  textBufferRelease(handle: number): CoreResult<true>;
  /** the analysis kept in the core as the CLI's per-op table (cpp/hlo/table.h); text: a string, a file's UTF-8 bytes, or a textBuffer's (taken over) */
  tableStart(text: string | Uint8Array | { buffer: number }): CoreResult<OpTableStart>;
  /** the table's next whole lines as UTF-8, about `bytes`: a view of the core's memory, valid until the next call into the core; empty once all are out (the table is then released) */
  tableNext(handle: number, bytes: number): CoreResult<Uint8Array>;
  /** releases a table whose lines are not all out */
  tableRelease(handle: number): CoreResult<true>;
  /** the fusion pass: the fused module as XLA prints HLO, its fusions, the unfused and fused totals */
  fuseText(text: string, options?: FuseOptions): CoreResult<FusedAnalysis>;
  /** the wasm heap's bytes now (it only grows: after a call, at least that call's peak) and the most it may grow to */
  heapBytes(): CoreResult<{ size: number; limit: number }>;
  runText(text: string, options?: RunOptions): CoreResult<RunReport>;
  /** runText, and each result as a .npy file (result_N.npy; a tuple's elements one by one) */
  runTextNpy(text: string, options?: RunOptions): CoreResult<{ report: RunReport; files: ({ name: string; bytes: Uint8Array } | { name: string; error: string })[] }>;
  roofline(request: RooflineRequest): CoreResult<Roofline>;
  exampleModules(): CoreResult<ExampleModule[]>;
  generateExercises(seed: string, count: number, families?: string[]): CoreResult<Exercise[]>;
  exerciseFamilies(): CoreResult<ExerciseFamily[]>;
  checkAnswer(seed: string, count: number, families: string[] | undefined, index: number, questionId: string, answer: string): CoreResult<Verdict>;
  checkQuestion(question: QuestionInput, answer: string): CoreResult<Verdict>;
  gradebook(files: GradebookFile[], set?: GradebookSet): CoreResult<GradebookTable>;
  /** the set as Moodle XML text */
  moodleXml(seed: string, count: number, families?: string[]): CoreResult<string>;
  embindCalls(): EmbindCalls;
  /** null, or the call whose WebAssembly trap stopped this instance (every later call is refused) */
  trapped(): string | null;
}

// ---- window.rooflineLab ----------------------------------------------------------------------------

export interface InputError {
  /** the field ("m", "sizes", …), or null when no field is to blame */
  input: string | null;
  message: string;
}

/** The view: the last valid inputs as numbers, the figure's toggles, the current error. */
export interface PublicState {
  m: number;
  k: number;
  n: number;
  dtype: string | null;
  itemsize: number;
  sizes: number[];
  peak: number;
  bandwidth: number;
  traffic_factor: number;
  showMeasuredRoof: boolean;
  showMeasuredPoint: boolean;
  showAllCoresRoof: boolean;
  showAllCoresPoint: boolean;
  error: InputError | null;
}

export interface StatePartial {
  m?: number | string;
  k?: number | string;
  n?: number | string;
  dtype?: string;
  itemsize?: number | string;
  sizes?: number[] | string;
  peak?: number | string;
  bandwidth?: number | string;
  traffic_factor?: number | string;
  factor?: number | string;
  showMeasuredRoof?: boolean;
  showMeasuredPoint?: boolean;
  showAllCoresRoof?: boolean;
  showAllCoresPoint?: boolean;
}

export interface ChartSeries {
  role: string;
  label: string;
  measured: boolean;
  points: [number, number][];
  /** its key as the legend holds it, drawn as the series is on the plot: a line (its dash and width) or a point (its shape) */
  key: { line: boolean; color: string; dash: number[] | null; width: number; pointStyle: string; fill: string; edge: string } | null;
}

/** A timing measured on the Worker pool, fork–join (web/model/measure.js): a measurement. */
export interface PoolKernelTiming {
  cores: number;
  variant: string;
  m: number;
  k: number;
  n: number;
  seconds_per_call: number[];
  median: number;
  min: number;
  max: number;
  repeats: number;
  timer_resolution: number;
  target_sample_seconds: number;
  recalibrations: number;
  /** the round's work (2·m·k·n, as the core counts it) at the median, GFLOP/s */
  gflops: number;
  /** GFLOP/s over the 1-core timing of the same size; null without one */
  speedup: number | null;
  /** speedup / cores */
  efficiency: number | null;
}

/** The ceilings measured on one core count. */
export interface CoreCountCeilings {
  gflops: number;
  bandwidth_gbs: Record<string, number>;
  working_set_bytes: Record<string, number>;
}

/** This machine's measurements (section 4), on 1 core and on all cores: measurements, never the model. */
export interface Measurements {
  measurements_label: string;
  local_samples_seconds: number[];
  timing: {
    variant: string;
    median: number;
    min: number;
    max: number;
    repeats: number;
    timer_resolution: number;
    target_sample_seconds: number;
    recalibrations: number;
    warm_seconds: number;
    /** 2·m·k·n per call at the median, GFLOP/s (the core's timeKernel) */
    gflops: number;
    note: string;
  };
  /** 256³ on 1 core (null if it was not measured) */
  bigger_size_timing: {
    variant: string;
    m: number;
    k: number;
    n: number;
    cores: number;
    median: number;
    min: number;
    max: number;
    repeats: number;
    timer_resolution: number;
    gflops: number;
  } | null;
  /** tanh(A@B) at 256³ and 512³ on 1 core and on all cores */
  kernel_timings: PoolKernelTiming[];
  measured_ceilings: {
    /** on 1 core */
    gflops: number;
    bandwidth_gbs: Record<string, number>;
    working_set_bytes: Record<string, number>;
    /** the core counts measured, ascending */
    cores: number[];
    /** by core count ("1", "4") */
    by_cores: Record<string, CoreCountCeilings>;
    /** how the rounds were timed */
    method: string;
  };
  workers: {
    requested: number;
    hardware_cores: number | null;
    all_cores: number;
    /** why all cores were not measured (a Worker did not start), or null */
    all_cores_error: string | null;
  };
}

/** One Worker of the page's pool (web/pool.js). */
export interface WorkerStatus {
  index: number;
  state: 'off' | 'starting' | 'ready' | 'failed';
  busy: boolean;
  leased: boolean;
  /** why it did not start or stopped, or null */
  error: string | null;
}

/** One file's analysis: what `node scripts/analyze.mjs --json FILE` prints. */
export interface AnalysisSummary {
  file: string;
  dialect: string | null;
  label: string;
  modules: { module_name: string; entry: string; totals: ModuleTotals }[];
  ops: OpCost[];
  totals: ModuleTotals;
  unmodeled: { op: string; count: number }[];
  notes: string[];
  errors: string[];
  /** the same errors as fields: where (1-based; null when unknown) and the message without its place */
  errorPlaces: ErrorPlace[];
}

export interface ErrorPlace {
  line: number | null;
  column: number | null;
  message: string;
}

export interface AnalyzeView {
  pending: string | null;
  errors: ErrorPlace[];
  sort: { key: string; dir: 'asc' | 'desc' };
  selected: number | null;
  /** the selected fusion of the run on show (its position in the report's fusions), or null */
  selected_fusion: number | null;
  /** the Worker's time for the latest analysis, ms */
  ms: number | null;
  /** the last redraw of the section, ms */
  render_ms: number | null;
  /** FLOP/s, B/s */
  roof: { id: string; label: string; kind: 'hypothetical' | 'measurement' | 'specification'; peak: number; bandwidth: number; interconnect: number | null; dtype_used: string } | null;
  dtype: { used: string; detected: string; from: string } | null;
  bound: TimeBound | null;
}

export interface AnalyzeRow {
  index: number;
  line: number;
  column: number;
  op: string;
  shape: string;
  flops: number;
  transcendentals: number;
  bytes: number;
  intensity: number | null;
  modeled: boolean;
  note: string | null;
  top: boolean;
  where: string | null;
  bound: Bound | null;
  /** of the program's flops and bytes: top-level rows only (null for an op in a body or a fused
   *  computation, counted within the op that runs it) */
  flopShare: number | null;
  byteShare: number | null;
  /** a run's measurements (null: not run or not timed) */
  seconds: number | null;
  gflops: number | null;
  gbs: number | null;
  /** lower bound on the op's time under the roof / its measured time */
  ofRoof: number | null;
  /** the run says the op ran as a view of its operand: it moved none of its counted bytes (gbs and ofRoof null) */
  view?: boolean;
  /** a fused run: the fusion the op ran in (its position in the report's fusions), or null */
  fusion: number | null;
}

/** Section 8's run as the page shows it (rooflineLab.runView()). */
export interface RunView {
  /** 'none' (not run), 'running', 'cancelled' (calm; an earlier report is kept), 'error' (the Worker failed), 'done' */
  state: 'none' | 'running' | 'cancelled' | 'error' | 'done';
  /** the program's name (file or example) */
  name: string | null;
  /** how the next run makes arguments, whether it fuses and by which rule (dotEpilogues false: as XLA's CPU backend fuses a dot's epilogue), and its cap on live tensors (memoryCap: bytes, one of the page's choices; null: as much as the core's heap can still give) */
  choice: {
    inputs: 'seeded' | 'arange' | 'files';
    seed: number;
    files: { name: string; bytes: Uint8Array }[];
    fuse: boolean;
    dotEpilogues: boolean;
    memoryCap: number | null;
  };
  pending: string | null;
  /** when the shown report was made (ISO time) */
  at: string | null;
  /** the shown report's arguments, as the core names them ("seeded (seed 1)", "arange", "none") */
  inputs: string | null;
  status: 'passed' | 'failed' | 'not_run' | 'error' | null;
  error: string | null;
  checks: { line: number; column: number; kind: string; passed: boolean; detail: string }[];
  /** why it did not run, naming the op and line; null when it ran */
  not_run: string | null;
  unsupported: { op: string; line: number; column: number; why: string }[];
  /** the program's measured time against the chosen roof (null: not all ops timed, or not run) */
  measured: MeasuredAgainstRoof | null;
  /** the lower bound on time under the chosen roof (from the unfused bytes for StableHLO) */
  bound_seconds: number | null;
  /** a fused run's lower bound from its fused totals (core.fuseText's bytes at fusion boundaries; ≤ bound_seconds); null otherwise */
  fused_bound_seconds: number | null;
  /** a fused run's measured time against the fused lower bound; null otherwise */
  measured_fused: MeasuredAgainstRoof | null;
  /** the shown report ran fused (as a compiler would fuse it), or op by op; null: no report */
  fused: boolean | null;
  /** a fused run's rule: true, a dot's epilogue fused as XLA's GPU backend fuses it; false, as XLA's CPU backend; null: no fused report */
  dot_epilogues: boolean | null;
  /** the shown report's results (shape, checksum, preview, bits): the same values fused or op by op */
  results: RunResultSummary[];
  /** the measured ops (a fused run: those that ran alone): time, achieved GFLOP/s and GB/s, share of the roof, the op's ceiling (GFLOP/s) */
  /** view: the op ran as a view of its operand (no data moved: its gbs and ofRoof are null) */
  rows: { index: number; line: number; column: number; op: string; seconds: number; gflops: number | null; gbs: number | null; ofRoof: number | null; view: boolean; ceiling: number | null }[];
  /** a fused run's fusions (the core's grouping and counts), each with its ops' rows (indices) and, when timed, what it achieved under the chosen roof */
  fusions: RunViewFusion[];
}

/** One fusion of section 8's run (rooflineLab.runView().fusions). */
export interface RunViewFusion {
  /** its position in the run report's fusions */
  fusion: number;
  name: string;
  kind: string;
  /** its root op's place */
  line: number;
  column: number;
  /** the ops it fused, each with its row in the per-op table (index; -1: none) */
  ops: { line: number; column: number; op: string; index: number }[];
  indices: number[];
  /** null: the entry's own; else the entry op whose body holds it (timed with that op) */
  within: { line: number; column: number; op: string } | null;
  flops: number;
  /** at its boundary */
  bytes: number;
  /** flops / bytes at its boundary (null without both) */
  intensity: number | null;
  /** null: not timed on its own */
  seconds: number | null;
  gflops: number | null;
  gbs: number | null;
  ofRoof: number | null;
  /** its ceiling under the chosen roof (GFLOP/s) and bound */
  ceiling: number | null;
  bound: string | null;
  fallback: string;
}

export interface AnalysisSeries {
  role: string;
  label: string;
  points: [number, number][];
  indices?: number[];
  /** a fused run's fusion points ('fusion': estimates; 'measured fusion': measurements): their positions in the report's fusions */
  fusions?: number[];
}

export interface ClassroomSnapshot {
  settings: { seed: string; count: number; families: string[]; student: string };
  seed_used: string;
  exercises: { index: number; family: string; title: string; statement: string }[];
  score: { right: number; answered: number; total: number };
}

/** Section 8's Write tab as the page shows it (rooflineLab.writeView()). */
export interface WriteView {
  /** which of section 8's tabs is open */
  mode: 'paste' | 'write';
  /** the Python as last taken from the editor (what the link carries) */
  source: string;
  /** the example the source came from, until it is edited */
  example: string | null;
  /** a lowering is in the Worker */
  pending: boolean;
  /** the function and module of the last source that lowered */
  function: string | null;
  stablehlo: string | null;
  /** why the latest source did not lower: its place (null: the Worker failed) and 'program.py:LINE:COL: message' */
  error: { line: number | null; column: number | null; message: string; text: string } | null;
  /** the errors the editor marks, 1-based, columns in characters (UTF-16 code units; the core's are UTF-8 bytes), to_column past the marked text */
  marks: { line: number; column: number; to_column: number; message: string }[];
  /** why the link's py= could not be read, or null */
  link_error: string | null;
  /** what the page says of the program (an example or a link replaced the reader's own), or null */
  notice: string | null;
  /** whether Undo is offered (it puts back the reader's program an example or a link replaced) */
  undo: boolean;
  /** why the link does not carry the program (too long), or null */
  link_note: string | null;
  /** the StableHLO line selected beside the editor (a table row's op selects its line), or null before it is made */
  stablehlo_line: number | null;
}

/** window.rooflineLab: for tests, automation and teachers' own pages. */
export interface RooflineLab {
  /** resolves to this object once the core is loaded and the page drawn */
  ready: Promise<RooflineLab>;
  state(): PublicState | null;
  setState(partial: StatePartial): { ok: boolean; error: string | null; state: PublicState | null };
  figureData(): FigureData | null;
  chartSeries(): ChartSeries[];
  report(): LessonReport | null;
  measurements(): Measurements | null;
  /** the Worker pool's Workers (a test hook) */
  workers(): WorkerStatus[];
  error(): InputError | null;
  analyze(text: string, name?: string): Promise<AnalysisSummary>;
  /** JAX-style Python lowered as `node scripts/lower.mjs` does (synchronously, on the page's core) */
  lower(source: string, options?: { entry?: string }): LowerResult;
  analysis(): AnalysisSummary | null;
  analyzeView(): AnalyzeView | null;
  analyzeRows(): AnalyzeRow[];
  analysisSeries(): AnalysisSeries[];
  analysisPointPixel(index: number): Point | null;
  /** where a run's fusion j is on section 8's canvas: its estimate, or (measured) its measurement */
  analysisFusionPixel(j: number, measured?: boolean): Point | null;
  classroom(): ClassroomSnapshot | null;
  /** the class table for students' result files; does not change the page; a bad argument throws */
  gradebook(files: GradebookFile[], set?: GradebookSet): GradebookTable;
  /**
   * milliseconds from navigation start (null until reached): the wasm core loaded, the lesson drawn
   * (inputs, sections 1–3, 6, 7: the first render, before the figure and the other sections), every
   * section drawn and wired; coreMs ≤ firstRenderMs ≤ readyMs
   */
  timings(): { coreMs: number | null; firstRenderMs: number | null; readyMs: number | null };
  /** section 2's check of the lesson's IR beside the kernel's, with both times; null until the Worker has answered (or if it failed) */
  lessonChecks(): LessonChecks | null;
  /** section 6's "measure it": the last measurement of the traffic experiment (a measurement of this machine), null until one has run */
  trafficMeasurement(): TrafficMeasurement | null;
  /** runs a Python notebook in a Worker without changing the page, as `node scripts/notebook.mjs` does */
  notebook(source: string, options?: { filename?: string; maxSteps?: number }): Promise<NotebookRun>;
  /** runs StableHLO text in a Worker without changing the page: what `node scripts/run.mjs --json` prints for one file */
  run(text: string, options?: { inputs?: 'none' | 'seeded' | 'arange'; seed?: number; name?: string; fuse?: boolean; dotEpilogues?: boolean }): Promise<FileRunReport>;
  /** what section 8's run shows */
  runView(): RunView | null;
  writeView(): WriteView | null;
  /** calls made into the wasm module on the page's main thread */
  coreCalls(): EmbindCalls | null;
}

declare global {
  interface Window {
    rooflineLab: RooflineLab;
  }
}
