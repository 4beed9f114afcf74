// Section 8, "Analyze your own program": wires the input, the Worker's requests, the roofs and
// summary, the figure (web/figures/analysis_chart.js) and the per-op table, and keeps the
// selection in step between the table, the text and the figure.
import { createAnalysisFigure } from '../figures/analysis_chart.js';
import { nextSort } from '../model/analysis_view.js';
import { short } from '../model/format.js';
import {
  deriveAnalyzeView, setAllRoofs, setAnalysis, setDtype, setFailure, setPending, setRoof, setSelected, setSort,
} from '../analyze_state.js';
import { CancelledError } from '../pool.js';
import { bindAnalyzeInput, renderAnalyzeInput, selectInTextarea, showSelectedLine, textSource } from './analyze_input_view.js';
import { bindAnalyzeSummary, renderAnalyzeSummary } from './analyze_summary_view.js';
import { bindAnalyzeTable, renderAnalyzeTable, scrollToSelected } from './analyze_table_view.js';
import { $ } from './dom.js';

/**
 * @param {{analyze: (text: string, name: string) => Promise<object>, cancel: () => void}} client  requests to the Worker pool
 * @param {{name: string, title: string, text: string}[]} examples
 * @param {() => object} getState  the page state (state.analyze, state.params, state.measurements)
 * @param {(a: object) => void} setAnalyze  stores a new state.analyze and redraws
 * @param {object} core  from web/core.js (the roofline arithmetic: core.roofline)
 */
export function bindAnalyzeView(client, examples, getState, setAnalyze, core) {
  let latest = 0;          // the id of the newest request: older answers are dropped
  let latestSource = null;  // the text of the newest finished request (errors refer to it)
  let shownSource = null;   // the text of the analysis on show (rows refer to it)
  let memo = { key: null, view: null };
  const a = () => getState().analyze;
  const change = (f) => setAnalyze(f(a()));

  async function request(text, name) {
    const id = ++latest;
    const mb = text.length / 1e6;
    change((s) => setPending(s, `analysing ${mb >= 0.1 ? `${short(mb, 3)} MB` : `${text.length} characters`} in the Worker…`));
    try {
      const value = await client.analyze(text, name);
      if (id !== latest) return;
      latestSource = textSource(text);
      if (value.summary.modules.length) shownSource = latestSource;
      change((s) => setAnalysis(s, value));
      const first = value.errors[0];
      if (first?.line) selectInTextarea(latestSource, first.line, first.column);
    } catch (e) {
      if (id !== latest) return;
      change((s) => setFailure(s, e instanceof CancelledError ? 'Cancelled; the earlier analysis (if any) is kept.' : e.message));
    }
  }

  const input = bindAnalyzeInput(examples, {
    onText: (text, name) => {
      if (text.trim() === '') {
        latest++;
        change((s) => ({ ...s, pending: null, errors: [] }));
        return;
      }
      request(text, name);
    },
    onCancel: () => client.cancel(),
  });
  const select = (index) => {
    change((s) => setSelected(s, index));
    const row = getState().analyze.shown?.summary.ops[index];
    if (row) selectInTextarea(shownSource, row.line, row.column);
    scrollToSelected();
  };
  const figure = createAnalysisFigure($('#analyze-roofline'), { onSelect: select });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => figure.restyle());
  bindAnalyzeTable({ onSort: (key) => change((s) => setSort(s, nextSort(s.sort, key))), onSelect: select });
  bindAnalyzeSummary({
    onRoof: (id) => change((s) => setRoof(s, id)),
    onDtype: (d) => change((s) => setDtype(s, d)),
    onAllRoofs: (on) => change((s) => setAllRoofs(s, on)),
  });

  /** What the view shows, recomputed only when the analysis, its options, the budgets or the measurements change. */
  function derive(state) {
    const s = state.analyze;
    const budgets = state.params ? { peak: state.params.peak, bandwidth: state.params.bandwidth } : null;
    const key = [s.shown, s.roofId, s.dtype, s.sort, budgets?.peak, budgets?.bandwidth, state.measurements];
    if (memo.key && key.every((k, i) => k === memo.key[i])) return memo.view;
    memo = { key, view: deriveAnalyzeView(core, s, budgets, state.measurements) };
    return memo.view;
  }

  function renderFigure(view, s) {
    const { points, program, notDrawn } = view.figure;
    const roofs = (s.allRoofs ? view.roofs : [view.roof]).map((r) => ({
      label: r.id === view.roof.id ? `roof: ${r.label}` : r.label, kind: r.kind, primary: r.id === view.roof.id,
      curve: r.line.curve,
    }));
    figure.render({ points, program, roofs, selected: s.selected });
    const parts = [];
    if (notDrawn.noFlops) parts.push(`${notDrawn.noFlops} top-level ops with no flops (data movement, transcendentals only) or unmodeled have no place on a log axis and are not drawn`);
    if (notDrawn.overLimit) parts.push(`${notDrawn.overLimit} more ops are left out: the ${points.length} with the most bytes are drawn`);
    $('#analyze-figure-note').textContent = parts.length ? `${parts.join('; ')}.` : '';
    $('#analyze-roofline').setAttribute('aria-label', `Roofline of the analysed program, log–log: ${points.length} ops` +
      (program ? `; the program at ${short(program.x)} flops/byte, ceiling ${short(program.y)} GFLOP/s` : '') + ` under ${view.roof.label}.`);
  }

  let renderMs = null;
  function render(state) {
    const t0 = performance.now();
    draw(state);
    renderMs = performance.now() - t0;
  }

  function draw(state) {
    const s = state.analyze;
    renderAnalyzeInput(s, latestSource);
    const view = derive(state);
    $('#analyze-results').hidden = !view;
    if (!view) return;
    $('#analyze-stale').hidden = s.errors.length === 0;
    renderAnalyzeSummary(view, s);
    renderFigure(view, s);
    renderAnalyzeTable(view, s.sort, s.selected);
    showSelectedLine(shownSource, s.selected === null ? null : view.rows[s.selected]);
  }

  return {
    render, figure, currentName: input.currentName,
    /** Milliseconds the last redraw of the section took (main thread). */
    renderMs: () => renderMs,
    /** The rows as the table orders them (plain data). */
    rows: () => derive(getState())?.sorted.map((r) => ({ ...r })) ?? [],
    view: () => derive(getState()),
  };
}
