// The analyze view's roofline: one point per top-level op (per fusion for optimized HLO), sized
// by its bytes, the program's point, and the chosen roof (or every roof). Log–log. Draws what
// web/model/analysis_view.js and web/model/roofs.js prepare; a click on a point reports it.
//
//   const figure = createAnalysisFigure(canvas, {onSelect: (index) => …});
//   figure.render({points, program, roofs: [{label, kind, curve, primary}], selected, measured?, fusions?,
//                  selectedFusion?});
//     measured: a run's points [{x, y: achieved GFLOP/s, ceiling, index, line, op, seconds, ofRoof}],
//     drawn as measurements (triangles), each joined to its estimated point by a thin line
//     fusions: a fused run's {estimated: [{x, y: ceiling, fusion, name, kind, ops, …}], measured:
//     [{x, y: achieved GFLOP/s, ceiling, seconds, …}]} (web/model/analysis_view.js fusionPoints):
//     each fusion's estimate (an open square) and measurement (a triangle of its own colour),
//     joined; selectedFusion: the fusion whose point and ops' points are ringed
//   figure.series();  // [{role, label, points: [[x, y], …], indices?, fusions?}] (tests, rooflineLab.analysisSeries())
//   figure.png(); figure.destroy(); figure.restyle();
import { ScatterController } from 'chart.js';
import { analysisYTitle, fusedOpsText } from '../model/analysis_view.js';
import { chartOptions, drawKey, KEY_HEIGHT, KEY_WIDTH, legendKey } from './axes.js';
import { Chart, exact, prefersDark, scatterChart } from './chart_common.js';

/**
 * The ops' scatter. Each point has its own radius (by bytes), so Chart.js resolves every point's
 * options as it lays them out; its way of finding how far points overflow the plot resolved them
 * all a second time. The largest radius is in the data: that pass reads it there instead.
 */
class OpsScatterController extends ScatterController {
  static id = 'opsScatter';

  getMaxOverflow() {
    const d = this.getDataset();
    let r = 0;
    for (const p of d.data) if (p.r > r) r = p.r;
    return r > 0 && r + (d.borderWidth ?? 0);
  }
}
Chart.register(OpsScatterController);

export const PALETTES = {
  light: {
    background: '#ffffff',
    text: '#1d2430',
    grid: '#d8dce6',
    ops: 'rgba(0, 121, 107, 0.55)',
    opsEdge: '#00695c',
    program: '#c62828',
    selected: '#d84315',
    roof: '#1d2430',
    measured: '#1b5e20',
    fusion: '#4527a0',
    other: [
      '#1565c0',
      '#7b1fa2',
      '#2e7d32',
      '#827717',
      '#6d4c41',
      '#c2185b',
      '#00838f',
      '#e65100',
      '#546e7a',
      '#283593',
    ],
  },
  dark: {
    background: '#161a22',
    text: '#e6e9f0',
    grid: '#3a4150',
    ops: 'rgba(77, 182, 172, 0.55)',
    opsEdge: '#80cbc4',
    program: '#ef9a9a',
    selected: '#ffab91',
    roof: '#f2f4f8',
    measured: '#c5e1a5',
    fusion: '#b39ddb',
    other: [
      '#64b5f6',
      '#ce93d8',
      '#81c784',
      '#dce775',
      '#bcaaa4',
      '#f48fb1',
      '#4dd0e1',
      '#ffb74d',
      '#b0bec5',
      '#9fa8da',
    ],
  },
};

/** The thin lines from an estimate to its measurement: drawn, but not in the legend. */
const LINKS = new Set(['link', 'fusion link']);

const DASH = { hypothetical: [2, 3], measurement: [3, 3, 12, 3], specification: [] };

/**
 * The colour and dash of the i-th roof other than the chosen one: each roof its own pair. The
 * colours go round once with the dash of the roof's kind; the next round adds a long dash to it.
 */
export function otherRoofStyle(i, kind, palette) {
  const n = palette.other.length;
  const dash = DASH[kind] ?? [];
  return { color: palette.other[i % n], dash: i < n ? dash : [...dash, 9, 3] };
}

function datasets(state, palette) {
  const sets = [];
  let other = 0;
  for (const roof of state.roofs) {
    const style = roof.primary
      ? { color: palette.roof, dash: DASH[roof.kind] ?? [] }
      : otherRoofStyle(other++, roof.kind, palette);
    const color = style.color;
    sets.push({
      role: roof.primary ? 'roof' : 'other roof',
      label: roof.label,
      data: roof.curve.map((p) => ({ ...p })),
      showLine: true,
      borderColor: color,
      backgroundColor: color,
      borderWidth: roof.primary ? 3 : 1.5,
      borderDash: style.dash,
      pointRadius: 0,
      pointHoverRadius: 3,
      pointHitRadius: 4,
      kind: roof.kind,
    });
  }
  sets.push({
    type: OpsScatterController.id,
    role: 'ops',
    label: 'ops (size: bytes accessed)',
    data: state.points,
    showLine: false,
    backgroundColor: palette.ops,
    borderColor: palette.opsEdge,
    borderWidth: 1,
    pointRadius: state.points.map((p) => p.r),
    pointHoverRadius: state.points.map((p) => p.r + 2),
  });
  const measured = state.measured ?? [];
  if (measured.length) {
    // A thin line from each op's estimated ceiling to its measured point (null breaks the line).
    const link = [];
    for (const m of measured) {
      if (m.ceiling > 0) link.push({ x: m.x, y: m.ceiling }, { x: m.x, y: m.y }, { x: m.x, y: null });
    }
    sets.push({
      role: 'link',
      label: 'estimate → measurement',
      data: link,
      showLine: true,
      spanGaps: false,
      borderColor: palette.measured,
      borderWidth: 1,
      pointRadius: 0,
      pointHoverRadius: 0,
      pointHitRadius: 0,
    });
    sets.push({
      role: 'measured',
      label: 'measurement: achieved on this machine',
      data: measured.map((p) => ({ ...p })),
      showLine: false,
      backgroundColor: palette.measured,
      borderColor: palette.measured,
      pointStyle: 'triangle',
      pointRadius: 5,
      pointHoverRadius: 7,
    });
  }
  const fusions = state.fusions ?? { estimated: [], measured: [] };
  if (fusions.estimated.length) {
    sets.push({
      role: 'fusion',
      label: 'fusions that ran (estimate at their fused bytes)',
      data: fusions.estimated.map((p) => ({ ...p })),
      showLine: false,
      backgroundColor: 'transparent',
      borderColor: palette.fusion,
      borderWidth: 2,
      pointStyle: 'rect',
      pointRadius: 7,
      pointHoverRadius: 9,
    });
  }
  if (fusions.measured.length) {
    const link = [];
    for (const m of fusions.measured)
      if (m.ceiling > 0) link.push({ x: m.x, y: m.ceiling }, { x: m.x, y: m.y }, { x: m.x, y: null });
    sets.push({
      role: 'fusion link',
      label: 'fusion: estimate → measurement',
      data: link,
      showLine: true,
      spanGaps: false,
      borderColor: palette.fusion,
      borderWidth: 1,
      borderDash: [4, 3],
      pointRadius: 0,
      pointHoverRadius: 0,
      pointHitRadius: 0,
    });
    sets.push({
      role: 'measured fusion',
      label: 'measurement: a fusion, achieved on this machine',
      data: fusions.measured.map((p) => ({ ...p })),
      showLine: false,
      backgroundColor: palette.fusion,
      borderColor: palette.fusion,
      pointStyle: 'triangle',
      pointRadius: 6,
      pointHoverRadius: 8,
    });
  }
  const selFusion = fusions.estimated.find((p) => p.fusion === state.selectedFusion);
  if (state.selectedFusion !== null && state.selectedFusion !== undefined) {
    // The selected fusion's own point and its ops' points, ringed.
    const members = new Set(state.fusionOps ?? []);
    const ringed = [
      ...(selFusion ? [{ ...selFusion, r: 7 }] : []),
      ...state.points.filter((p) => members.has(p.index)).map((p) => ({ ...p })),
    ];
    if (ringed.length) {
      sets.push({
        role: 'selected fusion',
        label: `selected: ${selFusion?.name ?? 'a fusion'} and its ops`,
        data: ringed,
        showLine: false,
        backgroundColor: 'transparent',
        borderColor: palette.selected,
        borderWidth: 3,
        pointRadius: ringed.map((p) => p.r + 5),
        pointHoverRadius: ringed.map((p) => p.r + 5),
      });
    }
  }
  if (state.program) {
    sets.push({
      role: 'program',
      label: 'the whole program',
      data: [{ ...state.program }],
      showLine: false,
      backgroundColor: palette.program,
      borderColor: palette.program,
      pointStyle: 'rectRot',
      pointRadius: 9,
      pointHoverRadius: 11,
    });
  }
  const sel = state.points.find((p) => p.index === state.selected);
  if (sel) {
    sets.push({
      role: 'selected',
      label: `selected: line ${sel.line}`,
      data: [{ ...sel }],
      showLine: false,
      backgroundColor: 'transparent',
      borderColor: palette.selected,
      borderWidth: 3,
      pointRadius: sel.r + 5,
      pointHoverRadius: sel.r + 5,
    });
  }
  return sets;
}

function bounds(state) {
  const xs = [...state.points.map((p) => p.x), ...(state.program ? [state.program.x] : [])];
  const f = state.fusions ?? { estimated: [], measured: [] };
  xs.push(...f.estimated.map((p) => p.x));
  const ys = [
    ...state.points.map((p) => p.y),
    ...(state.program ? [state.program.y] : []),
    ...(state.measured ?? []).map((p) => p.y),
    ...f.estimated.map((p) => p.y),
    ...f.measured.map((p) => p.y),
  ];
  for (const r of state.roofs) for (const p of r.curve) ys.push(p.y);
  const pos = (a) => a.filter((v) => v > 0 && Number.isFinite(v));
  const x = pos(xs);
  const y = pos(ys);
  return {
    xmin: x.length ? Math.min(...x) / 2 : 0.01,
    xmax: x.length ? Math.max(...x) * 2 : 100,
    ymin: y.length ? Math.min(...y) / 2 : 0.01,
    ymax: y.length ? Math.max(...y) * 1.6 : 100,
  };
}

function tooltipLabel(ctx) {
  const d = ctx.dataset;
  const p = ctx.raw;
  if (d.role === 'ops' || d.role === 'selected') {
    return `line ${p.line} ${p.op}: ${exact(p.x)} flops/byte, ${p.flops} flops, ${p.bytes} bytes; ceiling ${exact(p.y)} GFLOP/s${p.bound ? `, ${p.bound}` : ''}`;
  }
  if (d.role === 'measured') {
    return (
      `measurement, line ${p.line} ${p.op}: achieved ${exact(p.y)} GFLOP/s in ${exact(p.seconds)} s on this machine` +
      (p.ceiling
        ? `; ceiling ${exact(p.ceiling)} GFLOP/s${p.ofRoof !== null ? ` (${exact(100 * p.ofRoof)}% of the roof)` : ''}`
        : '')
    );
  }
  if (d.role === 'fusion' || d.role === 'measured fusion' || (d.role === 'selected fusion' && p.fusion !== undefined)) {
    // Lines of their own (a fusion's ops would run past the canvas on one): what it is, its ops three to a line, its numbers.
    const ops = [];
    for (let i = 0; i < p.ops.length && i < 9; i += 3)
      ops.push(`  ${fusedOpsText({ ops: p.ops.slice(i, i + 3) })}${i + 3 < p.ops.length ? ',' : ''}`);
    if (p.ops.length > 9) ops.push(`  and ${p.ops.length - 9} more ops`);
    const where = p.within ? ` in the body of ${p.within.op} at line ${p.within.line}` : '';
    if (d.role === 'measured fusion') {
      return [
        `measurement, ${p.name} (${p.kind}), which fused:`,
        ...ops,
        `achieved ${exact(p.y)} GFLOP/s`,
        `in ${exact(p.seconds)} s on this machine`,
        `ceiling ${exact(p.ceiling)} GFLOP/s${p.ofRoof !== null && p.ofRoof !== undefined ? ` (${exact(100 * p.ofRoof)}% of the roof)` : ''}`,
      ];
    }
    return [
      `${p.name} (${p.kind})${where}, which fused:`,
      ...ops,
      `${exact(p.x)} flops/byte: ${p.flops} flops, ${p.bytes} bytes at its boundary`,
      `ceiling ${exact(p.y)} GFLOP/s${p.bound ? `, ${p.bound}` : ''}`,
    ];
  }
  if (d.role === 'selected fusion') return `line ${p.line} ${p.op}: in the selected fusion`;
  if (d.role === 'link' || d.role === 'fusion link') return null;
  if (d.role === 'program') return `the program: ${exact(p.x)} flops/byte; ceiling ${exact(p.y)} GFLOP/s`;
  return `${d.label}: ${exact(p.y)} GFLOP/s at ${exact(p.x)} flops/byte`;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{onSelect?: (index: number) => void, dark?: () => boolean, legend?: HTMLElement}} [env]
 *   legend: a list element the legend is drawn into (it then wraps under the canvas; without it,
 *   Chart.js draws the legend inside the canvas)
 */
export function createAnalysisFigure(canvas, env = {}) {
  const dark = env.dark ?? prefersDark;

  function options(state, palette) {
    const b = bounds(state);
    const o = chartOptions(palette, {
      x: { title: 'operations per byte (flops / bytes accessed)', min: b.xmin, max: b.xmax },
      y: {
        title: analysisYTitle((state.measured ?? []).length > 0 || (state.fusions?.measured ?? []).length > 0),
        min: b.ymin,
        max: b.ymax,
      },
      label: tooltipLabel,
      onClick: (_event, elements, c) => {
        // A fusion's point selects the fusion; an op's selects the op.
        const fusionHit = elements.find((e) =>
          ['fusion', 'measured fusion'].includes(c.data.datasets[e.datasetIndex].role),
        );
        if (fusionHit && env.onSelectFusion) {
          env.onSelectFusion(c.data.datasets[fusionHit.datasetIndex].data[fusionHit.index].fusion);
          return;
        }
        const hit = elements.find((e) =>
          ['ops', 'selected', 'measured'].includes(c.data.datasets[e.datasetIndex].role),
        );
        if (hit && env.onSelect) env.onSelect(c.data.datasets[hit.datasetIndex].data[hit.index].index);
      },
    });
    // The legend is a list under the canvas (env.legend): it wraps on a narrow screen instead of
    // taking the plot's height or clipping its entries.
    if (env.legend) o.plugins.legend = { display: false };
    else o.plugins.legend.labels.filter = (item, data) => !LINKS.has(data.datasets[item.datasetIndex]?.role);
    // The points are {x, y} already: skip Chart.js's parsing of them (thousands of points).
    o.parsing = false;
    return o;
  }

  const holder = scatterChart(canvas, PALETTES, dark, (state, palette) => ({
    datasets: datasets(state, palette),
    options: options(state, palette),
  }));

  /** The drawn datasets as plain data; op points carry the op's index in the summary. */
  function series() {
    if (!holder.chart) return [];
    return holder.chart.data.datasets.map((d) => ({
      // The link's gaps (y null, between two ops) are not points.
      role: d.role,
      label: d.label,
      points: d.data.filter((p) => p.y !== null).map((p) => [p.x, p.y]),
      ...(['ops', 'selected', 'measured'].includes(d.role) ? { indices: d.data.map((p) => p.index) } : {}),
      ...(['fusion', 'measured fusion'].includes(d.role) ? { fusions: d.data.map((p) => p.fusion) } : {}),
      ...(d.role === 'selected fusion'
        ? { indices: d.data.filter((p) => p.fusion === undefined).map((p) => p.index) }
        : {}),
    }));
  }

  /** Where fusion `j`'s point (its estimate; `measured`: its measurement) is on the canvas (CSS pixels), or null. */
  function pixelOfFusion(j, measured = false) {
    if (!holder.chart) return null;
    const di = holder.chart.data.datasets.findIndex((d) => d.role === (measured ? 'measured fusion' : 'fusion'));
    if (di < 0) return null;
    const pi = holder.chart.data.datasets[di].data.findIndex((p) => p.fusion === j);
    if (pi < 0) return null;
    const el = holder.chart.getDatasetMeta(di).data[pi];
    return { x: el.x, y: el.y };
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

  /** Each legend entry: {role, label, color, dash, line, width, pointStyle} (what the list under the canvas shows). */
  function legendEntries() {
    if (!holder.chart) return [];
    return holder.chart.data.datasets
      .filter((d) => !LINKS.has(d.role))
      .map((d) => {
        const { fill, edge, ...key } = legendKey(d);
        return { role: d.role, label: d.label, ...key, pointStyle: d.pointStyle ?? 'circle' };
      });
  }

  /** The legend as a list (text and a key drawn on a small canvas per entry) in env.legend. */
  function drawLegend() {
    if (!env.legend) return;
    const scale = globalThis.devicePixelRatio || 1;
    const datasets = holder.chart ? holder.chart.data.datasets.filter((d) => !LINKS.has(d.role)) : [];
    // The legend's text colour edges a key with no edge of its own; reading it forces a style
    // recalculation of the whole page (a long task beside a big table), so only when needed, once.
    let textColor;
    const edgeFallback = (e) =>
      e.line || (e.edge && e.edge !== 'transparent') ? undefined : (textColor ??= getComputedStyle(env.legend).color);
    env.legend.replaceChildren(
      ...datasets.map((d) => {
        const e = legendKey(d);
        const li = document.createElement('li');
        li.dataset.role = d.role;
        li.dataset.color = e.color;
        li.dataset.dash = e.line ? e.dash.join(',') : (d.pointStyle ?? 'circle');
        const key = document.createElement('canvas');
        key.width = Math.round(KEY_WIDTH * scale);
        key.height = Math.round(KEY_HEIGHT * scale);
        key.style.width = `${KEY_WIDTH}px`;
        key.style.height = `${KEY_HEIGHT}px`;
        key.setAttribute('aria-hidden', 'true');
        const g = key.getContext('2d');
        if (g) {
          g.scale(scale, scale);
          drawKey(g, e, edgeFallback(e));
        }
        li.append(key, document.createTextNode(d.label));
        return li;
      }),
    );
  }

  const render = (state) => {
    holder.render(state);
    drawLegend();
  };
  const restyle = () => {
    holder.restyle();
    drawLegend();
  };
  return {
    render,
    destroy: holder.destroy,
    restyle,
    series,
    pixelOf,
    pixelOfFusion,
    png: holder.png,
    legend: legendEntries,
  };
}
