// What the roofline figure and the experiment's table show, as plain data, read from the lesson's
// report: the lesson's figure (report.figure, unchanged), the ridge, the workload sizes, the
// ceilings with more traffic and, when this machine has been measured, its measured roofs and
// kernel points, one layer per core count measured (1 core, then all cores at once). The core
// computed every number (report.traffic_experiment and revised_roof; the measured roofline next
// to the report, layers included); this only gives them the shape web/figures/ draws. No DOM, no
// core.

/** What the figure's legend calls each bandwidth level of the measured roofs. */
const LEVEL_NAMES = { l1: 'L1', l2: 'L2', memory: 'memory' };

/** A measured roof as the figure draws it: the core's, with its level's name and core count. */
const namedRoof = (roof, cores) => ({ ...roof, name: LEVEL_NAMES[roof.level] ?? roof.level, cores });

/**
 * Everything the figure draws, from a report and this machine's measured roofline.
 * @param {object} report  from buildLesson (web/model/lesson.js)
 * @param {object|null} measured  buildLesson's `measured`: the measured roofs and points per core
 *   count (`layers`), or null. `roofs` and `point` are the 1-core layer's roofs and its headline
 *   (256³) point.
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
      points: traffic.map((r) => ({
        n: r.n,
        x: r.intensity,
        y: r.revised_ceiling,
        bound: r.revised_bound,
        was: r.bound,
        changed: r.bound_changed,
      })),
    },
    traffic,
    measured: measured
      ? {
          layers: measured.layers.map((l) => ({
            cores: l.cores,
            roofs: l.roofs.map((r) => namedRoof(r, l.cores)),
            points: l.points.map((p) => ({ ...p })),
          })),
          roofs: measured.roofs.map((r) => namedRoof(r, 1)),
          point: { ...measured.point },
        }
      : null,
  };
}

/**
 * The lesson figure's y-axis title: what is plotted on it. The core's label ("hypothetical ceiling
 * (GFLOP/s)") while only the model is drawn; with this machine's measured roofs or kernel points
 * on show, those too: a measured roof is no hypothetical ceiling.
 * @param {object} figure  figureModel's value
 * @param {{measuredRoof, measuredPoint, allCoresRoof, allCoresPoint}} show
 */
export function rooflineYTitle(figure, show) {
  const layers = figure.measured?.layers ?? [];
  const shown = (single, roof) =>
    layers.some(
      (l) =>
        (l.cores === 1) === single &&
        (roof
          ? show[single ? 'measuredRoof' : 'allCoresRoof']
          : l.points.length > 0 && show[single ? 'measuredPoint' : 'allCoresPoint']),
    );
  const roofs = shown(true, true) || shown(false, true);
  const points = shown(true, false) || shown(false, false);
  if (!roofs && !points) return figure.lesson.ylabel;
  const measured = [roofs ? 'measured roofs' : '', points ? 'measured tanh(A@B)' : ''].filter(Boolean).join(' and ');
  return `GFLOP/s: hypothetical ceiling, ${measured} (this machine)`;
}
