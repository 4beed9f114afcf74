// The page's state and its URL hash: the pure hash codec (no core), and the state functions
// through the real wasm core (dist/roofline-core.js), as the page uses them.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { decodeHash, encodeHash, HASH_KEYS, MAX_VALUE_LENGTH } from '../../web/model/hash.js';
import { setRunChoice } from '../../web/analyze_state.js';
import {
  applyHash,
  applyLink,
  applyPartial,
  createState,
  hashOf,
  publicState,
  resetInputs,
  setInput,
  setMeasurements,
  setShow,
  TRAFFIC_FACTOR_RANGE,
} from '../../web/state.js';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';

// The lesson's dtypes and their itemsize, written out (the page reads them from the core:
// lessonDefaults().dtypes, checked against this below).
const ITEMSIZE_OF_DTYPE = { f32: 4, bf16: 2, f16: 2, f64: 8 };
const SEED_TEXT = {
  m: '32',
  k: '16',
  n: '8',
  dtype: 'f32',
  itemsize: '4',
  sizes: '8,16,32,64,128',
  peak: '100',
  bandwidth: '20',
  traffic_factor: '2',
};

describe('the URL hash codec', () => {
  test('encodes every field in a fixed order, leaving out an itemsize the dtype implies', () => {
    assert.equal(
      encodeHash(SEED_TEXT, ITEMSIZE_OF_DTYPE),
      'm=32&k=16&n=8&dtype=f32&peak=100&bandwidth=20&factor=2&sizes=8,16,32,64,128',
    );
    assert.equal(
      encodeHash({ ...SEED_TEXT, dtype: '', itemsize: '3' }, ITEMSIZE_OF_DTYPE),
      'm=32&k=16&n=8&itemsize=3&peak=100&bandwidth=20&factor=2&sizes=8,16,32,64,128',
    );
    assert.equal(encodeHash({ m: 'a&b=c' }), 'm=a%26b%3Dc');
  });

  test('decodes what it encodes', () => {
    const { values, notices } = decodeHash(`#${encodeHash(SEED_TEXT, ITEMSIZE_OF_DTYPE)}`);
    assert.deepEqual(notices, []);
    const { itemsize, ...rest } = SEED_TEXT;
    assert.deepEqual(values, rest);
    assert.deepEqual(decodeHash('#m=a%26b%3Dc').values, { m: 'a&b=c' });
    assert.deepEqual(decodeHash('dtype=bf16&factor=4').values, { dtype: 'bf16', traffic_factor: '4' });
  });

  test('an empty hash is nothing to do', () => {
    for (const h of ['', '#', undefined, null, 42])
      assert.deepEqual(decodeHash(h), {
        values: {},
        notices: [],
        classroom: null,
        write: null,
        run: null,
        notebook: null,
      });
  });

  test('never throws on a bad hash: what it cannot read is explained', () => {
    const { values, notices } = decodeHash(
      `#m=%E0%A4%A&zzz=1&k&n=4&n=5&&peak=${'9'.repeat(MAX_VALUE_LENGTH + 1)}&__proto__=1`,
    );
    assert.deepEqual(values, { n: '5' });
    assert.equal(notices.length, 6, notices.join('\n'));
    assert.match(notices[0], /not valid URL encoding/);
    assert.match(notices[1], /ignored "zzz" in the link: not one of m, k, n/);
    assert.match(notices[2], /"k" in the link: it has no value/);
    assert.match(notices[3], /n appears twice/);
    assert.match(notices[4], /longer than 200 characters/);
    assert.match(notices[5], /ignored "__proto__"/);
    assert.equal(Object.keys(HASH_KEYS).includes('factor'), true);
  });
});

describe("section 8's run choice in the URL hash (#fuse=ops)", () => {
  test("decodes the run's key raw, apart from the lesson's fields", () => {
    const d = decodeHash('#m=64&fuse=ops');
    assert.deepEqual(d.values, { m: '64' });
    assert.deepEqual(d.run, { fuse: 'ops' });
    assert.deepEqual(d.notices, []);
    assert.equal(decodeHash('#m=64').run, null);
    assert.deepEqual(decodeHash('#fuse=ops&fuse=fused').run, { fuse: 'fused' });
    assert.match(decodeHash('#fuse=ops&fuse=fused').notices[0], /fuse appears twice in the link; the last one is used/);
    assert.match(decodeHash('#zzz=1').notices[0], /not one of .*, py, fuse, notebook$/);
    assert.deepEqual(decodeHash('#notebook&m=64').notebook, { notebook: '' });
    assert.deepEqual(decodeHash('#notebook&m=64').notices, []);
  });
});

describe('page state with the core', () => {
  let core;
  before(async () => {
    core = await loadNodeCore();
  });

  test('starts from the seed, with a hash of the seed', () => {
    const s = createState(core);
    assert.deepEqual(s.defaults.dtypes, ITEMSIZE_OF_DTYPE);
    assert.deepEqual(s.defaults.dtype_of_itemsize, { 2: 'bf16', 4: 'f32', 8: 'f64' });
    assert.deepEqual(s.inputs, SEED_TEXT);
    assert.equal(hashOf(s), 'm=32&k=16&n=8&dtype=f32&peak=100&bandwidth=20&factor=2&sizes=8,16,32,64,128');
    assert.deepEqual(publicState(s), {
      m: 32,
      k: 16,
      n: 8,
      dtype: 'f32',
      itemsize: 4,
      sizes: [8, 16, 32, 64, 128],
      peak: 100,
      bandwidth: 20,
      traffic_factor: 2,
      showMeasuredRoof: false,
      showMeasuredPoint: false,
      showAllCoresRoof: false,
      showAllCoresPoint: false,
      error: null,
    });
  });

  test('the dtype sets the itemsize and the StableHLO element type; an itemsize picks a dtype', () => {
    let s = createState(core);
    for (const [dtype, size] of Object.entries({ f32: 4, bf16: 2, f16: 2, f64: 8 })) {
      s = setInput(core, s, 'dtype', dtype);
      assert.equal(s.inputs.itemsize, String(size));
      assert.equal(s.report.stablehlo.dtype, dtype);
      assert.match(s.report.stablehlo.text, new RegExp(`tensor<32x16x${dtype}>`));
      assert.equal(s.report.matmul_accounting.minimum_bytes, size * (32 * 16 + 16 * 8 + 32 * 8));
    }
    s = setInput(core, s, 'dtype', 'f16');
    s = setInput(core, s, 'itemsize', '2');
    assert.equal(s.inputs.dtype, 'f16', 'a matching itemsize keeps the chosen dtype');
    s = setInput(core, s, 'itemsize', '8');
    assert.equal(s.inputs.dtype, 'f64');
    s = setInput(core, s, 'itemsize', '3');
    assert.equal(s.inputs.dtype, '');
    assert.equal(s.report.stablehlo, null);
    assert.match(hashOf(s), /&itemsize=3&/);
  });

  test("the traffic factor is refused outside 0.25–16 with the page's message; the last report stays", () => {
    let s = createState(core);
    const good = s.report;
    for (const [text, ok] of [
      ['0.25', true],
      ['16', true],
      ['0.2', false],
      ['16.5', false],
      ['1e30', false],
    ]) {
      const next = setInput(core, s, 'traffic_factor', text);
      assert.equal(next.error === null, ok, text);
      if (!ok) {
        assert.deepEqual(next.error, {
          input: 'traffic_factor',
          message: `traffic factor must be from ${TRAFFIC_FACTOR_RANGE.min} to ${TRAFFIC_FACTOR_RANGE.max} on this page, got ${text}`,
        });
        assert.equal(next.report, good);
      }
    }
    s = setInput(core, s, 'traffic_factor', '2');
    assert.deepEqual(
      s.figure.traffic.map((r) => Number(r.revised_ceiling.toFixed(1))),
      [13.3, 26.7, 53.3, 100, 100],
    );
    assert.deepEqual(
      s.figure.traffic.filter((r) => r.bound_changed).map((r) => r.n),
      [32],
    );
  });

  test('every bad value in every field names the field and keeps the last valid report and figure', () => {
    const s = createState(core);
    for (const field of ['m', 'k', 'n', 'itemsize', 'sizes', 'peak', 'bandwidth', 'traffic_factor']) {
      for (const text of ['', '0', '-3', 'NaN', '1e30', 'abc']) {
        const next = setInput(core, s, field, text);
        assert.equal(next.error?.input, field, `${field}=${JSON.stringify(text)}`);
        assert.ok(next.errors[field], `${field}=${JSON.stringify(text)} has an inline message`);
        assert.equal(next.report, s.report);
        assert.equal(next.figure, s.figure);
        assert.deepEqual(next.valid, s.valid);
      }
    }
  });

  test('a bad field and a good one: both are seen, the first is named', () => {
    let s = createState(core);
    s = setInput(core, s, 'm', 'x');
    s = setInput(core, s, 'peak', '');
    assert.equal(s.error.input, 'm');
    assert.deepEqual(Object.keys(s.errors), ['m', 'peak']);
  });

  test('every refused field is marked at once: one the page cannot read does not hide one the core refuses', () => {
    // m = 0 (the core's rule) then peak = x (the page's reading): both marked, m is not quietly 32.
    let s = createState(core);
    s = setInput(core, s, 'm', '0');
    s = setInput(core, s, 'peak', 'x');
    assert.deepEqual(s.errors, { m: 'm must be a positive integer, got 0', peak: 'peak must be a number, got "x"' });
    assert.deepEqual(s.error, { input: 'm', message: 'm must be a positive integer, got 0' });
    // Three the core refuses, each with its own message; the page's range for the factor.
    s = setInput(core, s, 'peak', '-5');
    s = setInput(core, s, 'sizes', '1,000');
    s = setInput(core, s, 'traffic_factor', '0');
    assert.deepEqual(Object.keys(s.errors), ['m', 'sizes', 'peak', 'traffic_factor']);
    assert.equal(
      s.errors.sizes,
      'sizes: entry 2 of 2 must be a positive integer, got 0 (the list is split at commas: write 1000, not 1,000)',
    );
    assert.equal(s.errors.peak, 'peak must be a positive, finite number of GFLOP/s, got -5');
    assert.equal(s.errors.traffic_factor, 'traffic factor must be from 0.25 to 16 on this page, got 0');
    assert.equal(s.params.m, 32, 'the last valid view stays');
    // Fixing one leaves the others marked.
    s = setInput(core, s, 'm', '64');
    assert.deepEqual(Object.keys(s.errors), ['sizes', 'peak', 'traffic_factor']);
  });

  test('a link whose dtype and itemsize disagree keeps the itemsize and says the dtype was ignored', () => {
    const base = createState(core);
    let s = applyHash(core, base, '#itemsize=3&dtype=f32');
    assert.equal(s.error, null);
    assert.equal(s.params.itemsize, 3);
    assert.equal(s.valid.dtype, '');
    assert.deepEqual(s.notices, ['ignored dtype="f32" in the link: dtype f32 has itemsize 4, got itemsize 3']);
    s = applyHash(core, base, '#itemsize=2&dtype=f16');
    assert.deepEqual(s.notices, []);
    assert.equal(s.valid.dtype, 'f16');
  });

  test('a link reproduces a view, and a bad value in it is ignored with a notice', () => {
    const base = createState(core);
    let s = applyHash(core, base, '#m=64&k=32&n=16&dtype=bf16&peak=50&bandwidth=40&factor=4&sizes=8,64');
    assert.deepEqual(s.notices, []);
    assert.deepEqual(publicState(s), {
      m: 64,
      k: 32,
      n: 16,
      dtype: 'bf16',
      itemsize: 2,
      sizes: [8, 64],
      peak: 50,
      bandwidth: 40,
      traffic_factor: 4,
      showMeasuredRoof: false,
      showMeasuredPoint: false,
      showAllCoresRoof: false,
      showAllCoresPoint: false,
      error: null,
    });
    assert.equal(s.report.ridge, 50 / 40);
    assert.equal(hashOf(applyHash(core, base, `#${hashOf(s)}`)), hashOf(s));

    s = applyHash(core, base, '#m=0&bandwidth=forty&factor=32&dtype=i8&n=4');
    assert.equal(s.error, null);
    assert.equal(s.params.n, 4);
    assert.equal(s.params.m, 32);
    assert.equal(s.params.bandwidth, 20);
    assert.deepEqual(s.notices, [
      'ignored m="0" in the link: m must be a positive integer, got 0',
      'ignored dtype="i8" in the link: dtype must be one of f32, bf16, f16, f64, got "i8"',
      'ignored bandwidth="forty" in the link: bandwidth must be a number, got "forty"',
      'ignored factor="32" in the link: traffic factor must be from 0.25 to 16 on this page, got 32',
    ]);
  });

  test('the run choice: op by op is written as fuse=ops, fused (the default) is not; a link sets it, a bad value is noticed', () => {
    const seed = createState(core);
    const SEED_HASH = 'm=32&k=16&n=8&dtype=f32&peak=100&bandwidth=20&factor=2&sizes=8,16,32,64,128';
    assert.equal(seed.analyze.runChoice.fuse, true);
    assert.equal(hashOf(seed), SEED_HASH, 'the default is not written');
    const ops = { ...seed, analyze: setRunChoice(seed.analyze, { fuse: false }) };
    assert.equal(hashOf(ops), `${SEED_HASH}&fuse=ops`);
    // Read back from a link: the same choice, no notice, the lesson's fields untouched.
    const linked = applyHash(core, seed, `#${hashOf(ops)}`);
    assert.equal(linked.analyze.runChoice.fuse, false);
    assert.deepEqual(linked.notices, []);
    assert.equal(hashOf(linked), `${SEED_HASH}&fuse=ops`);
    assert.equal(applyHash(core, seed, '#fuse=ops&m=64').inputs.m, '64');
    assert.equal(applyHash(core, ops, '#fuse=fused').analyze.runChoice.fuse, true);
    // Fused as XLA's CPU backend fuses it: fuse=xla-cpu, read back the same; fused again drops it.
    const cpu = { ...seed, analyze: setRunChoice(seed.analyze, { dotEpilogues: false }) };
    assert.equal(hashOf(cpu), `${SEED_HASH}&fuse=xla-cpu`);
    const cpuLinked = applyHash(core, seed, `#${hashOf(cpu)}`);
    assert.equal(cpuLinked.analyze.runChoice.fuse, true);
    assert.equal(cpuLinked.analyze.runChoice.dotEpilogues, false);
    assert.deepEqual(cpuLinked.notices, []);
    assert.equal(applyHash(core, cpuLinked, '#fuse=fused').analyze.runChoice.dotEpilogues, true);
    assert.equal(applyHash(core, cpuLinked, '#fuse=ops').analyze.runChoice.fuse, false);
    // A link without fuse= is the default: fused (as the seed's view with the link's values).
    assert.equal(applyLink(core, linked, '#m=64').analyze.runChoice.fuse, true);
    // Bad values: ignored with a notice naming the key, the values allowed and the value; the run fuses.
    for (const bad of ['yes', '', 'OPS', 'x'.repeat(300)]) {
      const s = applyHash(core, ops, `#m=64&fuse=${bad}`);
      assert.equal(s.analyze.runChoice.fuse, true, bad);
      assert.equal(s.inputs.m, '64');
      assert.equal(s.notices.length, 1, bad);
      assert.match(
        s.notices[0],
        /^ignored fuse="[^"]*" in the link: fuse is one of fused, xla-cpu, ops; the run fuses \(the default\)$/,
      );
      assert.ok(s.notices[0].length < 200);
    }
    assert.match(applyHash(core, seed, '#fuse').notices[0], /ignored fuse="" in the link/);
    // The other run choices are kept.
    const seeded = { ...seed, analyze: setRunChoice(seed.analyze, { seed: 7, inputs: 'arange' }) };
    assert.deepEqual(applyHash(core, seeded, '#fuse=ops').analyze.runChoice, {
      inputs: 'arange',
      seed: 7,
      files: [],
      fuse: false,
      dotEpilogues: true,
      memoryCap: null,
    });
  });

  test('setState-style partials take numbers, arrays and text, and name unknown keys', () => {
    const base = createState(core);
    const { state: s, unknown } = applyPartial(core, base, {
      bandwidth: 40,
      sizes: [8, 16],
      factor: '4',
      showMeasuredRoof: true,
      colour: 'red',
    });
    assert.deepEqual(unknown, ['colour']);
    assert.equal(s.report.ridge, 2.5);
    assert.deepEqual(s.params.sizes, [8, 16]);
    assert.equal(s.params.traffic_factor, 4);
    assert.equal(s.show.measuredRoof, true);
    const bad = applyPartial(core, base, { m: -1 }).state;
    assert.equal(bad.error.message, 'm must be a positive integer, got -1');
    assert.equal(bad.report, base.report);
  });

  test('measurements live in their own part and add measured roofs and a point to the figure only', () => {
    const base = createState(core);
    const measurements = {
      bigger_size_timing: { m: 256, k: 256, n: 256, gflops: 12.5 },
      measured_ceilings: { gflops: 40, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } },
    };
    let s = setMeasurements(core, base, measurements);
    assert.equal(s.report, base.report, "the model's report is untouched");
    assert.equal(s.figure.measured.point.x, 256 / 6);
    assert.equal(s.figure.measured.point.y, 12.5);
    assert.deepEqual(
      s.figure.measured.roofs.map((r) => [r.level, r.ridge]),
      [
        ['l1', 0.2],
        ['l2', 0.4],
        ['memory', 4],
      ],
    );
    for (const roof of s.figure.measured.roofs) {
      for (const p of roof.points) assert.equal(p.y, Math.min(40, roof.gbs * p.x));
    }
    s = setShow(s, 'measuredPoint', true);
    assert.equal(s.show.measuredPoint, true);
    assert.equal(setShow(s, 'nonsense', true), s);
    s = resetInputs(core, setInput(core, s, 'm', '64'));
    assert.equal(s.inputs.m, '32');
    assert.ok(s.figure.measured, 'a reset keeps the measurements');
  });

  test('measurements on 1 core and on all cores give one layer of roofs and kernel points each', () => {
    const base = createState(core);
    const one = { gflops: 40, bandwidth_gbs: { l1: 200, l2: 100, memory: 10 } };
    const two = { gflops: 80, bandwidth_gbs: { l1: 400, l2: 200, memory: 16 } };
    const timing = (size, cores, gflops) => ({ m: size, k: size, n: size, cores, gflops });
    const measurements = {
      bigger_size_timing: timing(256, 1, 12.5),
      kernel_timings: [timing(256, 1, 12.5), timing(256, 2, 24), timing(512, 1, 13), timing(512, 2, 25)],
      measured_ceilings: { ...one, cores: [1, 2], by_cores: { 1: one, 2: two } },
    };
    let s = setMeasurements(core, base, measurements);
    const layers = s.figure.measured.layers;
    assert.deepEqual(
      layers.map((l) => l.cores),
      [1, 2],
    );
    assert.deepEqual(
      layers[1].roofs.map((r) => [r.level, r.gflops, r.gbs, r.ridge]),
      [
        ['l1', 80, 400, 0.2],
        ['l2', 80, 200, 0.4],
        ['memory', 80, 16, 5],
      ],
    );
    for (const roof of layers[1].roofs) for (const p of roof.points) assert.equal(p.y, Math.min(80, roof.gbs * p.x));
    assert.deepEqual(
      layers.map((l) => l.points.map((p) => [p.m, p.x, p.y])),
      [
        [
          [256, 256 / 6, 12.5],
          [512, 512 / 6, 13],
        ],
        [
          [256, 256 / 6, 24],
          [512, 512 / 6, 25],
        ],
      ],
    );
    assert.deepEqual(s.figure.measured.point, { x: 256 / 6, y: 12.5, m: 256, k: 256, n: 256, cores: 1 });
    s = applyPartial(core, s, { showAllCoresRoof: true, showAllCoresPoint: 1 }).state;
    assert.deepEqual(s.show, { measuredRoof: false, measuredPoint: false, allCoresRoof: true, allCoresPoint: true });
    assert.equal(publicState(s).showAllCoresRoof, true);
  });
});
