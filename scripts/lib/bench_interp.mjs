// scripts/bench's interpreter part: the interpreter's speed against this machine's own kernels
// and ceilings, all measured in this run, in wasm under Node (the same module the page runs).
//   - f32 dot_general 256³ and 512³ inside a module vs the standalone SIMD matmul kernel, timed in
//     turn (goal ≥ 0.90)
//   - f32 add of two memory-sized arrays vs the measured memory triad bandwidth (goal ≥ 0.50)
//   - f32 tanh, exponential, log and logistic over 1M elements: M elements/s on one core (goal ≥ 500),
//     beside f64 tanh (std::tanh in double: the path f32 took before cpp/kernels/math_impl.h)
//   - fusion: tanh(A@B) / A@B at 512³ (goal ≤ 1.10, the kernel's own ratio) and the 4M-element
//     tanh(2·x + 1)·y chain / one 4M-element add (goal ≤ 2), each program's ops_seconds (what ran,
//     timed), fused (the default) and op by op (--no-fuse), from one run
//   - the runnable corpus (stablehlo + stablehlo-interpret) in one process (goal ≤ 60 s)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadNodeCore, ROOT } from './node-core.mjs';

const t = (dims) => `tensor<${dims.join('x')}xf32>`;

function dotModule(n) {
  const T = t([n, n]);
  return `func.func @main(%a: ${T}, %b: ${T}) -> ${T} {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (${T}, ${T}) -> ${T}
  return %c : ${T}
}
`;
}

// Three adds in a row: the first one's result lands in freshly grown memory (first touches); the
// best of them is the steady state.
function addModule(elements) {
  const T = t([elements]);
  return `func.func @main(%a: ${T}, %b: ${T}) -> ${T} {
  %c = stablehlo.add %a, %b : ${T}
  %d = stablehlo.add %c, %b : ${T}
  %e = stablehlo.add %d, %a : ${T}
  return %e : ${T}
}
`;
}

// One unary math op over `elements` seeded values in [−1, 1); log reads |x| (the abs is not timed).
function unaryModule(op, elements, type = 'f32') {
  const T = `tensor<${elements}x${type}>`;
  const pre = op === 'log' ? `  %a = stablehlo.abs %x : ${T}\n` : '';
  const arg = op === 'log' ? '%a' : '%x';
  return `func.func @main(%x: ${T}) -> ${T} {
${pre}  %y = stablehlo.${op} ${arg} : ${T}
  return %y : ${T}
}
`;
}

// tanh(A@B) at n³: with fusion, one kOutput fusion (the tanh applied to the dot's output).
function tanhDotModule(n) {
  const T = t([n, n]);
  return `func.func @main(%a: ${T}, %b: ${T}) -> ${T} {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (${T}, ${T}) -> ${T}
  %d = stablehlo.tanh %c : ${T}
  return %d : ${T}
}
`;
}

// tanh(2·x + 1)·y as JAX lowers it (scalar constants broadcast): one kLoop fusion of 8 ops.
function chainModule(elements) {
  const T = t([elements]);
  return `func.func @main(%x: ${T}, %y: ${T}) -> ${T} {
  %c2 = stablehlo.constant dense<2.0> : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %b2 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> ${T}
  %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> ${T}
  %0 = stablehlo.multiply %b2, %x : ${T}
  %1 = stablehlo.add %0, %b1 : ${T}
  %2 = stablehlo.tanh %1 : ${T}
  %3 = stablehlo.multiply %2, %y : ${T}
  return %3 : ${T}
}
`;
}

function oneAddModule(elements) {
  const T = t([elements]);
  return `func.func @main(%a: ${T}, %b: ${T}) -> ${T} {
  %c = stablehlo.add %a, %b : ${T}
  return %c : ${T}
}
`;
}

// A while loop of scalar ops as XLA writes one (a jax.random key's rounds, a scan's counter): HLO
// whose while carries a tuple, and whose body calls a computation — a xorshift step — each trip.
// Each op does almost no work: the interpreter's own path (dispatch, frames, liveness, tuples,
// calls) is the time. OPS_PER_TRIP counts the instructions run per trip, parameters included.
const OPS_PER_TRIP = 21;
function scalarLoopModule(trips) {
  let step = '';
  let x = '%x';
  for (const [k, op] of [
    [13, 'shift-left'],
    [17, 'shift-right-logical'],
    [5, 'shift-left'],
  ]) {
    step += `  %c${k} = s32[] constant(${k})
  %s${k} = s32[] ${op}(${x}, %c${k})
  ${k === 5 ? 'ROOT ' : ''}%x${k} = s32[] xor(${x}, %s${k})
`;
    x = `%x${k}`;
  }
  return `HloModule scalar_loop

%step (x: s32[]) -> s32[] {
  %x = s32[] parameter(0)
${step}}

%body (t: (s32[], s32[])) -> (s32[], s32[]) {
  %t = (s32[], s32[]) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %x = s32[] get-tuple-element(%t), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %y = s32[] call(%x), to_apply=%step
  ROOT %r = (s32[], s32[]) tuple(%j, %y)
}

%cond (t: (s32[], s32[])) -> pred[] {
  %t = (s32[], s32[]) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %n = s32[] constant(${trips})
  ROOT %p = pred[] compare(%i, %n), direction=LT
}

ENTRY %main () -> s32[] {
  %z = s32[] constant(0)
  %s = s32[] constant(12345)
  %t = (s32[], s32[]) tuple(%z, %s)
  %w = (s32[], s32[]) while(%t), condition=%cond, body=%body
  ROOT %out = s32[] get-tuple-element(%w), index=1
}
`;
}

/** Seconds of one untimed run of a whole program (wall clock, as the run reports it). */
function runSeconds(core, text, fuse) {
  const r = core.runText(text, { inputs: 'seeded', time_ops: false, fuse });
  if (!r.ok || r.value.status !== 'passed')
    throw new Error(`the interpreter did not run the program: ${JSON.stringify(r.ok ? r.value.errors : r.error)}`);
  return r.value.seconds;
}

/** The best of `reps` runs of a whole program: its ops_seconds (ops and fusions, timed, summed). */
function programSeconds(core, text, fuse, reps) {
  let best = Infinity;
  let fusions = 0;
  for (let i = 0; i < reps; i++) {
    const r = core.runText(text, { inputs: 'seeded', time_ops: true, fuse });
    if (!r.ok || r.value.status !== 'passed') {
      throw new Error(
        `the interpreter did not run the program: ${JSON.stringify(r.ok ? r.value.errors.concat(r.value.unsupported) : r.error)}`,
      );
    }
    if (r.value.ops_seconds < best) {
      best = r.value.ops_seconds;
      fusions = r.value.fusions.filter((f) => !f.fallback).length;
    }
  }
  return { seconds: best, fusions };
}

/**
 * The best of `reps` runs of the module's one timed op, op by op (no fusion: the op itself is timed):
 * seconds per execution. Two untimed runs first, as the kernel's harness warms up: V8 runs a wasm
 * function's first calls in its baseline tier and swaps in optimized code later, so the first
 * runs of a process timed the baseline code (dot_general 256³ read 23-26 GFLOP/s where the same
 * op runs at the kernel's 54 once warm).
 */
function opSeconds(core, text, op, reps, warm = WARM_RUNS) {
  let best = Infinity;
  for (let i = 0; i < warm; i++) core.runText(text, { inputs: 'seeded', time_ops: true, fuse: false });
  for (let i = 0; i < reps; i++) {
    const r = core.runText(text, { inputs: 'seeded', time_ops: true, fuse: false });
    if (!r.ok || r.value.status === 'error' || r.value.status === 'not_run') {
      throw new Error(
        `the interpreter did not run the ${op} module: ${JSON.stringify(r.ok ? r.value.errors.concat(r.value.unsupported) : r.error)}`,
      );
    }
    for (const timed of r.value.ops.filter((o) => o.op === op)) best = Math.min(best, timed.seconds);
  }
  return best;
}

/** Untimed runs before a module's op is timed (opSeconds). */
const WARM_RUNS = 2;

export async function benchInterpreter({ quick = false, against = null } = {}) {
  const core = await loadNodeCore();
  const out = {};
  const reps = quick ? 2 : 5;

  // The per-op path: a while loop of scalar ops, fused (as the page runs it) and op by op, in
  // turn; the best of `reps` runs each, in ns per op executed. Both are run twice first: V8 runs
  // a wasm function's first calls in its baseline tier (a first run read 3.4× slower).
  const trips = quick ? 5000 : 20000;
  const loop = scalarLoopModule(trips);
  out.scalar_loop = { trips, ops_per_trip: OPS_PER_TRIP };
  const loopBest = { true: Infinity, false: Infinity };
  for (let i = 0; i < reps + 2; i++)
    for (const fuse of [true, false]) {
      const t = runSeconds(core, loop, fuse);
      if (i >= 2) loopBest[fuse] = Math.min(loopBest[fuse], t);
    }
  out.scalar_loop.fused_ns_per_op = (loopBest.true / (trips * OPS_PER_TRIP)) * 1e9;
  out.scalar_loop.unfused_ns_per_op = (loopBest.false / (trips * OPS_PER_TRIP)) * 1e9;

  // dot_general at 256³ and 512³ vs the kernel (A@B, no tanh) the page measures. The op's samples
  // and the kernel's are interleaved (a round times each once) and each keeps its best: this VM's
  // speed moves by a third between minutes, and one op timed minutes apart from the kernel read
  // 0.80 and 1.04 of it in two runs.
  const variants = core.kernelVariants().value.filter((v) => !v.fused_tanh);
  const best = variants.find((v) => v.isa === 'wasmsimd') ?? variants[0];
  out.dot_general = [];
  for (const n of [256, 512]) {
    const flops = 2 * n * n * n;
    const text = dotModule(n);
    let dot = Infinity;
    let kernelGflops = 0;
    opSeconds(core, text, 'stablehlo.dot_general', 0); // the warm-up runs only
    for (let round = 0; round < (quick ? 3 : 6); round++) {
      dot = Math.min(dot, opSeconds(core, text, 'stablehlo.dot_general', 1, 0));
      const kernel = core.timeKernel(best.name, n, n, n, 3, quick ? 0.02 : 0.05).value;
      kernelGflops = Math.max(kernelGflops, kernel.gflops_median);
    }
    out.dot_general.push({
      n,
      interpreter_gflops: flops / dot / 1e9,
      kernel: best.name,
      kernel_gflops: kernelGflops,
      ratio: flops / dot / 1e9 / kernelGflops,
      goal: 0.9,
    });
  }

  // An add of two memory-sized arrays (the memory triad's working set: 3 × 32 MiB) vs the triad.
  const elements = 8 * 1024 * 1024;
  const add = opSeconds(core, addModule(elements), 'stablehlo.add', quick ? 1 : 3);
  const bytes = 3 * elements * 4;
  const triad = core.measureBandwidth('memory', quick ? 0.05 : 0.2).value;
  out.add_memory = {
    elements,
    interpreter_gbs: bytes / add / 1e9,
    triad_gbs: triad.gbs,
    ratio: bytes / add / 1e9 / triad.gbs,
    goal: 0.5,
  };

  // Elementwise math: M elements/s of one op on 2^20 elements (4 MiB in, 4 MiB out).
  const mathElements = 1 << 20;
  out.math = [];
  for (const [op, type] of [
    ['tanh', 'f32'],
    ['exponential', 'f32'],
    ['log', 'f32'],
    ['logistic', 'f32'],
    ['tanh', 'f64'],
  ]) {
    const seconds = opSeconds(core, unaryModule(op, mathElements, type), `stablehlo.${op}`, reps);
    out.math.push({
      op,
      type,
      elements: mathElements,
      melements_per_s: mathElements / seconds / 1e6,
      goal: type === 'f32' ? 500 : null,
    });
  }

  // f32 power (two operands; the base |x|, so every lane takes the vectorized path).
  {
    const T = `tensor<${mathElements}xf32>`;
    const text = `func.func @main(%x: ${T}, %z: ${T}) -> ${T} {
  %a = stablehlo.abs %x : ${T}
  %y = stablehlo.power %a, %z : ${T}
  return %y : ${T}
}
`;
    const seconds = opSeconds(core, text, 'stablehlo.power', reps);
    out.math.push({
      op: 'power',
      type: 'f32',
      elements: mathElements,
      melements_per_s: mathElements / seconds / 1e6,
      goal: null,
    });
  }

  // Fusion: each ratio from programs timed in this run, fused and op by op. The samples are
  // interleaved (each round runs every program once, in turn), and each program keeps its best:
  // a slow phase of a loaded machine then lands on all of them, not on the ones that happened
  // to run during it (back-to-back blocks gave tanh(A@B) fused 1.6× A@B on a busy machine, and
  // 0.96–1.04× on a quiet one).
  const m = 512;
  const chainElements = 4 * 1024 * 1024;
  const fr = quick ? 3 : 8;
  const programs = {
    ab: dotModule(m),
    tab: tanhDotModule(m),
    add1: oneAddModule(chainElements),
    ch: chainModule(chainElements),
  };
  const bestOf = {};
  for (let round = 0; round < fr; round++)
    for (const fuse of [true, false])
      for (const [name, text] of Object.entries(programs)) {
        const key = `${name}/${fuse}`;
        const r = programSeconds(core, text, fuse, 1);
        if (!bestOf[key] || r.seconds < bestOf[key].seconds) bestOf[key] = r;
      }
  out.fusion = {};
  for (const fuse of [true, false]) {
    const [ab, tab, add1, ch] = ['ab', 'tab', 'add1', 'ch'].map((n) => bestOf[`${n}/${fuse}`]);
    out.fusion[fuse ? 'fused' : 'unfused'] = {
      tanh_dot_512: {
        tanh_ab_seconds: tab.seconds,
        ab_seconds: ab.seconds,
        ratio: tab.seconds / ab.seconds,
        fusions: tab.fusions,
        goal: 1.1,
      },
      chain_4m: {
        chain_seconds: ch.seconds,
        add_seconds: add1.seconds,
        ratio: ch.seconds / add1.seconds,
        fusions: ch.fusions,
        goal: 2,
      },
    };
  }

  // The runnable corpus in one process, as `node scripts/run.mjs` runs it (ops timed).
  const corpus = process.env.ROOFLINE_CORPUS || resolve(ROOT, '..', 'shared', 'corpus');
  const files = [];
  for (const sub of ['stablehlo', 'stablehlo-interpret']) {
    const dir = join(corpus, sub);
    if (existsSync(dir))
      for (const f of readdirSync(dir)
        .filter((x) => x.endsWith('.mlir'))
        .sort())
        files.push(join(dir, f));
  }
  if (files.length) {
    const counts = { passed: 0, failed: 0, not_run: 0, error: 0 };
    const t0 = performance.now();
    for (const f of files) counts[core.runText(readFileSync(f, 'utf8'), { time_ops: true }).value.status] += 1;
    out.corpus = { files: files.length, ...counts, seconds: (performance.now() - t0) / 1000, goal_seconds: 60 };
  } else {
    out.corpus = null;
  }

  // This build against another core (--against): the two loaded in this process and run in turn,
  // round after round, so a slow phase of the machine lands on both; the median of the rounds'
  // ratios (this build's time / the other's) and their range.
  if (against) {
    const other = await loadNodeCore(resolve(against));
    // [name, text, how it is timed]: a whole run's wall clock, a program's timed ops, or one op.
    const cases = [
      ['a while loop of scalar ops (fused)', loop, (c, t) => runSeconds(c, t, true)],
      [
        'f32 tanh of 2^20 elements',
        unaryModule('tanh', mathElements, 'f32'),
        (c, t) => opSeconds(c, t, 'stablehlo.tanh', 1, 0),
      ],
      [
        'f32 exponential of 2^20 elements',
        unaryModule('exponential', mathElements, 'f32'),
        (c, t) => opSeconds(c, t, 'stablehlo.exponential', 1, 0),
      ],
      [
        'tanh(2·x + 1)·y at 4M elements (fused)',
        chainModule(chainElements),
        (c, t) => programSeconds(c, t, true, 1).seconds,
      ],
      ['one add at 4M elements', oneAddModule(chainElements), (c, t) => opSeconds(c, t, 'stablehlo.add', 1, 0)],
    ];
    const rounds = quick ? 5 : 15;
    out.against = { core: resolve(against), rounds, cases: [] };
    for (const [name, text, timeOf] of cases) {
      const time = (c) => timeOf(c, text);
      time(core);
      time(other); // warm both
      const ratios = [];
      for (let r = 0; r < rounds; r++) {
        const a = time(core);
        const b = time(other);
        ratios.push(a / b);
      }
      ratios.sort((x, y) => x - y);
      out.against.cases.push({
        case: name,
        ratio_median: ratios[ratios.length >> 1],
        ratio_min: ratios[0],
        ratio_max: ratios[ratios.length - 1],
      });
    }
  }

  console.log('\ninterpreter (wasm in Node) — measurements of this machine');
  const sl = out.scalar_loop;
  console.log(
    `  a while loop of scalar ops in HLO (${sl.trips} trips × ${sl.ops_per_trip} instructions): ${sl.fused_ns_per_op.toFixed(0)} ns per op fused, ${sl.unfused_ns_per_op.toFixed(0)} op by op   (no goal: the interpreter's own path)`,
  );
  for (const d of out.dot_general)
    console.log(
      `  dot_general ${d.n}³ in a module: ${d.interpreter_gflops.toFixed(2)} GFLOP/s; ${d.kernel}: ${d.kernel_gflops.toFixed(2)} GFLOP/s → ${d.ratio.toFixed(2)}   (goal ≥ ${d.goal.toFixed(2)})`,
    );
  const a = out.add_memory;
  console.log(
    `  add of two ${((elements * 4) / 2 ** 20).toFixed(0)} MiB f32 arrays: ${a.interpreter_gbs.toFixed(2)} GB/s; memory triad ${a.triad_gbs.toFixed(2)} GB/s → ${a.ratio.toFixed(2)}   (goal ≥ 0.50)`,
  );
  for (const m of out.math) {
    const note = m.goal
      ? `(goal ≥ ${m.goal})`
      : m.op === 'power'
        ? '(double lanes, pow_f32.cpp; no goal)'
        : '(std::tanh in double: how f32 ran before math_impl.h)';
    console.log(
      `  ${m.type} ${m.op} of ${m.elements} elements: ${m.melements_per_s.toFixed(1)} M elements/s   ${note}`,
    );
  }
  for (const [how, f] of Object.entries(out.fusion)) {
    const td = f.tanh_dot_512;
    const ch = f.chain_4m;
    console.log(
      `  ${how}: tanh(A@B) ${(td.tanh_ab_seconds * 1e3).toFixed(2)} ms / A@B ${(td.ab_seconds * 1e3).toFixed(2)} ms at 512³ → ${td.ratio.toFixed(3)}   (goal ≤ 1.10)`,
    );
    console.log(
      `  ${how}: tanh(2·x + 1)·y ${(ch.chain_seconds * 1e3).toFixed(2)} ms / one add ${(ch.add_seconds * 1e3).toFixed(2)} ms at 4M elements → ${ch.ratio.toFixed(2)}   (goal ≤ 2)`,
    );
  }
  if (out.against) {
    console.log(
      `  this build against ${out.against.core} (run in turn, ${out.against.rounds} rounds; this / that, median [range]):`,
    );
    for (const c of out.against.cases)
      console.log(`    ${c.case}: ${c.ratio_median.toFixed(3)} [${c.ratio_min.toFixed(3)}–${c.ratio_max.toFixed(3)}]`);
  }
  if (out.corpus) {
    const c = out.corpus;
    console.log(
      `  corpus: ${c.files} files in ${c.seconds.toFixed(1)} s (goal ≤ 60): ${c.passed} passed, ${c.failed} failed, ${c.not_run} not run, ${c.error} errors`,
    );
  } else {
    console.log('  corpus: ../shared/corpus absent, skipped');
  }
  return out;
}
