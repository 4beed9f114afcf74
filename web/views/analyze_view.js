// Section 8, "Analyze your own program": wires the input, the Worker's requests, the roofs and
// summary, the figure (web/figures/analysis_chart.js) and the per-op table, and keeps the
// selection in step between the table, the text and the figure.
import { createAnalysisFigure } from '../figures/analysis_chart.js';
import { analysisYTitle, fusionSpan, nextSort, TABLE_PAGE } from '../model/analysis_view.js';
import { clockTime, short } from '../model/format.js';
import {
  analyzeBaseKey,
  analyzeBaseStepsOf,
  analyzeFigureKey,
  errorsText,
  isLatestRequest,
  sameKey,
  setAllRoofs,
  setAnalysis,
  setCancelled,
  setCleared,
  setDtype,
  setFailure,
  setPage,
  setPending,
  setRoof,
  setRun,
  setFusionPage,
  setRunCancelled,
  setRunChoice,
  setRunFailure,
  setRunPending,
  setSelected,
  setSelectedFusion,
  setSort,
  withSort,
  withSortSteps,
} from '../analyze_state.js';
import { runSteps, sliced } from '../model/steps.js';
import { CancelledError } from '../pool.js';
import {
  bindAnalyzeInput,
  renderAnalyzeInput,
  selectInTextarea,
  selectLinesInTextarea,
  showSelectedLine,
  textSource,
} from './analyze_input_view.js';
import { bindAnalyzeRun, notRunText, renderAnalyzeRun, runProgress } from './analyze_run_view.js';
import { bindAnalyzeSummary, renderAnalyzeSummary } from './analyze_summary_view.js';
import {
  bindAnalyzeFusions,
  bindAnalyzeTable,
  pageOf,
  renderAnalyzeFusions,
  renderAnalyzeTable,
  scrollToSelected,
} from './analyze_table_view.js';
import { $ } from './dom.js';

/**
 * @param {{analyze: (text: string, name: string) => Promise<object>, cancel: () => void,
 *          run: (text: string, name: string, choice: {inputs: string, seed: number}) => Promise<{report: object, ms: number}>,
 *          cancelRun: () => void}} client  requests to the Worker pool
 * @param {{name: string, title: string, text: string}[]} examples
 * @param {() => object} getState  the page state (state.analyze, state.params, state.measurements)
 * @param {(a: object) => void} setAnalyze  stores a new state.analyze and redraws
 * @param {object} core  from web/core.js (the roofline arithmetic: core.roofline)
 * @param {{onSelectLine?: (line: number, column: number, name: string) => void}} hooks  a selected op's
 *        place in the text on show (the Write tab selects it in its StableHLO)
 */
/**
 * A program with at least this many ops is derived in slices (web/model/steps.js) and drawn in
 * steps (summary, figure, table), each its own task, so no main-thread task blocks the page (a
 * 175 KB HLO file of 1042 ops, drawn in one task, held it ~300 ms in Chromium on a loaded 2-core
 * machine). Smaller programs are drawn at once.
 */
export const STEPPED_OVER = 200;

export function bindAnalyzeView(client, examples, getState, setAnalyze, core, { onSelectLine = () => {} } = {}) {
  // The section's state is state.analyze (web/analyze_state.js): which request is the newest, the
  // texts its rows and errors refer to, what it shows. What this closure keeps besides is not
  // state: caches of what that state gives, and the drawing's progress (each says why below).
  const a = () => getState().analyze;
  const change = (f) => setAnalyze(f(a()));

  // The texts of the store (shown.text, errorsText) with their line starts, counted once per text
  // (a 5 MB text has ~100,000 lines). A cache, not state: dropping it only costs a recount.
  let sources = [];
  /** `text` (or null) as a source (textSource): the same one while the text is on show. */
  function sourceOf(text) {
    if (typeof text !== 'string') return null;
    const known = sources.find((x) => x.text === text);
    if (known) return known;
    const made = textSource(text);
    sources = [made, ...sources].slice(0, 2); // the text on show, and the errors' when it is another
    return made;
  }
  const shownSource = () => sourceOf(a().shown?.text);

  async function request(text, name) {
    const mb = text.length / 1e6;
    change((s) =>
      setPending(s, `analysing ${mb >= 0.1 ? `${short(mb, 3)} MB` : `${text.length} characters`} in the Worker…`),
    );
    const id = a().request;
    try {
      const value = await client.analyze(text, name);
      if (!isLatestRequest(a(), id)) return; // a later request, or Clear: nothing to change or redraw
      change((s) => setAnalysis(s, { ...value, text, request: id }));
      const first = value.errors[0];
      if (first?.line) selectInTextarea(sourceOf(text), first.line, first.column);
    } catch (e) {
      if (!isLatestRequest(a(), id)) return;
      change((s) => (e instanceof CancelledError ? setCancelled(s, id) : setFailure(s, e.message, id)));
    }
  }

  /** Runs the analysis on show (its text) in the Worker; a later analysis or Clear drops the answer. */
  async function runShown() {
    const s = a();
    if (!s.shown?.text || s.run?.pending) return;
    const seq = s.shown.seq;
    const mb = s.shown.text.length / 1e6;
    const args =
      s.runChoice.inputs === 'seeded'
        ? `seeded values, seed ${s.runChoice.seed}`
        : s.runChoice.inputs === 'files'
          ? `the files ${s.runChoice.files.map((f) => f.name).join(', ') || '(none chosen)'}`
          : 'arange(size)/size';
    change((x) =>
      setRunPending(
        x,
        `running ${s.shown.name}${mb >= 0.1 ? ` (${short(mb, 3)} MB)` : ''} in the Worker, timing each op (arguments, if any: ${args})…`,
      ),
    );
    try {
      const value = await client.run(s.shown.text, s.shown.name, s.runChoice, runProgress());
      change((x) => setRun(x, seq, value));
    } catch (e) {
      change((x) => (e instanceof CancelledError ? setRunCancelled(x, seq) : setRunFailure(x, seq, e.message)));
    }
  }

  const input = bindAnalyzeInput(examples, {
    onText: (text, name) => {
      if (text.trim() === '') {
        // Clear (or a box emptied by hand): the results of the old text go with it, and an
        // answer still to come is dropped (setCleared counts a request).
        if (a().pending) client.cancel();
        if (a().run?.pending) client.cancelRun();
        change((s) => setCleared(s));
        return;
      }
      request(text, name);
    },
    onCancel: () => client.cancel(),
  });
  const select = (index) => {
    // The table shows the selected row: its page (when the view is derived; a click on a row is on its page already).
    const at = drawing ? -1 : (derive(getState())?.sorted.findIndex((r) => r.index === index) ?? -1);
    change((s) => (at >= 0 ? setPage(setSelected(s, index), pageOf(at)) : setSelected(s, index)));
    const row = getState().analyze.shown?.summary.ops[index];
    if (row) {
      selectInTextarea(shownSource(), row.line, row.column);
      onSelectLine(row.line, row.column, getState().analyze.shown?.name);
    }
    scrollToSelected();
  };
  /** Selects fusion `j` of the run on show: its ops' rows and lines are marked (the first op's page shown), and its lines selected in the text. */
  const selectFusion = (j) => {
    change((s) => setSelectedFusion(s, j));
    const view = drawing ? null : derive(getState());
    const f = view?.fusions[j];
    if (!f) return;
    const first = f.indices.length ? view.sorted.findIndex((r) => f.indices.includes(r.index)) : -1;
    if (first >= 0) change((s) => setPage(s, pageOf(first)));
    const span = fusionSpan(f);
    selectLinesInTextarea(shownSource(), span.from.line, span.from.column, span.to);
    onSelectLine(f.line, f.column, getState().analyze.shown?.name);
  };
  const figure = createAnalysisFigure($('#analyze-roofline'), {
    onSelect: select,
    onSelectFusion: selectFusion,
    legend: $('#analyze-legend'),
  });
  bindAnalyzeFusions({
    onSelect: selectFusion,
    onPage: (step) => change((s) => setFusionPage(s, (s.fusionPage ?? 0) + step)),
  });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => figure.restyle());
  bindAnalyzeTable({
    onSort: (key) => change((s) => setSort(s, nextSort(s.sort, key))),
    onSelect: select,
    onPage: (move) =>
      change((s) => setPage(s, move(s.page, Math.ceil((s.shown?.summary.ops.length ?? 0) / TABLE_PAGE)))),
  });
  bindAnalyzeRun({
    onRun: () => runShown(),
    onCancel: () => client.cancelRun(),
    onChoice: (choice) => change((s) => setRunChoice(s, choice)),
  });
  bindAnalyzeSummary({
    onRoof: (id) => change((s) => setRoof(s, id)),
    onDtype: (d) => change((s) => setDtype(s, d)),
    onAllRoofs: (on) => change((s) => setAllRoofs(s, on)),
  });

  // The view derived from the store: analyzeBaseStepsOf's value for the parts analyzeBaseKey
  // names, then its rows in the order chosen (withSort). A cache, not state: dropping it changes
  // nothing shown, it only costs a derivation. Not kept in the store either: it is rows, the
  // roofline's arrays and the figure's points, which the serialized state would carry.
  let base = { key: null, value: null }; // analyzeBaseStepsOf's value, and the key it was derived for
  let memo = { base: null, sort: null, view: null }; // base with its rows in an order
  /** The view of `b` (a base) in the order `sort`, sorted once per base and order. */
  function viewOf(b, sort) {
    if (!b) return null;
    if (memo.base !== b || memo.sort !== sort) memo = { base: b, sort, view: withSort(b, sort) };
    return memo.view;
  }

  /** What the view shows, now (derived at once if it is not yet): recomputed only when the analysis, its options, the budgets or the measurements change. */
  function derive(state) {
    const key = analyzeBaseKey(state);
    if (!sameKey(key, base.key)) base = { key, value: runSteps(analyzeBaseStepsOf(core, state)) };
    return viewOf(base.value, state.analyze.sort);
  }

  // A big program's base is derived in slices, one derivation at a time: a redraw that needs the
  // same base while it is being derived waits for it rather than starting again. `job` is that
  // derivation while its tasks run ({key, alive, then}), or null: a handle on work under way (what
  // it will give goes into the cache above), not state.
  let job = null;
  function deriveInSlices(state, then) {
    const key = analyzeBaseKey(state);
    if (sameKey(key, base.key)) {
      then(base.value);
      return;
    }
    if (job && sameKey(key, job.key)) {
      job.then = then;
      return;
    }
    if (job) job.alive = false;
    const mine = { key, alive: true, then };
    job = mine;
    sliced(
      analyzeBaseStepsOf(core, state),
      () => mine.alive,
      (value) => {
        job = null;
        base = { key, value };
        mine.then(value);
      },
      (e) => {
        job = null;
        drawing = false;
        throw e; // a bug (the roofs are checked data): the page's error, not a silent stop
      },
      later,
    );
  }

  // What the figure was last drawn from (analyzeFigureKey): a new order or page of the table
  // leaves it as it is. Not state: a record of what the canvas holds (Chart.js's, not the store's);
  // dropping it only costs drawing the same picture again.
  let figureFrom = null;
  function renderFigure(view, state) {
    const s = state.analyze;
    const from = analyzeFigureKey(state);
    if (sameKey(from, figureFrom)) return;
    figureFrom = from;
    const { points, program, notDrawn, measured } = view.figure;
    // With a run on show, this machine's measured roofs are drawn beside the chosen one.
    const drawn = s.allRoofs
      ? view.roofs
      : view.roofs.filter((r) => r.id === view.roof.id || (view.run && r.kind === 'measurement'));
    const roofs = drawn.map((r) => ({
      label: r.id === view.roof.id ? `roof: ${r.label}` : r.label,
      kind: r.kind,
      primary: r.id === view.roof.id,
      curve: r.line.curve,
    }));
    const fusionOps = s.selectedFusion === null ? [] : (view.fusions[s.selectedFusion]?.indices ?? []);
    figure.render({
      points,
      program,
      roofs,
      selected: s.selected,
      measured: view.run ? measured : [],
      fusions: view.figure.fusions,
      selectedFusion: s.selectedFusion,
      fusionOps,
    });
    const parts = [];
    if (notDrawn.noFlops)
      parts.push(
        notDrawn.noFlops === 1
          ? '1 top-level op with no flops (data movement, transcendentals only) or unmodeled has no place on a log axis and is not drawn'
          : `${notDrawn.noFlops} top-level ops with no flops (data movement, transcendentals only) or unmodeled have no place on a log axis and are not drawn`,
      );
    if (notDrawn.overLimit) {
      parts.push(
        `${points.length} of ${points.length + notDrawn.overLimit} ops with flops drawn, the ${points.length} with the most bytes accessed ` +
          '(the figure draws at most that many, so the page stays responsive; the table lists every op)',
      );
    }
    if (view.run && view.run.report.status !== 'not_run') {
      const f = view.figure.fusions;
      const over = f.notDrawn.overLimit
        ? ` of the ${f.estimated.length + f.notDrawn.overLimit} with flops, the ${f.estimated.length} with the most bytes`
        : '';
      const fused = view.run.report.fused
        ? `${f.measured.length} ${f.measured.length === 1 ? 'fusion' : 'fusions'}${over} (open squares: each fusion's estimate at its fused bytes; triangles of their own colour: what it achieved) and `
        : '';
      parts.push(
        `measured points (this machine, a measurement): ${fused}${measured.length} ops ${view.run.report.fused ? 'that ran alone ' : ''}at their achieved GFLOP/s, each joined by a thin line to its estimated ceiling` +
          (view.roofs.some((r) => r.kind === 'measurement')
            ? ''
            : '; measure this machine in section 4 to draw its measured roofs too'),
      );
    }
    $('#analyze-figure-note').textContent = parts.length ? `${parts.join('; ')}.` : '';
    $('#analyze-roofline').setAttribute(
      'aria-label',
      `Roofline of the analysed program, log–log: ${points.length} ops` +
        (program ? `; the program at ${short(program.x)} flops/byte, ceiling ${short(program.y)} GFLOP/s` : '') +
        ` under ${view.roof.label}.` +
        ` Y axis: ${analysisYTitle(Boolean(view.run) && (measured ?? []).length > 0)}.`,
    );
  }

  // A big program is derived in slices and drawn in steps, each its own task: the summary first,
  // then the figure, then the table. A newer draw drops the older steps. These three say how far
  // the page has got in drawing the store, not what it shows: a redraw is a function of the
  // store, so keeping them in it would make each step a change of the store, and each change a redraw.
  let drawToken = 0; // the newest redraw's number: an older one's steps still to come do nothing
  let drawing = false; // a big program's view is still being derived, or its figure or table drawn
  let renderMs = null; // the main-thread time of the last redraw, its tasks summed
  /** Puts `f` off to a task of its own, its time counted in the redraw's. */
  const later = (f) =>
    setTimeout(() => {
      const t1 = performance.now();
      f();
      renderMs += performance.now() - t1;
    }, 0);

  function render(state) {
    const t0 = performance.now();
    const token = ++drawToken;
    const s = state.analyze;
    const big = (s.shown?.summary.ops.length ?? 0) >= STEPPED_OVER;
    drawing = big;
    if (!big && job) {
      job.alive = false; // a big program's derivation, no longer wanted
      job = null;
    }
    if (!big) {
      for (const f of draw(state, derive(state))) f();
      renderMs = performance.now() - t0;
      return;
    }
    drawHead(state, ' Deriving and drawing its figure and table…');
    renderMs = performance.now() - t0;
    const alive = () => token === drawToken;
    deriveInSlices(state, (b) =>
      sortInSlices(b, s.sort, alive, (view) =>
        later(() => {
          if (!alive()) return;
          const steps = draw(state, view);
          const step = () => {
            if (!alive()) return;
            steps.shift()();
            if (steps.length) later(step);
            else drawing = false;
          };
          if (steps.length) later(step);
          else drawing = false;
        }),
      ),
    );
  }

  /** The view of base `b` in the order `sort`, to `then`: sorted in slices unless it is sorted already. */
  function sortInSlices(b, sort, alive, then) {
    if (memo.base === b && memo.sort === sort) {
      then(memo.view);
      return;
    }
    sliced(
      withSortSteps(b, sort),
      alive,
      (view) => {
        memo = { base: b, sort, view };
        then(view);
      },
      (e) => {
        drawing = false;
        throw e;
      },
      later,
    );
  }

  /** What is drawn before a view is derived: the input, and whose results are coming (`more`: what is still to come). */
  function drawHead(state, more = '') {
    const s = state.analyze;
    renderAnalyzeInput(s, sourceOf(errorsText(s)));
    if (s.cleared) $('#analyze-file').value = '';
    $('#analyze-results').hidden = !s.shown;
    if (!s.shown) return;
    $('#analyze-stale').hidden = s.errors.length === 0;
    $('#analyze-for').textContent =
      `Results for ${s.shown.name}, analysed at ${clockTime(s.shown.at)}` +
      `${s.shown.ms != null ? ` (${Math.round(s.shown.ms)} ms in the Worker)` : ''}.${more}`;
    renderAnalyzeRun(s, sourceOf(s.shown.text));
  }

  /** Draws `view` (the one of `state`): the summary now, the rest as the steps returned (the caller runs them now or later). */
  function draw(state, view) {
    const s = state.analyze;
    drawHead(state);
    if (!view) return [];
    renderAnalyzeSummary(view, s);
    return [
      () => renderFigure(view, state),
      () => {
        const inFusion = s.selectedFusion === null ? null : (view.fusions[s.selectedFusion] ?? null);
        renderAnalyzeTable(view, s.sort, s.selected, s.page, inFusion);
        renderAnalyzeFusions(view, s.selectedFusion, s.fusionPage ?? 0);
        showSelectedLine(
          sourceOf(s.shown?.text),
          s.selected === null ? (inFusion ? { line: fusionSpan(inFusion).from.line } : null) : view.rows[s.selected],
        );
      },
    ];
  }

  return {
    render,
    figure,
    currentName: input.currentName,
    /** Analyses `text` (a module lowered in the Write tab) as pasted text is, under `name`. */
    analyzeProgram: (text, name) => request(text, name),
    /** Milliseconds the last redraw of the section took (main thread, its steps summed). */
    renderMs: () => renderMs,
    /** Whether a big program's view is still being derived, or its figure or table drawn (in later tasks). */
    drawing: () => drawing,
    /** The rows as the table orders them (plain data). */
    rows: () => derive(getState())?.sorted.map((r) => ({ ...r })) ?? [],
    /** The view on show; null while a big program's is still being derived (nothing is derived here then). */
    view: () => (drawing ? null : derive(getState())),
    /** What the run part shows (plain data): rooflineLab.runView(). */
    runView: () => {
      const s = getState().analyze;
      const run = s.shown && s.run?.seq === s.shown.seq ? s.run : null;
      if (!run)
        return {
          state: 'none',
          name: s.shown?.name ?? null,
          choice: { ...s.runChoice },
          pending: null,
          at: null,
          inputs: null,
          status: null,
          error: null,
          checks: [],
          not_run: null,
          unsupported: [],
          measured: null,
          bound_seconds: null,
          fused_bound_seconds: null,
          measured_fused: null,
          fused: null,
          dot_epilogues: null,
          results: [],
          rows: [],
          fusions: [],
        };
      const view = derive(getState());
      const r = run.report;
      const state = run.pending ? 'running' : run.cancelled ? 'cancelled' : run.error ? 'error' : r ? 'done' : 'none';
      return structuredClone({
        state,
        name: run.name,
        choice: { ...s.runChoice },
        pending: run.pending,
        at: run.at,
        inputs: r?.inputs ?? null,
        status: r?.status ?? null,
        error: run.error,
        checks: r?.checks ?? [],
        not_run: r ? notRunText(r) || null : null,
        unsupported: r?.unsupported ?? [],
        measured: view?.run?.measured ?? null,
        bound_seconds: view?.bound.seconds ?? null,
        fused_bound_seconds: view?.fusedBound?.seconds ?? null,
        measured_fused: view?.run?.measuredFused ?? null,
        fused: r ? Boolean(r.fused) : null,
        dot_epilogues: r?.fused ? r.dot_epilogues !== false : null,
        results: r?.results ?? [],
        rows: r
          ? view.rows
              .filter((x) => x.seconds !== null)
              .map((x) => ({
                index: x.index,
                line: x.line,
                column: x.column,
                op: x.op,
                seconds: x.seconds,
                gflops: x.gflops,
                gbs: x.gbs,
                ofRoof: x.ofRoof,
                view: x.view,
                ceiling: view.ceilings[x.index],
              }))
          : [],
        fusions: r
          ? view.fusions.map((f) => ({
              fusion: f.fusion,
              name: f.name,
              kind: f.kind,
              line: f.line,
              column: f.column,
              ops: f.ops,
              indices: f.indices,
              within: f.within,
              flops: f.flops,
              bytes: f.bytes,
              intensity: f.intensity,
              seconds: f.seconds,
              gflops: f.gflops,
              gbs: f.gbs,
              ofRoof: f.ofRoof,
              ceiling: f.ceiling,
              bound: f.bound,
              fallback: f.fallback,
            }))
          : [],
      });
    },
  };
}
