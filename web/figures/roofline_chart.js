// The roofline figure: the only module that touches Chart.js. It draws the data that
// web/model/figure_model.js prepares (all numbers from the core) and computes none of its own.
//
//   const figure = createRooflineFigure(canvas);
//   figure.render({figure, show: {measuredRoof, measuredPoint, allCoresRoof, allCoresPoint}});   // state.figure, state.show
//   figure.series();   // what the chart holds, as plain data, with each legend key (tests, rooflineLab.chartSeries())
//   figure.png();      // a data: URL of the chart as PNG
//   figure.destroy();
import { rooflineYTitle } from '../model/figure_model.js';
import { chartOptions } from './axes.js';
import { exact, prefersDark, scatterChart } from './chart_common.js';
import { short } from '../model/format.js';

const PALETTES = {
  light: {
    background: '#ffffff',
    text: '#1d2430',
    grid: '#d8dce6',
    bandwidth: '#1565c0',
    compute: '#7b1fa2',
    combined: '#1d2430',
    ridge: '#c62828',
    sizes: '#00796b',
    revised: '#d84315',
    measured: ['#2e7d32', '#558b2f', '#827717'],
    allCores: ['#283593', '#3949ab', '#00838f'],
  },
  dark: {
    background: '#161a22',
    text: '#e6e9f0',
    grid: '#3a4150',
    bandwidth: '#64b5f6',
    compute: '#ce93d8',
    combined: '#f2f4f8',
    ridge: '#ef9a9a',
    sizes: '#4db6ac',
    revised: '#ffab91',
    measured: ['#81c784', '#aed581', '#dce775'],
    allCores: ['#9fa8da', '#7986cb', '#80deea'],
  },
};

function line(role, label, points, color, extra = {}) {
  return {
    role,
    label,
    data: points,
    showLine: true,
    borderColor: color,
    backgroundColor: color,
    borderWidth: 2,
    pointRadius: 0,
    pointHoverRadius: 4,
    pointHitRadius: 6,
    ...extra,
  };
}

function datasets(state, palette) {
  const f = state.figure;
  const lesson = f.lesson;
  const at = (s) => lesson.x.map((x, i) => ({ x, y: s.y[i] }));
  const [bandwidth, compute, combined] = lesson.series;
  const yFloor = lowestY(f, state.show) / 1.6;
  const out = [
    line('bandwidth budget', bandwidth.label, at(bandwidth), palette.bandwidth, { borderDash: [2, 3] }),
    line('compute budget', compute.label, at(compute), palette.compute, { borderDash: [2, 3] }),
    line('combined ceiling', combined.label, at(combined), palette.combined, { borderWidth: 3 }),
    line(
      'ridge',
      `ridge: ${short(f.ridge.x)} flops/byte`,
      [
        { x: f.ridge.x, y: yFloor },
        { x: f.ridge.x, y: f.ridge.y },
      ],
      palette.ridge,
      { borderDash: [6, 4], borderWidth: 1.5, pointRadius: [0, 7], pointStyle: 'triangle' },
    ),
    {
      role: 'sizes',
      label: 'workload sizes (model)',
      data: f.sizes.map((s) => ({ ...s })),
      borderColor: palette.sizes,
      backgroundColor: palette.sizes,
      pointRadius: 5,
      pointHoverRadius: 7,
      showLine: false,
    },
    line('revised ceiling', `combined ceiling, ${short(f.factor)}× traffic`, f.revised.curve, palette.revised, {
      borderDash: [10, 5],
      borderWidth: 2.5,
    }),
    {
      role: 'revised sizes',
      label: `sizes with ${short(f.factor)}× traffic`,
      data: f.revised.points.map((p) => ({ ...p })),
      borderColor: palette.revised,
      backgroundColor: palette.background,
      borderWidth: 2,
      pointRadius: 5,
      pointHoverRadius: 7,
      pointStyle: 'rectRot',
      showLine: false,
    },
  ];
  for (const layer of f.measured?.layers ?? []) {
    const single = layer.cores === 1;
    const who = single ? 'this machine, 1 core' : `this machine, ${layer.cores} cores`;
    const colors = single ? palette.measured : palette.allCores;
    if (single ? state.show.measuredRoof : state.show.allCoresRoof) {
      layer.roofs.forEach((roof, i) =>
        out.push(
          line(
            single ? `measured roof ${roof.level}` : `all-cores roof ${roof.level}`,
            `measured (${who}): ${roof.name} roof`,
            roof.points.map((p) => ({
              ...p,
              level: roof.name,
              gflops: roof.gflops,
              gbs: roof.gbs,
              cores: layer.cores,
            })),
            colors[i],
            { borderDash: single ? [3, 3, 12, 3] : [1, 3, 8, 3], borderWidth: single ? 2 : 2.5, measured: true },
          ),
        ),
      );
    }
    if (layer.points.length && (single ? state.show.measuredPoint : state.show.allCoresPoint)) {
      out.push({
        role: single ? 'measured point' : 'all-cores point',
        label: `measured (${who}): tanh(A@B) at ${layer.points.map((p) => `${p.m}³`).join(', ')}`,
        data: layer.points.map((p) => ({ ...p })),
        borderColor: colors[0],
        backgroundColor: colors[0],
        pointStyle: 'star',
        pointRadius: single ? 9 : 10,
        pointHoverRadius: 12,
        borderWidth: 2,
        showLine: false,
        measured: true,
      });
    }
  }
  return out;
}

function lowestY(f, show) {
  const ys = [...f.lesson.series.flatMap((s) => s.y), ...f.sizes.map((s) => s.y), ...f.revised.curve.map((p) => p.y)];
  for (const layer of f.measured?.layers ?? []) {
    const single = layer.cores === 1;
    if (single ? show.measuredRoof : show.allCoresRoof)
      ys.push(...layer.roofs.flatMap((r) => r.points.map((p) => p.y)));
    if (single ? show.measuredPoint : show.allCoresPoint) ys.push(...layer.points.map((p) => p.y));
  }
  return Math.min(...ys.filter((y) => y > 0));
}

function bounds(sets) {
  const points = sets.flatMap((d) => d.data);
  const xs = points.map((p) => p.x).filter((x) => x > 0);
  const ys = points.map((p) => p.y).filter((y) => y > 0);
  return {
    xmin: Math.min(...xs) / 1.5,
    xmax: Math.max(...xs) * 1.5,
    ymin: Math.min(...ys),
    ymax: Math.max(...ys) * 1.6,
  };
}

function tooltipLabel(ctx) {
  const d = ctx.dataset;
  const p = ctx.raw;
  switch (d.role) {
    case 'sizes':
      return `n=${p.n}: intensity ${p.fraction} = ${exact(p.x)} flops/byte; hypothetical ceiling ${exact(p.y)} GFLOP/s, ${p.bound}`;
    case 'revised sizes':
      return `n=${p.n} with more traffic: ceiling ${exact(p.y)} GFLOP/s, ${p.bound}${p.changed ? ` (was ${p.was})` : ''}`;
    case 'ridge':
      return `ridge = peak / bandwidth = ${exact(p.x)} flops/byte`;
    case 'measured point':
    case 'all-cores point':
      return `measured ${p.m}×${p.k}×${p.n} on ${p.cores === 1 ? '1 core' : `${p.cores} cores`}: ${exact(p.y)} GFLOP/s (median) at model intensity ${exact(p.x)} flops/byte`;
    default:
      if (d.measured) {
        return (
          `${p.level} roof, ${p.cores === 1 ? '1 core' : `${p.cores} cores`} (${exact(p.gflops)} GFLOP/s, ${exact(p.gbs)} GB/s): ` +
          `${exact(p.y)} GFLOP/s at ${exact(p.x)} flops/byte`
        );
      }
      return `${d.label}: ${exact(p.y)} GFLOP/s at ${exact(p.x)} flops/byte`;
  }
}

function options(state, palette, sets) {
  const f = state.figure;
  const b = bounds(sets);
  return chartOptions(palette, {
    x: { title: f.lesson.xlabel, min: b.xmin, max: b.xmax },
    y: { title: rooflineYTitle(f, state.show), min: b.ymin, max: b.ymax },
    label: tooltipLabel,
  });
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{dark?: () => boolean}} [env]  whether to draw for a dark background (default: the media query)
 */
export function createRooflineFigure(canvas, env = {}) {
  const dark = env.dark ?? prefersDark;

  const holder = scatterChart(canvas, PALETTES, dark, (state, palette) => {
    const sets = datasets(state, palette);
    return { datasets: sets, options: options(state, palette, sets) };
  });

  /** Draws (or redraws) the figure for `state` = {figure, show}. */
  function render(state) {
    if (state?.figure) holder.render(state);
  }

  /** The drawn datasets as plain data: [{role, label, measured, points: [[x, y], …], key}] (key: its legend key, axes.js's legendKey). */
  function series() {
    if (!holder.chart) return [];
    // The key as the legend holds it (axes.js's generateLabels), not as it would be made again.
    const keys = new Map((holder.chart.legend?.legendItems ?? []).map((item) => [item.datasetIndex, item.key ?? null]));
    return holder.chart.data.datasets.map((d, i) => ({
      role: d.role,
      label: d.label,
      measured: Boolean(d.measured),
      points: d.data.map((p) => [p.x, p.y]),
      key: keys.get(i) ?? null,
    }));
  }

  return { render, destroy: holder.destroy, restyle: holder.restyle, series, png: holder.png };
}
