// Helpers shared by the two Chart.js figures (roofline_chart.js, analysis_chart.js): the chart's
// lifecycle, tick labels, tooltips' numbers, the PNG's background. Their axes and legend are in
// axes.js. Only web/figures/ imports Chart.js.
import { Chart, Legend, LineElement, LogarithmicScale, PointElement, ScatterController, Tooltip } from 'chart.js';
import { short } from '../model/format.js';

Chart.register(ScatterController, LineElement, PointElement, LogarithmicScale, Legend, Tooltip);

export { Chart };

/** Numbers in tooltips: the exact value, with a short reading first. */
export function exact(x) {
  const shortText = short(x);
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

/** Decades a log axis may span and still label 2 and 5 times a power of ten. */
export const DENSE_TICK_DECADES = 5;

/**
 * Labels only 1, 2 and 5 times a power of ten, so a log axis stays readable; on an axis spanning
 * more than DENSE_TICK_DECADES decades, only the powers of ten, those past 10⁵ or under 10⁻³
 * written as 1e6 — labels a decade apart never overlap ("1000000 / 500000").
 */
export function logTick(value, decades = 0) {
  const v = Number(value);
  if (!(v > 0)) return '';
  const exponent = Math.floor(Math.log10(v) + 1e-12);
  const mantissa = v / 10 ** exponent;
  const sparse = decades > DENSE_TICK_DECADES;
  if (!(sparse ? [1] : [1, 2, 5]).some((k) => Math.abs(mantissa - k) < 1e-9)) return '';
  if (sparse && (exponent >= 5 || exponent < -3)) return `1e${exponent}`;
  return String(Number(v.toPrecision(3)));
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
