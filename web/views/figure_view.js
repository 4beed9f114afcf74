// Section 5: the roofline figure (drawn by web/figures/), its measured-roof toggles, its
// downloads, and its numbers as a table (for screen readers and print).
import { createRooflineFigure } from '../figures/roofline_chart.js';
import { short } from '../model/format.js';
import { $, download, el, fillRows } from './dom.js';

/** The lesson's figure data, exactly: {kind, x, xlabel, ylabel, series}. */
export function lessonFigureData(state) {
  const f = state.report?.figure;
  return f ? structuredClone(f) : null;
}

/**
 * Wires the section and returns its render function and the figure (for the scripting surface).
 * @param {() => object} getState
 * @param {(key: 'measuredRoof'|'measuredPoint', on: boolean) => void} onShow
 */
export function bindFigureView(getState, onShow) {
  const figure = createRooflineFigure($('#roofline'));
  const roof = $('#show-measured-roof');
  const point = $('#show-measured-point');
  roof.addEventListener('change', () => onShow('measuredRoof', roof.checked));
  point.addEventListener('change', () => onShow('measuredPoint', point.checked));
  $('#download-json').addEventListener('click', () => {
    const data = lessonFigureData(getState());
    if (!data) return;
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
    download('roofline-figure.json', url);
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  $('#download-png').addEventListener('click', () => {
    const url = figure.png();
    if (url) download('roofline-figure.png', url);
  });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => figure.restyle());

  function render(state) {
    const f = state.figure;
    if (!f) return;
    const measured = Boolean(f.measured);
    roof.disabled = !measured;
    point.disabled = !measured;
    roof.checked = measured && state.show.measuredRoof;
    point.checked = measured && state.show.measuredPoint;
    $('#measured-hint').hidden = measured;
    figure.render({ figure: f, show: state.show });
    $('#roofline').setAttribute('aria-label', describe(f));
    renderTable(f.lesson);
  }
  return { render, figure };
}

function describe(f) {
  const sizes = f.sizes.map((s) => `n=${s.n} at ${short(s.x)} flops/byte, ${short(s.y)} GFLOP/s`).join('; ');
  return `Roofline figure, log–log. Hypothetical budgets: bandwidth ${short(f.budgets.bandwidth)} GB/s, ` +
    `peak ${short(f.budgets.peak)} GFLOP/s, ridge at ${short(f.ridge.x)} flops/byte. Sizes: ${sizes}. ` +
    `With ${short(f.factor)}× traffic the ceilings are ${f.revised.points.map((p) => short(p.y)).join(', ')} GFLOP/s.` +
    (f.measured ? ' Measurements of this machine are available as dashed roofs and a star.' : '');
}

function renderTable(lesson) {
  const head = $('#figure-table thead');
  const tr = el('tr');
  tr.append(el('th', lesson.xlabel), ...lesson.series.map((s) => el('th', `${s.label} (GFLOP/s)`)));
  head.replaceChildren(tr);
  fillRows($('#figure-table tbody'), lesson.x.map((x, i) => [short(x), ...lesson.series.map((s) => short(s.y[i]))]));
}
