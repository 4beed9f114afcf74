// What the roofline figure and the experiment's table show, as plain data: the lesson's figure
// (report.figure, unchanged), the ridge, the workload sizes, the ceilings with more traffic and,
// when this machine has been measured, its measured roofs and point. Every value comes from the
// core; nothing here touches the DOM or Chart.js (web/figures/ draws this).

const LEVELS = [['l1', 'L1'], ['l2', 'L2'], ['memory', 'memory']];

function sortedUnique(xs) {
  return [...new Set(xs.filter((x) => Number.isFinite(x) && x > 0))].sort((a, b) => a - b);
}

/**
 * The traffic experiment, one row per size: the original and the revised ceiling and bound.
 * @returns {{ok: true, value: {n, intensity, fraction, ceiling, bound, revised_intensity,
 *            revised_ceiling, revised_bound, bound_changed}[]} | {ok: false, error: string}}
 */
export function trafficRows(core, report) {
  const { peak, bandwidth } = report.budgets;
  const rows = core.trafficExperiment(peak, bandwidth, report.intensity, report.traffic_factor);
  if (!rows.ok) return rows;
  return {
    ok: true,
    value: rows.value.map((r, i) => ({
      n: report.sizes[i], intensity: r.original.intensity, fraction: report.intensity_fraction[i],
      ceiling: r.original.ceiling, bound: r.original.bound,
      revised_intensity: r.revised.intensity, revised_ceiling: r.revised.ceiling, revised_bound: r.revised.bound,
      bound_changed: r.bound_changed,
    })),
  };
}

/**
 * This machine's measured roofs (one per bandwidth level) and kernel points, per core count
 * measured (`layers`: 1 core, then all cores), or null. `roofs` and `point` repeat the
 * 1-core layer's roofs and its 256³ point.
 */
export function measuredModel(core, measurements, xs) {
  if (!measurements) return null;
  const c = measurements.measured_ceilings;
  const byCores = c.by_cores ?? { 1: { gflops: c.gflops, bandwidth_gbs: c.bandwidth_gbs } };
  const counts = c.cores ?? [1];
  const timings = measurements.kernel_timings ??
    (measurements.bigger_size_timing ? [{ ...measurements.bigger_size_timing, cores: 1 }] : []);
  const points = [];
  for (const t of timings) {
    // The kernel is f32: a measured point's intensity is the model's, at itemsize 4.
    const contraction = core.contract(t.m, t.k, t.n, 4);
    if (!contraction.ok) return { ok: false, error: contraction.error };
    points.push({ x: contraction.value.intensity, y: t.gflops, m: t.m, k: t.k, n: t.n, cores: t.cores });
  }
  const ridges = counts.flatMap((n) => LEVELS.map(([key]) => byCores[n].gflops / byCores[n].bandwidth_gbs[key]));
  const roofXs = sortedUnique([...xs, ...points.map((p) => p.x), ...ridges]);
  const layers = [];
  for (const n of counts) {
    const v = byCores[n];
    const roofs = [];
    for (const [key, name] of LEVELS) {
      const rows = core.ceilings(v.gflops, v.bandwidth_gbs[key], roofXs);
      if (!rows.ok) return { ok: false, error: rows.error };
      roofs.push({
        level: key, name, cores: n, gflops: v.gflops, gbs: v.bandwidth_gbs[key], ridge: rows.value.ridge,
        points: rows.value.rows.map((r) => ({ x: r.intensity, y: r.ceiling })),
      });
    }
    layers.push({ cores: n, roofs, points: points.filter((p) => p.cores === n) });
  }
  const single = layers.find((l) => l.cores === 1);
  const point = single?.points.find((p) => p.m === 256) ?? single?.points[0] ?? null;
  return { ok: true, value: { layers, roofs: single?.roofs ?? [], point } };
}

/**
 * Everything the figure draws.
 * @returns {{ok: true, value: object} | {ok: false, error: string}}
 */
export function figureModel(core, report, measurements = null) {
  const { peak, bandwidth } = report.budgets;
  const lesson = report.figure;
  const factor = report.traffic_factor;
  const rows = trafficRows(core, report);
  if (!rows.ok) return rows;
  // The revised roof over the same axis (minimum-traffic intensity): min(peak, bandwidth·x/factor),
  // whose corner moves from the ridge to ridge·factor.
  const revisedRidge = report.ridge * factor;
  const curveXs = sortedUnique([...lesson.x, revisedRidge]);
  const curve = core.trafficExperiment(peak, bandwidth, curveXs, factor);
  if (!curve.ok) return curve;
  const measured = measuredModel(core, measurements, lesson.x);
  if (measured && !measured.ok) return measured;
  return {
    ok: true,
    value: {
      lesson,
      budgets: { peak, bandwidth },
      ridge: { x: report.ridge, y: peak },
      sizes: rows.value.map((r) => ({ n: r.n, x: r.intensity, fraction: r.fraction, y: r.ceiling, bound: r.bound })),
      factor,
      revised: {
        curve: curve.value.map((r, i) => ({ x: curveXs[i], y: r.revised.ceiling })),
        ridge: { x: revisedRidge, y: peak },
        points: rows.value.map((r) => ({ n: r.n, x: r.intensity, y: r.revised_ceiling, bound: r.revised_bound, was: r.bound, changed: r.bound_changed })),
      },
      traffic: rows.value,
      measured: measured ? measured.value : null,
    },
  };
}
