#!/usr/bin/env node
// The lesson's report in a terminal, computed by the same wasm core the page uses.
import { buildLesson, reportLines } from '../web/model/lesson.js';
import { parseNumber, parseNumberList } from '../web/model/parse.js';
import { measuredForReport } from '../web/model/measure.js';
import { runMeasurements } from '../web/measurements.js';
import { checkWorkerCount, defaultWorkerCount } from '../web/pool.js';
import { loadNodeCore } from './lib/node-core.mjs';
import { createNodePool, machineCores } from './lib/node_pool.mjs';

const HELP = `usage: node scripts/lesson.mjs [options]

Prints the seed lesson's report: the matmul-only accounting of tanh(a@b), the hypothetical
roofline ceilings of square sizes, the ceilings with more traffic, and the exercise.
Every number comes from the wasm core (dist/roofline-core.js; build it with scripts/build).

options (defaults are the seed's):
  --m N --k N --n N      the accounted matmul (m×k)·(k×n)        (32, 16, 8)
  --itemsize N           bytes per element, for the matmul and the square sizes  (4)
  --sizes A,B,...        square sizes n for the ceilings table    (8,16,32,64,128)
  --peak X               hypothetical compute budget, GFLOP/s     (100)
  --bandwidth X          hypothetical memory budget, GB/s         (20)
  --traffic-factor X     bytes multiplied by X in the experiment  (2)
  --samples N            timed samples per measurement, 1..1000   (5)
  --workers N            Workers for "all cores", 1..64   (this machine's cores, at most 16)
  --no-measure           skip the measurements of this machine (timing, measured ceilings)
  --json                 print one JSON object instead of text
  -h, --help             print this help

The exercise is the seed's fixed (48,24)·(24,12) in f32 under the chosen budgets.
The kernel tanh(a@b) runs in wasm on the seed's inputs and is checked against a double
reference (|x − y| ≤ 2e-5 + 2e-5·|y|). Then, unless --no-measure, this machine is measured
(about 5 s) by a pool of worker_threads, each with its own wasm core, as the page's Web Workers:
one warm run and N timed samples of the lesson's kernel on one core, each sample repeating the
kernel until it lasts ≥ 100 timer ticks (checked for every sample); then on 1 Worker and on all
Workers at once, timed fork–join from this thread: tanh(A@B) at 256³ and 512³ (B packed once,
rows split among the Workers), the mul+add ceiling and triad bandwidth (L1-, L2-, memory-sized).
Those are measurements of this machine, reported apart from the model's numbers.
Budgets are hypothetical, not a device specification. A bad value exits 1 with one line on
stderr naming the option, the rule and the value.`;

const NUMBER_OPTIONS = {
  '--m': 'm',
  '--k': 'k',
  '--n': 'n',
  '--itemsize': 'itemsize',
  '--peak': 'peak',
  '--bandwidth': 'bandwidth',
  '--traffic-factor': 'traffic_factor',
};
const OPTION_OF = Object.fromEntries(Object.entries(NUMBER_OPTIONS).map(([o, p]) => [p, o]));
OPTION_OF.sizes = '--sizes';
OPTION_OF.dimensions = '--m/--k/--n';

class UsageError extends Error {}

function number(option, text) {
  const r = parseNumber(option, text);
  if (!r.ok) throw new UsageError(r.error);
  return r.value;
}

function parseArgs(argv) {
  const params = {};
  let json = false;
  let measure = true;
  let samples = 5;
  let workers = defaultWorkerCount(machineCores());
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const takeValue = () => {
      if (value !== undefined) return value;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value (see --help)`);
      return argv[++i];
    };
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--json') json = true;
    else if (arg === '--no-measure') measure = false;
    else if (arg === '--samples') {
      samples = number('--samples', takeValue());
      if (!(Number.isInteger(samples) && samples >= 1 && samples <= 1000)) {
        throw new UsageError(`--samples must be an integer from 1 to 1000, got ${samples}`);
      }
    } else if (arg === '--workers') {
      const checked = checkWorkerCount(number('--workers', takeValue()), '--workers');
      if (!checked.ok) throw new UsageError(checked.error);
      workers = checked.value;
    } else if (arg in NUMBER_OPTIONS) params[NUMBER_OPTIONS[arg]] = number(arg, takeValue());
    else if (arg === '--sizes') {
      const r = parseNumberList('--sizes', takeValue());
      if (!r.ok) throw new UsageError(r.error);
      params.sizes = r.value;
    } else throw new UsageError(`unknown option ${JSON.stringify(arg)} (see --help)`);
  }
  return { params, json, measure, samples, workers };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) return die(e.message);
    throw e;
  }
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  let core;
  try {
    core = await loadNodeCore();
  } catch (e) {
    return die(e.message);
  }
  const built = buildLesson(core, args.params);
  if (!built.ok) {
    const option = OPTION_OF[built.input];
    return die(option ? `${option}: ${built.error}` : built.error);
  }
  let report = built.report;
  if (args.measure) {
    const progress =
      process.stderr.isTTY && !args.json
        ? (done, total, label) => process.stderr.write(`\rmeasuring this machine ${done}/${total}: ${label}…\x1b[K`)
        : () => {};
    const pool = createNodePool({ size: args.workers });
    let measured;
    try {
      measured = await runMeasurements(
        core,
        pool.group(),
        { samples: args.samples, workers: args.workers, hardwareCores: machineCores() },
        progress,
      );
    } catch (e) {
      return die(e.message);
    } finally {
      pool.terminate();
      if (process.stderr.isTTY && !args.json) process.stderr.write('\r\x1b[K');
    }
    // The same report with this machine's roofs and points for the figure, as the page draws it.
    const withRoofs = buildLesson(core, args.params, { measured: measuredForReport(measured) });
    if (!withRoofs.ok) return die(withRoofs.error);
    report = Object.assign(withRoofs.report, { measured_roofline: withRoofs.measured }, measured);
  } else {
    report.measurements_skipped = 'skipped (--no-measure)';
  }
  if (args.json) console.log(JSON.stringify(report, null, 2));
  else console.log(reportLines(report).join('\n'));
  return 0;
}

function die(message) {
  process.stderr.write(`lesson.mjs: ${message}\n`);
  return 1;
}

process.exitCode = await main();
