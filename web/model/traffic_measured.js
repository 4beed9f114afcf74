// Section 6's "measure it": what the page says about core.measureTraffic's result (a
// TrafficMeasurement, roofline-lab.d.ts). The core measured and predicted everything; this only
// formats it: the table's rows, the summary and the notes that explain a disagreement. Pure, no DOM
// (tests/js/traffic_measured.test.mjs).
import { short } from './format.js';

const ms = (seconds) => `${short(seconds * 1e3, 3)} ms`;
const ratio = (x) => `${short(x, 3)}×`;

/**
 * What the factor changes in a workload, from its counts at 1× and at the factor: the bytes always
 * grow; the flops grow with them (memory-bound: work per read) or stay (compute-bound), and so the
 * flops per byte stay or fall. "bytes ×2, flops ×2: 0.5 flops per byte stays", "bytes ×2, flops ×1: 32 → 16".
 */
export function trafficChange(w) {
  const p = w.predicted;
  const times = (a, b) => `×${short(b / a, 3)}`;
  const counts = `bytes ${times(w.once.bytes, w.factor.bytes)}, flops ${times(w.once.flops, w.factor.flops)}`;
  return p.intensity === p.factor_intensity
    ? `${counts}: ${short(p.intensity, 3)} stays`
    : `${counts}: ${short(p.intensity, 3)} → ${short(p.factor_intensity, 3)}`;
}

/** The table's rows: [workload, what the factor changes, bound, time at 1×, time at the factor, measured, predicted, measured ÷ predicted]. */
export function trafficMeasuredRows(m) {
  return m.workloads.map((w) => {
    const p = w.predicted;
    const bound = p.bound === p.factor_bound ? p.bound : `${p.bound} → ${p.factor_bound}`;
    return [
      w.name,
      trafficChange(w),
      bound,
      ms(w.once.median),
      ms(w.factor.median),
      [ratio(w.measured_ratio), 'measured'],
      ratio(p.time_ratio),
      [`${short(w.agreement, 3)} (${w.verdict})`, w.verdict === 'agrees' ? '' : 'changed'],
    ];
  });
}

/** The sentence above the table: what was measured, how, and the roofs the prediction used. */
export function trafficMeasuredSummary(m) {
  const mib = short(m.array_bytes / 1048576, 4);
  const factor =
    m.factor === m.factor_asked ? short(m.factor) : `${short(m.factor, 6)} (asked ${short(m.factor_asked)})`;
  return (
    `Measured on this machine at 1× and ${factor}× the reads of a ${mib} MiB array, each chunk read again ` +
    `${m.reread_name}; median of the samples. This machine's roofs as the 1× runs show them: ` +
    `${short(m.roofs.peak_gflops, 3)} GFLOP/s (the compute-bound workload) and ${short(m.roofs.bandwidth_gbs, 3)} GB/s ` +
    `(the memory-bound one), a ridge at ${short(m.roofs.ridge, 3)} flops per byte. A ratio within ` +
    `${short(m.agreement_tolerance * 100)}% of the prediction agrees.`
  );
}

/** One note per workload: what its measurement shows, and why when it disagrees with the model. */
export function trafficMeasuredNotes(m) {
  return m.workloads.map((w) => {
    const head = `${w.name}: measured ${ratio(w.measured_ratio)}, predicted ${ratio(w.predicted.time_ratio)}`;
    if (w.verdict === 'agrees') {
      if (w.name === 'memory-bound') return `${head}: the time followed the bytes, as the bandwidth roof says.`;
      return w.predicted.factor_bound === w.predicted.bound
        ? `${head}: the extra bytes hid behind the arithmetic, as the compute roof says.`
        : `${head}: with the extra bytes it crossed the ridge (${short(w.predicted.factor_intensity, 3)} flops per byte ` +
            `against ${short(m.roofs.ridge, 3)}), so the bandwidth roof now sets its time, as predicted.`;
    }
    if (w.verdict === 'faster than predicted') {
      return m.reread === 'right-away'
        ? `${head}: faster, because a chunk read again right away is still in the L1 cache. The extra reads were ` +
            'loads, not traffic from memory — and the model counts bytes from memory. Read each chunk again after ' +
            'the whole array to see the prediction hold.'
        : `${head}: faster, because this machine's caches kept part of the ${short(m.array_bytes / 1048576)} MiB array ` +
            '(a large last-level cache, or the prefetcher running ahead), so not every extra read came from memory.';
    }
    return (
      `${head}: slower. The roofline takes the larger of compute time and memory time, as if the two overlapped ` +
      "perfectly; here they partly add up, most near the ridge where both take about as long. The model's time " +
      'is a lower bound. Other work on this machine, or the timer, can slow a run too: measure again to see.'
    );
  });
}

/** Why the results shown are not for the factor now in the field (null when they are). */
export function trafficStaleNote(m, factor) {
  if (!m || factor === null || factor === undefined || factor === m.factor_asked) return null;
  return `Measured at ${short(m.factor_asked)}×; the traffic factor is now ${short(factor)}×: measure again for it.`;
}
