// The axes and the legend both figures share (roofline_chart.js, analysis_chart.js): log–log
// scales labelled at 1, 2 and 5 times a power of ten, titles and ticks in the page's colours, the
// legend under the chart with point-style keys, nearest-point tooltips, and the background the
// PNG keeps. One module, so the two charts cannot drift apart.
import { logTick } from './chart_common.js';

/** A logarithmic axis from `min` to `max` titled `title`, in the palette's text and grid colours. */
export function logAxis(title, min, max, palette) {
  return {
    type: 'logarithmic', min, max,
    title: { display: true, text: title, color: palette.text },
    ticks: { color: palette.text, autoSkip: true, callback: logTick },
    grid: { color: palette.grid },
  };
}

/** The legend under the chart, its keys drawn in each dataset's point style. */
export function legend(palette) {
  return { position: 'bottom', labels: { color: palette.text, usePointStyle: true, boxHeight: 8 } };
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
