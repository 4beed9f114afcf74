// Section 6's "measure it" in Node: core.measureTraffic's refusals and fields, and what the page
// says about a measurement (web/model/traffic_measured.js): the same object the Worker returns.
// Times are never asserted; only what is derived from them.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import { short } from '../../web/model/format.js';
import {
  trafficMeasuredNotes,
  trafficMeasuredRows,
  trafficMeasuredSummary,
  trafficStaleNote,
} from '../../web/model/traffic_measured.js';

let core;
let measured;
before(async () => {
  core = await loadNodeCore();
  measured = core.measureTraffic(2, { samples: 1 });
});

describe('core.measureTraffic', () => {
  test("measures both workloads at 1× and at the factor, with the exact counts and the model's prediction", () => {
    assert.ok(measured.ok, measured.error);
    const m = measured.value;
    assert.equal(m.factor, 2);
    assert.equal(m.reread, 'after-array');
    assert.equal(m.reread_name, 'after the whole array');
    assert.equal(m.array_bytes, 64 * 1048576);
    assert.deepEqual(
      m.workloads.map((w) => w.name),
      ['memory-bound', 'compute-bound'],
    );
    const [memory, compute] = m.workloads;
    assert.equal(memory.once.bytes, m.array_bytes);
    assert.equal(memory.factor.bytes, 2 * m.array_bytes);
    assert.equal(memory.once.flops, 2 * m.elements); // one multiply-add per element
    assert.equal(compute.once.flops, 2 * 64 * m.elements); // 64 per element
    assert.equal(compute.factor.flops, compute.once.flops); // the work unchanged
    assert.equal(memory.predicted.time_ratio, 2); // work and bytes both doubled
    for (const w of m.workloads) {
      assert.equal(w.measured_ratio, w.factor.median / w.once.median);
      assert.equal(w.agreement, w.measured_ratio / w.predicted.time_ratio);
      assert.equal(w.once.seconds_per_call.length, 1);
      assert.ok(w.once.repeats * w.once.seconds_per_call[0] >= w.once.target_sample_seconds);
    }
    assert.equal(m.roofs.peak_gflops, compute.once.flops / compute.once.median / 1e9);
    assert.equal(m.roofs.bandwidth_gbs, memory.once.bytes / memory.once.median / 1e9);
  });

  test('refuses a factor it cannot measure, an unknown order of reads and bad samples, naming the value', () => {
    const low = core.measureTraffic(0.5);
    assert.equal(low.ok, false);
    assert.equal(low.input, 'traffic factor');
    assert.match(low.error, /^traffic factor to measure must be from 1 to 64 .*got 0\.5$/);
    assert.deepEqual(core.measureTraffic(2, { reread: 'sideways' }), {
      ok: false,
      error: 'reread must be "after-array" or "right-away", got "sideways"',
    });
    assert.deepEqual(core.measureTraffic(2, { samples: 0 }), {
      ok: false,
      error: 'samples must be an integer from 1 to 100, got 0',
    });
    assert.deepEqual(core.measureTraffic(2, 'x'), {
      ok: false,
      error: 'options must be an object {reread?, samples?}, got string',
    });
    assert.equal(core.measureTraffic('2').ok, false);
  });
});

describe('what section 6 says about a measurement', () => {
  test("the table's rows carry the core's numbers, formatted", () => {
    const m = measured.value;
    const rows = trafficMeasuredRows(m);
    assert.equal(rows.length, 2);
    rows.forEach((row, i) => {
      const w = m.workloads[i];
      assert.equal(row[0], w.name);
      assert.equal(row[3], `${short(w.once.median * 1e3, 3)} ms`);
      assert.deepEqual(row[5], [`${short(w.measured_ratio, 3)}×`, 'measured']);
      assert.equal(row[6], `${short(w.predicted.time_ratio, 3)}×`);
      assert.equal(row[7][0], `${short(w.agreement, 3)} (${w.verdict})`);
    });
    // What changes, not "0.5 → 0.5" beside a text that says the traffic grew (issue 22, item 10).
    assert.equal(rows[0][1], 'bytes ×2, flops ×2: 0.5 stays'); // memory-bound: 2 flops per 4 bytes at both
    assert.equal(rows[1][1], 'bytes ×2, flops ×1: 32 → 16'); // compute-bound: 128 flops per 4 bytes, then per 8
  });

  test('the summary names the array, the order of reads and the roofs the prediction used', () => {
    const text = trafficMeasuredSummary(measured.value);
    assert.match(
      text,
      /^Measured on this machine at 1× and 2× the reads of a 64 MiB array, each chunk read again after the whole array;/,
    );
    assert.match(text, new RegExp(`${short(measured.value.roofs.peak_gflops, 3)} GFLOP/s`));
    assert.match(text, /A ratio within 25% of the prediction agrees\./);
  });

  test('each verdict gets its explanation: caches when faster, overlap when slower', () => {
    const m = structuredClone(measured.value);
    const as = (verdict, reread) => {
      const copy = structuredClone(m);
      copy.reread = reread;
      copy.workloads[0].verdict = verdict;
      return trafficMeasuredNotes(copy)[0];
    };
    assert.match(as('agrees', 'after-array'), /^memory-bound: measured .*the time followed the bytes/);
    const crossed = structuredClone(m);
    Object.assign(crossed.workloads[1], { verdict: 'agrees' });
    Object.assign(crossed.workloads[1].predicted, { bound: 'compute-bound', factor_bound: 'compute-bound' });
    assert.match(
      trafficMeasuredNotes(crossed)[1],
      /^compute-bound: .*hid behind the arithmetic, as the compute roof says\.$/,
    );
    crossed.workloads[1].predicted.factor_bound = 'memory-bound';
    assert.match(
      trafficMeasuredNotes(crossed)[1],
      /crossed the ridge \(16 flops per byte against .*the bandwidth roof now sets its time/,
    );
    assert.match(
      as('faster than predicted', 'right-away'),
      /still in the L1 cache.*the model counts bytes from memory/,
    );
    assert.match(as('faster than predicted', 'after-array'), /caches kept part of the 64 MiB array/);
    assert.match(as('slower than predicted', 'after-array'), /as if the two overlapped perfectly.*lower bound/);
    assert.equal(trafficMeasuredNotes(m).length, 2);
  });

  test('results for another factor are marked stale, never silently shown as current', () => {
    assert.equal(trafficStaleNote(measured.value, 2), null);
    assert.equal(
      trafficStaleNote(measured.value, 4),
      'Measured at 2×; the traffic factor is now 4×: measure again for it.',
    );
    assert.equal(trafficStaleNote(null, 4), null);
  });
});
