// Section 5: the roofline figure (drawn by web/figures/), its measured toggles (roofs and
// kernel points, 1 core and all cores), its
// downloads, and its numbers as a table (for screen readers and print).
import { createRooflineFigure } from '../figures/roofline_chart.js';
import { rooflineYTitle } from '../model/figure_model.js';
import { short } from '../model/format.js';
import { $, download, downloadText, el, fillRows, setField } from './dom.js';

/** The checkboxes and the state.show key each one sets. */
const TOGGLES = [
  ['#show-measured-roof', 'measuredRoof', 1],
  ['#show-measured-point', 'measuredPoint', 1],
  ['#show-all-cores-roof', 'allCoresRoof', 'all'],
  ['#show-all-cores-point', 'allCoresPoint', 'all'],
];

/** The lesson's figure data, exactly: {kind, x, xlabel, ylabel, series}. */
export function lessonFigureData(state) {
  const f = state.report?.figure;
  return f ? structuredClone(f) : null;
}

/**
 * Wires the section and returns its render function and the figure (for the scripting surface).
 * @param {() => object} getState
 * @param {(key: 'measuredRoof'|'measuredPoint'|'allCoresRoof'|'allCoresPoint', on: boolean) => void} onShow
 */
export function bindFigureView(getState, onShow) {
  const figure = createRooflineFigure($('#roofline'));
  for (const [selector, key] of TOGGLES) {
    const box = $(selector);
    box.addEventListener('change', () => onShow(key, box.checked));
  }
  $('#download-json').addEventListener('click', () => {
    const data = lessonFigureData(getState());
    if (!data) return;
    downloadText('roofline-figure.json', `${JSON.stringify(data, null, 2)}\n`, 'application/json');
  });
  $('#download-png').addEventListener('click', () => {
    const url = figure.png();
    if (url) download('roofline-figure.png', url);
  });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => figure.restyle());

  function render(state) {
    const f = state.figure;
    if (!f) return;
    const layers = f.measured?.layers ?? [];
    const all = layers.find((l) => l.cores > 1);
    for (const [selector, key, which] of TOGGLES) {
      const available = which === 1 ? layers.some((l) => l.cores === 1) : Boolean(all);
      const box = $(selector);
      box.disabled = !available;
      box.checked = available && state.show[key];
    }
    setField('all-cores', all ? `all ${all.cores} cores` : 'all cores');
    $('#measured-hint').hidden = layers.length > 0;
    figure.render({ figure: f, show: state.show });
    $('#roofline').setAttribute('aria-label', `${describe(f)} Y axis: ${rooflineYTitle(f, state.show)}.`);
    renderTable(f.lesson);
  }
  return { render, figure };
}

function describe(f) {
  const sizes = f.sizes.map((s) => `n=${s.n} at ${short(s.x)} flops/byte, ${short(s.y)} GFLOP/s`).join('; ');
  return (
    `Roofline figure, log–log. Hypothetical budgets: bandwidth ${short(f.budgets.bandwidth)} GB/s, ` +
    `peak ${short(f.budgets.peak)} GFLOP/s, ridge at ${short(f.ridge.x)} flops/byte. Sizes: ${sizes}. ` +
    `With ${short(f.factor)}× traffic the ceilings are ${f.revised.points.map((p) => short(p.y)).join(', ')} GFLOP/s.` +
    (f.measured
      ? ` Measurements of this machine on ${f.measured.layers.map((l) => (l.cores === 1 ? '1 core' : `${l.cores} cores`)).join(' and ')} are available as dash-dot roofs and stars.`
      : '')
  );
}

function renderTable(lesson) {
  const head = $('#figure-table thead');
  const tr = el('tr');
  tr.append(el('th', lesson.xlabel), ...lesson.series.map((s) => el('th', `${s.label} (GFLOP/s)`)));
  head.replaceChildren(tr);
  fillRows(
    $('#figure-table tbody'),
    lesson.x.map((x, i) => [short(x), ...lesson.series.map((s) => short(s.y[i]))]),
  );
}
