// Helpers shared by the two Chart.js figures (roofline_chart.js, analysis_chart.js): the chart's
// lifecycle, tick labels, tooltips' numbers, the PNG's background. Their axes and legend are in
// axes.js. Only web/figures/ imports Chart.js.
import {
  Chart, Legend, LineElement, LogarithmicScale, PointElement, ScatterController, Tooltip,
} from 'chart.js';

Chart.register(ScatterController, LineElement, PointElement, LogarithmicScale, Legend, Tooltip);

export { Chart };

/** Numbers in tooltips: the exact value, with a short reading first. */
export function exact(x) {
  const shortText = String(Number(x.toPrecision(4)));
  const full = String(x);
  return shortText === full ? full : `${shortText} (exactly ${full})`;
}

/** Fills the canvas before drawing, so the PNG has the page's background, not transparency. */
export const backgroundPlugin = {
  id: 'rooflineBackground',
  beforeDraw(chart, _args, options) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = options.color;
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** Labels only 1, 2 and 5 times a power of ten, so a log axis stays readable. */
export function logTick(value) {
  const v = Number(value);
  if (!(v > 0)) return '';
  const mantissa = v / 10 ** Math.floor(Math.log10(v) + 1e-12);
  return [1, 2, 5].some((k) => Math.abs(mantissa - k) < 1e-9) ? String(Number(v.toPrecision(3))) : '';
}

/** Whether the page is drawn for a dark background. */
export const prefersDark = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;

/**
 * The lifecycle both figures share: one scatter chart on `canvas`, drawn from
 * build(state, palette) → {datasets, options}, updated in place on later renders, and drawn
 * anew by restyle() when the colour scheme changes. `holder.chart` is the Chart.js instance
 * (null before the first render or after destroy()).
 */
export function scatterChart(canvas, palettes, dark, build) {
  const holder = { chart: null, last: null };
  holder.render = (state) => {
    holder.last = state;
    const { datasets, options } = build(state, palettes[dark() ? 'dark' : 'light']);
    if (holder.chart) {
      holder.chart.data.datasets = datasets;
      holder.chart.options = options;
      holder.chart.update();
    } else {
      holder.chart = new Chart(canvas, { type: 'scatter', data: { datasets }, options, plugins: [backgroundPlugin] });
    }
  };
  holder.destroy = () => {
    holder.chart?.destroy();
    holder.chart = null;
  };
  holder.restyle = () => {
    if (!holder.last) return;
    holder.destroy();
    holder.render(holder.last);
  };
  /** The chart as a PNG data: URL. */
  holder.png = () => (holder.chart ? holder.chart.toBase64Image('image/png', 1) : null);
  return holder;
}
