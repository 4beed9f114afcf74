// The analyze view's roofline: one point per top-level op (per fusion for optimized HLO), sized
// by its bytes, the program's point, and the chosen roof (or every roof). Log–log. Draws what
// web/model/analysis_view.js and web/model/roofs.js prepare; a click on a point reports it.
//
//   const figure = createAnalysisFigure(canvas, {onSelect: (index) => …});
//   figure.render({points, program, roofs: [{label, kind, curve, primary}], selected});
//   figure.series();  // [{role, label, points: [[x, y], …], indices?}] (tests, rooflineLab.analysisSeries())
//   figure.png(); figure.destroy(); figure.restyle();
import { chartOptions } from './axes.js';
import { exact, prefersDark, scatterChart } from './chart_common.js';

const PALETTES = {
  light: {
    background: '#ffffff', text: '#1d2430', grid: '#d8dce6', ops: 'rgba(0, 121, 107, 0.55)', opsEdge: '#00695c',
    program: '#c62828', selected: '#d84315', roof: '#1d2430', other: ['#1565c0', '#7b1fa2', '#2e7d32', '#827717', '#6d4c41'],
  },
  dark: {
    background: '#161a22', text: '#e6e9f0', grid: '#3a4150', ops: 'rgba(77, 182, 172, 0.55)', opsEdge: '#80cbc4',
    program: '#ef9a9a', selected: '#ffab91', roof: '#f2f4f8', other: ['#64b5f6', '#ce93d8', '#81c784', '#dce775', '#bcaaa4'],
  },
};

const DASH = { hypothetical: [2, 3], measurement: [3, 3, 12, 3], specification: [] };

function datasets(state, palette) {
  const sets = [];
  let other = 0;
  for (const roof of state.roofs) {
    const color = roof.primary ? palette.roof : palette.other[other++ % palette.other.length];
    sets.push({
      role: roof.primary ? 'roof' : 'other roof', label: roof.label, data: roof.curve.map((p) => ({ ...p })), showLine: true,
      borderColor: color, backgroundColor: color, borderWidth: roof.primary ? 3 : 1.5, borderDash: DASH[roof.kind] ?? [],
      pointRadius: 0, pointHoverRadius: 3, pointHitRadius: 4, kind: roof.kind,
    });
  }
  sets.push({
    role: 'ops', label: 'ops (size: bytes accessed)', data: state.points, showLine: false,
    backgroundColor: palette.ops, borderColor: palette.opsEdge, borderWidth: 1,
    pointRadius: state.points.map((p) => p.r), pointHoverRadius: state.points.map((p) => p.r + 2),
  });
  if (state.program) {
    sets.push({
      role: 'program', label: 'the whole program', data: [{ ...state.program }], showLine: false,
      backgroundColor: palette.program, borderColor: palette.program, pointStyle: 'rectRot', pointRadius: 9, pointHoverRadius: 11,
    });
  }
  const sel = state.points.find((p) => p.index === state.selected);
  if (sel) {
    sets.push({
      role: 'selected', label: `selected: line ${sel.line}`, data: [{ ...sel }], showLine: false,
      backgroundColor: 'transparent', borderColor: palette.selected, borderWidth: 3, pointRadius: sel.r + 5, pointHoverRadius: sel.r + 5,
    });
  }
  return sets;
}

function bounds(state) {
  const xs = [...state.points.map((p) => p.x), ...(state.program ? [state.program.x] : [])];
  const ys = [...state.points.map((p) => p.y), ...(state.program ? [state.program.y] : [])];
  for (const r of state.roofs) for (const p of r.curve) ys.push(p.y);
  const pos = (a) => a.filter((v) => v > 0 && Number.isFinite(v));
  const x = pos(xs);
  const y = pos(ys);
  return {
    xmin: x.length ? Math.min(...x) / 2 : 0.01, xmax: x.length ? Math.max(...x) * 2 : 100,
    ymin: y.length ? Math.min(...y) / 2 : 0.01, ymax: y.length ? Math.max(...y) * 1.6 : 100,
  };
}

function tooltipLabel(ctx) {
  const d = ctx.dataset;
  const p = ctx.raw;
  if (d.role === 'ops' || d.role === 'selected') {
    return `line ${p.line} ${p.op}: ${exact(p.x)} flops/byte, ${p.flops} flops, ${p.bytes} bytes; ceiling ${exact(p.y)} GFLOP/s${p.bound ? `, ${p.bound}` : ''}`;
  }
  if (d.role === 'program') return `the program: ${exact(p.x)} flops/byte; ceiling ${exact(p.y)} GFLOP/s`;
  return `${d.label}: ${exact(p.y)} GFLOP/s at ${exact(p.x)} flops/byte`;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{onSelect?: (index: number) => void, dark?: () => boolean}} [env]
 */
export function createAnalysisFigure(canvas, env = {}) {
  const dark = env.dark ?? prefersDark;

  function options(state, palette) {
    const b = bounds(state);
    return chartOptions(palette, {
      x: { title: 'operations per byte (flops / bytes accessed)', min: b.xmin, max: b.xmax },
      y: { title: 'ceiling under the roof (GFLOP/s)', min: b.ymin, max: b.ymax },
      label: tooltipLabel,
      onClick: (_event, elements, c) => {
        const hit = elements.find((e) => ['ops', 'selected'].includes(c.data.datasets[e.datasetIndex].role));
        if (hit && env.onSelect) env.onSelect(c.data.datasets[hit.datasetIndex].data[hit.index].index);
      },
    });
  }

  const holder = scatterChart(canvas, PALETTES, dark, (state, palette) => ({
    datasets: datasets(state, palette), options: options(state, palette),
  }));

  /** The drawn datasets as plain data; op points carry the op's index in the summary. */
  function series() {
    if (!holder.chart) return [];
    return holder.chart.data.datasets.map((d) => ({
      role: d.role, label: d.label, points: d.data.map((p) => [p.x, p.y]),
      ...(d.role === 'ops' || d.role === 'selected' ? { indices: d.data.map((p) => p.index) } : {}),
    }));
  }

  /** Where a point of op `index` is on the canvas (CSS pixels), for tests and keyboard users. */
  function pixelOf(index) {
    if (!holder.chart) return null;
    const di = holder.chart.data.datasets.findIndex((d) => d.role === 'ops');
    if (di < 0) return null;
    const pi = holder.chart.data.datasets[di].data.findIndex((p) => p.index === index);
    if (pi < 0) return null;
    const el = holder.chart.getDatasetMeta(di).data[pi];
    return { x: el.x, y: el.y };
  }

  return { render: holder.render, destroy: holder.destroy, restyle: holder.restyle, series, pixelOf, png: holder.png };
}
