// web/roofline-lab.d.ts describes the core's JS surface completely: every function the bindings
// register is declared (and named in cpp/bindings/README.md), and every value the core returns —
// called here with typical and refused arguments — fits its declared type, with no key left
// undeclared. (window.rooflineLab is checked against the same file in tests/browser/surface.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { check, interfaceOf, parseDts } from '../lib/dts.mjs';
import { loadNodeCore, ROOT } from '../../scripts/lib/node-core.mjs';
import { buildLesson } from '../../web/model/lesson.js';
import { measuredForReport } from '../../web/model/measure.js';

const dts = parseDts(readFileSync(join(ROOT, 'web', 'roofline-lab.d.ts'), 'utf8'));
const registered = [
  ...readFileSync(join(ROOT, 'cpp', 'bindings', 'bindings.cpp'), 'utf8').matchAll(/emscripten::function\("(\w+)"/g),
].map((m) => m[1]);

let core;
before(async () => {
  core = await loadNodeCore();
});

const fits = (value, type) => assert.deepEqual(check(dts, value, type), [], `${type} does not describe the value`);

// A handle of work made for the call (runWork, workOutput and releaseWork need one).
const work = (spec) => core.createWork(spec).value.handle;
// A notebook kernel made for the call (notebookRunCell, notebookReset and notebookRelease need one).
const session = () => core.notebookSession().value.handle;
const kernelWork = () =>
  work({
    kind: 'kernel',
    rows: 4,
    k: 2,
    n: 3,
    a: new Float32Array(8),
    packed_b: core.packB(undefined, 2, 3, new Float32Array(6)).value,
  });

// Each function of the core with arguments that succeed and arguments it refuses (a function:
// the arguments are made when the call is).
/** A .npy file's bytes: the header dict padded as np.save pads it, then the data. */
function npyBytes(dict, data) {
  const header = dict + ' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 78, 85, 77, 80, 89, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}

const CALLS = {
  contract: [
    [32, 16, 8, 4],
    [32, 16, 8, undefined],
    [0, 16, 8, 4],
    ['x', 16, 8, 4],
  ],
  contractShapes: [
    [48, 24, 24, 12, 4],
    [48, 24, 25, 12, 4],
  ],
  ceilings: [
    [100, 20, [1, 5, 10]],
    [0, 20, [1]],
  ],
  trafficExperiment: [
    [100, 20, [1, 10], 2],
    [100, 20, [1], 0],
  ],
  figure: [
    [100, 20, [8 / 6, 16 / 6]],
    [100, 20, [-1]],
  ],
  lessonDefaults: [[]],
  lessonReport: [
    [{}, {}],
    [{ dtype: 'bf16', sizes: [8, 64] }, { answers: { work: '1', bound: 'memory' } }],
    [{ itemsize: 3 }, {}],
    [{ m: 0 }, {}],
    [{ zz: 1 }, {}],
    [{}, { answers: { nope: 'x' } }],
  ],
  kernelVariants: [[]],
  checkLessonKernel: [[undefined], ['matmul_f32_1x1__scalar_naive'], ['nope']],
  checkLessonIr: [[]],
  timeKernel: [
    [undefined, 8, 8, 8, 2, 0],
    [undefined, 8, 8, 8, 0, 0],
  ],
  timerResolution: [[() => performance.now() / 1000], [() => 5, 0], [5, 1]],
  samplerStart: [
    [1e-4, 0, 3],
    [0, 0, 3],
    [1e-4, 0, 0],
  ],
  samplerRecord: [
    () => [core.samplerStart(1e-4, 0, 1).value, 0.5],
    () => [core.samplerStart(1e-4, 0, 1).value, -1],
    () => [{ phase: 'warm' }, 0.1],
  ],
  measureCompute: [[0.001], [-1]],
  measureBandwidth: [
    ['l1', 0.001],
    ['l9', 0.001],
  ],
  measureTraffic: [[1.5, { reread: 'right-away', samples: 1 }], [0.5], [2, { reread: 'sideways' }]],
  uniformFloats: [
    [16, 1],
    [0, 1],
  ],
  packB: [
    [undefined, 2, 3, new Float32Array(6)],
    [undefined, 2, 3, new Float32Array(5)],
  ],
  runKernel: [
    [undefined, 2, 2, 2, new Float32Array(4), new Float32Array(4)],
    [undefined, 2, 2, 2, 'a', new Float32Array(4)],
  ],
  createWork: [
    [{ kind: 'chains' }],
    [{ kind: 'triad', level: 'l1', workers: 2 }],
    [{ kind: 'nope' }],
    [{ kind: 'triad', level: 'l1', workers: 0 }],
  ],
  runWork: [() => [work({ kind: 'chains' }), 1], [123456, 1], () => [work({ kind: 'chains' }), 0]],
  workOutput: [
    () => [
      (() => {
        const h = kernelWork();
        core.runWork(h, 1);
        return h;
      })(),
    ],
    () => [work({ kind: 'chains' })],
    [123456],
  ],
  releaseWork: [() => [work({ kind: 'chains' })], [123456]],
  emitWorkload: [
    [32, 16, 8, 'f32'],
    [32, 16, 8, 'i7'],
  ],
  analyzeText: [
    ['garbage'],
    [
      'module {\n  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = stablehlo.add %a, %b : tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n',
    ],
  ],
  textBuffer: [[16], [-1], [2.5]],
  textBufferRelease: [() => [core.textBuffer(4).value.handle], [123456]],
  tableStart: [
    ['garbage'],
    () => {
      const text = new TextEncoder().encode('HloModule m\n\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n');
      const b = core.textBuffer(text.length).value;
      b.bytes.set(text);
      return [{ buffer: b.handle }];
    },
    [{ buffer: 123456 }],
    [new TextEncoder().encode('HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT t = f32[4] tanh(p)\n}\n')],
    [42],
  ],
  tableNext: [
    () => [
      core.tableStart('HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT t = f32[4] tanh(p)\n}\n').value
        .handle,
      4096,
    ],
    [123456, 4096],
  ],
  tableRelease: [
    () => [core.tableStart('HloModule m\n\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n').value.handle],
    [123456],
  ],
  analyzeTextColumns: [
    ['garbage'],
    ['HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT t = f32[4] tanh(p)\n}\n'],
    [
      'HloModule big\n\nENTRY e {\n  a = f32[4096,4096] parameter(0)\n  ROOT d = f32[4096,4096] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n',
    ],
  ],
  fuseText: [
    ['garbage'],
    [
      'module {\n  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n    %0 = stablehlo.add %a, %b : tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n',
    ],
    [
      'HloModule m\n\nENTRY e {\n  p = f32[4] parameter(0)\n  n = f32[4] negate(p)\n  ROOT t = f32[4] tanh(n)\n}\n',
      { dot_epilogues: false },
    ],
    ['x', { dot_epilogues: 1 }],
  ],
  heapBytes: [[]],
  notebook: [
    ["import numpy as np\nprint(np.array([1.0, 2.5]), {'a': 2 ** 70})\n"],
    ['x = 1 // 0\n', { filename: 'cell.py', maxSteps: 1000 }],
    ['while True:\n    pass\n', { maxSteps: 100 }],
    ['x = (\n'],
    [5],
    ['', { maxSteps: 0 }],
  ],
  notebookSession: [[], [{ maxSteps: 1000 }], [{ maxSteps: 0 }]],
  notebookRunCell: [
    () => [session(), 'x = 2\nprint(x)\n', 1],
    () => [session(), 'y = (\n', 2],
    () => [session(), '1 // 0\n', 3],
    () => [session(), 'x = 1\n', 0],
    [987654, 'x = 1\n', 1],
    () => [session(), 5, 1],
  ],
  notebookReset: [() => [session()], [987654]],
  notebookRelease: [() => [session()], [987654]],
  notebookCells: [['import numpy as np\n\nx = 1\n'], [''], [5]],
  lower: [
    [
      'import jax\nimport jax.numpy as jnp\ndef f(x):\n    return jax.nn.relu(x), x.T\njax.jit(f).lower(jnp.zeros((2, 3)))\n',
    ],
    ['x = (', { entry: 'f' }],
    [42],
    ['x = 1\n', { entry: 3 }],
  ],
  runText: [
    [
      'func.func @main() -> tensor<2xf32> {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %b = stablehlo.add %a, %a : tensor<2xf32>\n  stablehlo.custom_call @check.expect_close(%b, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n  return %b : tensor<2xf32>\n}\n',
      { time_ops: true },
    ],
    ['func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n', { inputs: 'arange' }],
    ['garbage'],
    ['func.func @main() -> () {\n  "x.y"() : () -> ()\n  return\n}\n'],
    ['x', { inputs: 'sideways' }],
  ],
  runTextNpy: [
    [
      'func.func @main(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xbf16>) {\n  %b = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xbf16>\n  return %a, %b : tensor<2xf32>, tensor<2xbf16>\n}\n',
      {
        args: [
          {
            name: 'a.npy',
            bytes: npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", new Float32Array([1, 2])),
          },
        ],
      },
    ],
    [
      'func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n',
      { args: [{ name: 'a.npy', bytes: new Uint8Array(3) }] },
    ],
    ['x', { args: 'a.npy' }],
    ['garbage'],
  ],
  roofline: [
    [
      {
        roofs: [
          { peak: 100, bandwidth: 20, interconnect: null },
          { peak: 989400, bandwidth: 3350, interconnect: 450 },
        ],
        flops: [8192, 0],
        bytes: [3584, 0],
        totals: { flops: 8192, bytes_accessed: 5632, collective_bytes: 9e9 },
        range: [0.01, 1e4],
      },
    ],
    [
      {
        roofs: [{ peak: 100, bandwidth: 20 }],
        flops: [8192, 0, 4],
        bytes: [3584, 64, 0],
        seconds: [2e-6, NaN, 1e-9],
        measured_seconds: 3e-6,
        totals: { flops: 8196, bytes_accessed: 3648 },
        range: [0.01, 1e4],
      },
    ],
    [{ roofs: [{ peak: 100, bandwidth: 20 }], flops: [1], bytes: [1], seconds: [0], range: [0.01, 1e4] }],
    [{ roofs: [] }],
  ],
  exampleModules: [[]],
  generateExercises: [
    ['alice', 5, undefined],
    ['alice', 2, ['read_ir']],
    ['alice', 0, undefined],
  ],
  exerciseFamilies: [[]],
  checkAnswer: [
    ['alice', 5, undefined, 0, 'work', '27648'],
    ['alice', 5, undefined, 9, 'work', '1'],
  ],
  checkQuestion: [
    [{ kind: 'choice', choices: ['memory-bound', 'compute-bound'], exact: 'memory-bound' }, 'memory'],
    [null, 'x'],
  ],
  gradebook: [
    [
      [
        { name: 'a.json', text: '{}' },
        {
          name: 'b.json',
          text: JSON.stringify({
            kind: 'roofline-lab classroom results',
            version: 2,
            seed: 's',
            student: 'Ann',
            count: 1,
            families: 'all',
            questions: [
              {
                exercise: 1,
                question: 'work',
                attempts: 1,
                hints_used: 1,
                solution_opened: true,
                history: [{ answer: '1', at: 't' }],
              },
            ],
          }),
        },
      ],
    ],
    [[], { seed: 's', count: 1 }],
    [[{ name: 'x', text: '', size: 9e9 }], { seed: 's', count: 2, families: ['bound'] }],
    ['nope'],
    [[{ name: 1 }]],
    [[], { seed: 's', count: 1, families: ['vibes'] }],
  ],
  moodleXml: [
    ['s', 2, ['bound']],
    ['s', 0, undefined],
  ],
  embindCalls: [[]],
  trapped: [[]],
};

describe('web/roofline-lab.d.ts: the core', () => {
  test('declares every function the core has, and the bindings register no other', () => {
    const declared = Object.keys(interfaceOf(dts, 'Core').methods).sort();
    assert.deepEqual(Object.keys(core).sort(), declared);
    for (const name of registered)
      assert.ok(declared.includes(name), `${name} is registered in bindings.cpp but not declared`);
    assert.deepEqual(Object.keys(CALLS).sort(), declared, 'every declared function is called below');
  });

  test('cpp/bindings/README.md names every function the bindings register', () => {
    const readme = readFileSync(join(ROOT, 'cpp', 'bindings', 'README.md'), 'utf8');
    for (const name of registered)
      assert.match(readme, new RegExp(`\\| \`${name}\` \\|`), `${name} is not in the README's table`);
    assert.ok(registered.length >= 20, `${registered.length} functions registered`);
  });

  test('every value the core returns fits its declared type, refusals included', () => {
    const methods = interfaceOf(dts, 'Core').methods;
    for (const [name, calls] of Object.entries(CALLS)) {
      for (const made of calls) {
        const args = typeof made === 'function' ? made() : made;
        const value = core[name](...args);
        const problems = check(
          dts,
          value,
          methods[name].returns,
          `${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`.slice(0, 120),
        );
        assert.deepEqual(problems, [], problems.join('\n'));
      }
    }
  });

  test('a checker that could fail: undeclared keys, wrong types and missing members are found', () => {
    assert.match(
      check(
        dts,
        { ok: true, value: { ridge: 5, rows: [], extra: 1 } },
        { kind: 'generic', name: 'CoreResult', args: [{ kind: 'ref', name: 'Ceilings' }] },
      ).join('\n'),
      /extra: not declared/,
    );
    assert.match(
      check(dts, { intensity: 1, bandwidth_ceiling: 2, ceiling: 2, bound: 'fast' }, 'Ceiling').join('\n'),
      /bound/,
    );
    assert.match(check(dts, { m: 1 }, 'Contraction').join('\n'), /k: missing/);
    assert.match(
      check(
        dts,
        { ok: true, value: [0.5] },
        { kind: 'generic', name: 'CoreResult', args: [{ kind: 'ref', name: 'Float32Array' }] },
      ).join('\n'),
      /Float32Array/,
    );
  });

  test('the lesson report as the page and the CLI hold it, with measured roofs and verdicts apart', () => {
    const measurements = {
      bigger_size_timing: { m: 256, k: 256, n: 256, gflops: 12.5 },
      measured_ceilings: { gflops: 40, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } },
    };
    const built = buildLesson(
      core,
      { dtype: 'f16' },
      { measured: measuredForReport(measurements), answers: { ratio: '24/7' } },
    );
    assert.ok(built.ok);
    fits(built.report, 'LessonReport');
    fits(built.measured, 'MeasuredRoofline');
    fits(built.check, {
      kind: 'generic',
      name: 'Record',
      args: [
        { kind: 'builtin', name: 'string' },
        { kind: 'ref', name: 'Verdict' },
      ],
    });
    fits(buildLesson(core, { itemsize: 3 }).report, 'LessonReport');
  });

  test('measurements on 1 core and on all cores, and the roofline the report draws from them', () => {
    const one = {
      gflops: 40,
      bandwidth_gbs: { l1: 200, l2: 100, memory: 10 },
      working_set_bytes: { l1: 24576, l2: 196608, memory: 100663296 },
    };
    const two = {
      gflops: 80,
      bandwidth_gbs: { l1: 400, l2: 200, memory: 16 },
      working_set_bytes: { l1: 24576, l2: 196608, memory: 50331648 },
    };
    const timing = (size, cores, gflops) => ({
      cores,
      variant: 'v',
      m: size,
      k: size,
      n: size,
      seconds_per_call: [1e-3],
      median: 1e-3,
      min: 1e-3,
      max: 1e-3,
      repeats: 10,
      timer_resolution: 1e-6,
      target_sample_seconds: 1e-4,
      recalibrations: 0,
      gflops,
      speedup: cores === 1 ? 1 : 1.9,
      efficiency: cores === 1 ? 1 : 0.95,
    });
    const measurements = {
      measurements_label: 'measurements of this machine',
      local_samples_seconds: [1e-6],
      timing: {
        variant: 'v',
        median: 1e-6,
        min: 1e-6,
        max: 1e-6,
        repeats: 100,
        timer_resolution: 1e-6,
        target_sample_seconds: 1e-4,
        recalibrations: 0,
        warm_seconds: 1e-3,
        gflops: 8,
        note: 'n',
      },
      bigger_size_timing: {
        variant: 'v',
        m: 256,
        k: 256,
        n: 256,
        cores: 1,
        median: 1e-3,
        min: 1e-3,
        max: 1e-3,
        repeats: 10,
        timer_resolution: 1e-6,
        gflops: 12.5,
      },
      kernel_timings: [timing(256, 1, 12.5), timing(256, 2, 24), timing(512, 1, 13), timing(512, 2, 25)],
      measured_ceilings: { ...one, cores: [1, 2], by_cores: { 1: one, 2: two }, method: 'fork–join' },
      workers: { requested: 2, hardware_cores: 2, all_cores: 2, all_cores_error: null },
    };
    fits(measurements, 'Measurements');
    const built = buildLesson(core, {}, { measured: measuredForReport(measurements) });
    assert.ok(built.ok, built.error);
    fits(built.measured, 'MeasuredRoofline');
    assert.deepEqual(
      built.measured.layers.map((l) => [l.cores, l.roofs.length, l.points.length]),
      [
        [1, 3, 2],
        [2, 3, 2],
      ],
    );
  });
});
