// The axes and the legend both figures share (roofline_chart.js, analysis_chart.js): log–log
// scales labelled at 1, 2 and 5 times a power of ten, titles and ticks in the page's colours, the
// legend under the chart with keys drawn as the series are (lines dashed as on the plot), nearest-point tooltips, and the background the
// PNG keeps. One module, so the two charts cannot drift apart.
import { Chart, logTick } from './chart_common.js';

/** A logarithmic axis from `min` to `max` titled `title`, in the palette's text and grid colours. */
export function logAxis(title, min, max, palette) {
  const decades = min > 0 && max > min ? Math.log10(max / min) : 0;
  return {
    type: 'logarithmic',
    min,
    max,
    title: { display: true, text: title, color: palette.text },
    ticks: { color: palette.text, autoSkip: true, callback: (value) => logTick(value, decades) },
    grid: { color: palette.grid },
  };
}

/** A legend key's size in CSS pixels: wide enough for a dash pattern to show. */
export const KEY_WIDTH = 30;
export const KEY_HEIGHT = 12;

/**
 * What a dataset's legend key shows, as on the plot: a line series its line (colour, dash, width),
 * a point series its point (shape, fill, edge). {line, color, dash, width, pointStyle, fill, edge}
 */
export function legendKey(d) {
  const line = Boolean(d.showLine);
  return {
    line,
    color: line ? d.borderColor : d.backgroundColor,
    dash: line ? [...(d.borderDash ?? [])] : null,
    width: d.borderWidth ?? 1,
    pointStyle: line ? 'line' : (d.pointStyle ?? 'circle'),
    fill: d.backgroundColor,
    edge: d.borderColor,
  };
}

/** Draws `key` (legendKey's value) on a 2D context in a KEY_WIDTH × KEY_HEIGHT box at the origin. */
export function drawKey(g, key, edgeFallback) {
  const w = KEY_WIDTH;
  const h = KEY_HEIGHT;
  const cx = w / 2;
  const cy = h / 2;
  g.save();
  if (key.line) {
    g.strokeStyle = key.color;
    g.lineWidth = Math.min(3, key.width);
    g.setLineDash(key.dash);
    g.beginPath();
    g.moveTo(1, cy);
    g.lineTo(w - 1, cy);
    g.stroke();
    g.restore();
    return;
  }
  g.beginPath();
  const r = 5;
  if (key.pointStyle === 'triangle') {
    g.moveTo(cx, cy - r);
    g.lineTo(cx + r, cy + r);
    g.lineTo(cx - r, cy + r);
    g.closePath();
  } else if (key.pointStyle === 'rectRot') {
    g.moveTo(cx, cy - r - 1);
    g.lineTo(cx + r + 1, cy);
    g.lineTo(cx, cy + r + 1);
    g.lineTo(cx - r - 1, cy);
    g.closePath();
  } else if (key.pointStyle === 'star') {
    for (let i = 0; i < 4; i++) {
      // Chart.js's star: a cross and a diagonal cross, stroked
      const a = (i * Math.PI) / 4;
      g.moveTo(cx - r * Math.cos(a), cy - r * Math.sin(a));
      g.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  } else {
    g.arc(cx, cy, r, 0, 2 * Math.PI);
  }
  const clear = !key.fill || key.fill === 'transparent';
  if (!clear && key.pointStyle !== 'star') {
    g.fillStyle = key.fill;
    g.fill();
  }
  g.strokeStyle = key.edge && key.edge !== 'transparent' ? key.edge : (edgeFallback ?? key.color);
  g.lineWidth = 2;
  g.stroke();
  g.restore();
}

/** A legend key on a canvas of its own (Chart.js draws it as the legend item's point style). */
export function keyCanvas(key) {
  const canvas = document.createElement('canvas');
  canvas.width = KEY_WIDTH;
  canvas.height = KEY_HEIGHT;
  const g = canvas.getContext('2d');
  if (g) drawKey(g, key);
  return canvas;
}

/**
 * The legend under the chart: each key drawn as the dataset is on the plot (a dashed roof as its
 * dashes, a point as its shape), not Chart.js's default filled circle for every series.
 */
export function legend(palette) {
  return {
    position: 'bottom',
    labels: {
      color: palette.text,
      usePointStyle: true,
      pointStyleWidth: KEY_WIDTH,
      boxHeight: KEY_HEIGHT,
      generateLabels: (chart) =>
        Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
          const d = chart.data.datasets[item.datasetIndex];
          return { ...item, pointStyle: keyCanvas(legendKey(d)), key: legendKey(d) };
        }),
    },
  };
}

/**
 * A figure's Chart.js options: no animation, sized by its container, log–log axes, the legend,
 * tooltips from `label(ctx)`, the background colour, and `onClick` when given.
 * @param {{x: {title: string, min: number, max: number}, y: {title: string, min: number, max: number},
 *          label: (ctx: object) => string, onClick?: Function}} spec
 */
export function chartOptions(palette, { x, y, label, onClick }) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    color: palette.text,
    interaction: { mode: 'nearest', intersect: true },
    scales: { x: logAxis(x.title, x.min, x.max, palette), y: logAxis(y.title, y.min, y.max, palette) },
    ...(onClick ? { onClick } : {}),
    plugins: {
      legend: legend(palette),
      tooltip: { callbacks: { label } },
      rooflineBackground: { color: palette.background },
    },
  };
}
