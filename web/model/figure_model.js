// What the roofline figure and the experiment's table show, as plain data, read from the lesson's
// report: the lesson's figure (report.figure, unchanged), the ridge, the workload sizes, the
// ceilings with more traffic and, when this machine has been measured, its measured roofs and
// point. The core computed every number (report.traffic_experiment and revised_roof; the
// measured roofline next to the report); this only gives them the shape web/figures/ draws. No
// DOM, no core.

/** What the figure's legend calls each bandwidth level of the measured roofs. */
const LEVEL_NAMES = { l1: 'L1', l2: 'L2', memory: 'memory' };

/**
 * Everything the figure draws, from a report and this machine's measured roofline.
 * @param {object} report  from buildLesson (web/model/lesson.js)
 * @param {object|null} measured  buildLesson's `measured`: the measured roofs and point, or null
 */
export function figureModel(report, measured = null) {
  const { peak, bandwidth } = report.budgets;
  const traffic = report.traffic_experiment;
  return {
    lesson: report.figure,
    budgets: { peak, bandwidth },
    ridge: { x: report.ridge, y: peak },
    sizes: traffic.map((r) => ({ n: r.n, x: r.intensity, fraction: r.fraction, y: r.ceiling, bound: r.bound })),
    factor: report.traffic_factor,
    revised: {
      curve: report.revised_roof.curve.map((p) => ({ ...p })),
      ridge: { x: report.revised_roof.ridge, y: peak },
      points: traffic.map((r) => ({ n: r.n, x: r.intensity, y: r.revised_ceiling, bound: r.revised_bound, was: r.bound, changed: r.bound_changed })),
    },
    traffic,
    measured: measured
      ? {
        roofs: measured.roofs.map((r) => ({ ...r, name: LEVEL_NAMES[r.level] ?? r.level })),
        point: { ...measured.point },
      }
      : null,
  };
}
