// Section 8's "Run in this browser": the button, the arguments' choice, the run's progress and
// Cancel, its status (passed, failed, not run, an error — or cancelled, a calm state of its own),
// what could not run (the op and its line; the estimate stays on show), and each check call's
// verdict by line. The numbers it names are the core's run report (web/model/run.js).
import { bytesText, clockTime, duration, sci } from '../model/format.js';
import { FUSE_IN_LINK, fuseWord } from '../analyze_state.js';
import { PAGE_TIME_BUDGET_SECONDS, PAGE_TIMING_BUDGET_SECONDS } from '../model/run.js';
import { fillExcerpt } from './analyze_input_view.js';
import { $, el } from './dom.js';

/** Checks listed at most (a corpus file can hold thousands); the count says how many more. */
export const CHECK_LIMIT = 200;

const seconds = (s) => (s > 0 ? `${sci(s, 3)} s` : '0 s');

/** The words for a report's arguments: the core's own ("seeded (seed 1)", "arange", "none"). */
function argumentsText(report) {
  return report.inputs === 'none' ? 'no arguments to make' : `arguments: ${report.inputs}`;
}

/**
 * @param {{onRun: () => void, onCancel: () => void, onChoice: (choice: {inputs?: string, seed?: number,
 *   files?: {name: string, bytes: Uint8Array}[], fuse?: boolean, dotEpilogues?: boolean, memoryCap?: number | null}) => void}} handlers
 */
export function bindAnalyzeRun({ onRun, onCancel, onChoice }) {
  $('#analyze-run').addEventListener('click', () => onRun());
  $('#analyze-run-cancel').addEventListener('click', () => onCancel());
  $('#analyze-inputs').addEventListener('change', (e) => onChoice({ inputs: e.target.value }));
  $('#analyze-fuse').addEventListener('change', (e) => onChoice(FUSE_IN_LINK[e.target.value] ?? FUSE_IN_LINK.fused));
  $('#analyze-memory').addEventListener('change', (e) =>
    onChoice({ memoryCap: e.target.value === '' ? null : Number(e.target.value) }),
  );
  // .npy files chosen, or dropped anywhere on the run's row (which then takes its arguments from
  // files): their bytes, in the order given; the core reads and checks them against the program's
  // arguments when it runs (a file that is not NumPy's format is named there, with the rule).
  const readArgs = async (list) =>
    Promise.all([...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
  $('#analyze-args').addEventListener('change', async (e) => onChoice({ files: await readArgs(e.target.files) }));
  const row = $('#analyze-run-controls');
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  row.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    row.classList.add('dragging');
  });
  row.addEventListener('dragleave', (e) => {
    if (!row.contains(e.relatedTarget)) row.classList.remove('dragging');
  });
  row.addEventListener('drop', async (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    row.classList.remove('dragging');
    const dropped = e.dataTransfer.files;
    if (dropped.length) onChoice({ inputs: 'files', files: await readArgs(dropped) });
  });
  $('#analyze-seed').addEventListener('change', (e) => {
    const seed = Number(e.target.value);
    const ok = e.target.value.trim() !== '' && Number.isInteger(seed) && seed >= 0 && seed <= Number.MAX_SAFE_INTEGER;
    e.target.setAttribute('aria-invalid', String(!ok));
    e.target.title = ok
      ? ''
      : `the seed must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(e.target.value)}`;
    if (ok) onChoice({ seed });
  });
}

let resultUrls = []; // the download links' object URLs, revoked when the links change
let shownFiles = null; // the files the links are for

/** The run's results as .npy downloads (np.load reads them), or a result's reason when it has none. */
function renderResultFiles(files) {
  const box = $('#analyze-run-files');
  if (files === shownFiles || (files.length === 0 && !shownFiles?.length)) return;
  for (const u of resultUrls) URL.revokeObjectURL(u);
  resultUrls = [];
  shownFiles = files;
  box.hidden = files.length === 0;
  const parts = [document.createTextNode('Results as NumPy files: ')];
  files.forEach((f, i) => {
    if (i) parts.push(document.createTextNode(', '));
    if (f.bytes) {
      const url = URL.createObjectURL(new Blob([f.bytes], { type: 'application/octet-stream' }));
      resultUrls.push(url);
      const link = el('a', f.name);
      link.href = url;
      link.download = f.name;
      parts.push(link);
    } else {
      parts.push(el('span', `${f.name} (not saved: ${f.error})`));
    }
  });
  box.replaceChildren(...parts);
}

/** Results listed (and a tuple's elements, at each level) before "and N more". */
export const RESULT_LIMIT = 16;

/**
 * The run's results as the core summarized them: each result's type, checksum and first values,
 * a tuple's elements nested under it with their paths ([1][0]), as `run.mjs` prints them.
 */
function renderResults(report, memoryCap) {
  const box = $('#analyze-run-results');
  const results = report && (report.status === 'passed' || report.status === 'failed') ? (report.results ?? []) : [];
  box.hidden = results.length === 0;
  if (box.hidden) return;
  const items = (xs, path) => {
    const list = xs.slice(0, RESULT_LIMIT).map((x, i) => {
      const label = path === null ? `result ${i}` : `${path}[${i}]`;
      const li = el('li');
      const values = x.elements ? `tuple of ${x.elements.length}` : `first values ${x.preview}`;
      li.append(el('code', label), document.createTextNode(` ${x.shape}: checksum ${x.checksum}, ${values}`));
      if (x.elements?.length) {
        const inner = el('ol');
        inner.append(...items(x.elements, path === null ? `[${i}]` : label));
        li.append(inner);
      }
      return li;
    });
    if (xs.length > RESULT_LIMIT) list.push(el('li', `and ${xs.length - RESULT_LIMIT} more`));
    return list;
  };
  $('#analyze-run-result-list').replaceChildren(...items(results, null));
  // Memory (issue 22 item 15): what the run held, beside what the program's IR says it needs.
  $('#analyze-run-memory').textContent =
    `Memory: the live tensors peaked at ${bytesText(report.peak_bytes)} (measured); by its IR the ` +
    `program's values need at most ${bytesText(report.memory_need_bytes)} (an estimate, ops' scratch not counted); ` +
    (memoryCap === null || memoryCap === undefined
      ? "its cap: as much as this tab's core could still take."
      : `its cap: ${bytesText(memoryCap)} (the choice above).`);
}

/**
 * What a run timed, in words: "3 ops timed" op by op; "2 fusions and 3 ops alone timed" fused
 * (a body's fusion is not timed on its own: its time is in the op that holds it).
 */
export function timedText(r) {
  const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (!r.fused) return `${plural(r.ops.length, 'op')} timed`;
  const fusions = (r.fusions ?? []).filter((f) => !f.within).length;
  const inBodies = (r.fusions ?? []).length - fusions;
  return (
    `fused as ${r.dot_epilogues === false ? "XLA's CPU backend fuses it" : 'a compiler would fuse it'}: ${plural(fusions, 'fusion')} and ${plural(r.ops.length, 'op')} alone timed` +
    (inBodies ? ` (and ${plural(inBodies, 'fusion')} in loop or call bodies, timed with the op that holds them)` : '')
  );
}

/** The one-line verdict of a finished run (the status line). */
export function runSummaryText(run) {
  const r = run.report;
  const checks = r.checks.length
    ? `${r.checks.filter((c) => c.passed).length} of ${r.checks.length} checks passed`
    : 'no checks in the text';
  const when = `Ran ${run.name} at ${clockTime(run.at)} (${argumentsText(r)})`;
  const timed =
    r.untimed_ops > 0
      ? `${timedText(r)}, measured ${seconds(r.ops_seconds)} for them; ${r.untimed_ops} more ran untimed once ${PAGE_TIMING_BUDGET_SECONDS} s had gone to timing (no program total)`
      : `${timedText(r)}, measured ${seconds(r.ops_seconds)} in all`;
  switch (r.status) {
    case 'passed':
      return `${when}: passed — ${checks}; ${timed} (a measurement of this machine).`;
    case 'failed':
      return `${when}: FAILED — ${checks}; ${timed}.`;
    case 'not_run':
      return `${when}: not run — the interpreter cannot run an op of it (below); the estimates stay on show.`;
    default:
      return `${when}: stopped with an error (below); the estimates stay on show.`;
  }
}

/** Why the program did not run (not_run or error), naming the op or place; '' when it ran. */
export function notRunText(report) {
  if (report.status === 'not_run') {
    const seen = new Set();
    const parts = [];
    for (const u of report.unsupported) {
      const t = `${u.op} at line ${u.line} (${u.why})`;
      if (!seen.has(t)) parts.push(t);
      seen.add(t);
    }
    const more = parts.length > 5 ? `; and ${parts.length - 5} more` : '';
    return `Not run: ${parts.slice(0, 5).join('; ')}${more}. Nothing was run or guessed; the estimates above stay.`;
  }
  if (report.status === 'error') {
    const e = report.errors[0];
    if (!e) return 'The run stopped with an error.';
    return `The run stopped${e.line ? ` at line ${e.line}, column ${e.column}` : ''}: ${e.message}. The estimates stay on show.`;
  }
  return '';
}

/** Draws the run part of section 8 from state.analyze `a`. */
/**
 * The run's progress bar for a run that starts now: it shows no value (busy) until the Worker's
 * first word, then how many of the entry's ops have run. Returns the pool's onProgress.
 */
let elapsedTimer = null; // while a run goes on: the time gone so far, beside the limit

export function runProgress() {
  const bar = $('#analyze-run-progress');
  bar.removeAttribute('value');
  bar.removeAttribute('aria-valuetext');
  const started = performance.now();
  const elapsed = $('#analyze-run-elapsed');
  const tell = () => {
    elapsed.textContent = `${duration((performance.now() - started) / 1000)} of at most ${duration(PAGE_TIME_BUDGET_SECONDS)}`;
  };
  tell();
  clearInterval(elapsedTimer);
  elapsedTimer = setInterval(tell, 250);
  return (done, total, label) => {
    if (!(total > 0)) return;
    bar.max = total;
    bar.value = done;
    bar.setAttribute('aria-valuetext', label);
  };
}

/**
 * @param {object} a  state.analyze
 * @param {{text: string, lines: () => number[]} | null} source  the text on show (a run's error
 *   is shown in it, with a caret under its column)
 */
export function renderAnalyzeRun(a, source = null) {
  const run = a.run?.seq === a.shown?.seq ? a.run : null;
  const busy = Boolean(run?.pending);
  const runButton = $('#analyze-run');
  const cancel = $('#analyze-run-cancel');
  // A button that becomes disabled would drop the keyboard's focus to <body>: it moves to the
  // other one (Run → Cancel while the run works, Cancel → Run when it ends).
  const focusRun = document.activeElement === runButton;
  const focusCancel = document.activeElement === cancel;
  runButton.disabled = busy || Boolean(a.pending) || !a.shown;
  cancel.disabled = !busy;
  if (focusRun && runButton.disabled && !cancel.disabled) cancel.focus();
  if (focusCancel && cancel.disabled && !runButton.disabled) runButton.focus();
  $('#analyze-run-progress').hidden = !busy;
  $('#analyze-run-elapsed').hidden = !busy;
  if (!busy && elapsedTimer !== null) {
    clearInterval(elapsedTimer);
    elapsedTimer = null;
  }
  const inputs = $('#analyze-inputs');
  if (inputs.value !== a.runChoice.inputs) inputs.value = a.runChoice.inputs;
  const fuse = $('#analyze-fuse');
  const how = fuseWord(a.runChoice);
  if (fuse.value !== how) fuse.value = how;
  const memory = $('#analyze-memory');
  const cap = a.runChoice.memoryCap === null ? '' : String(a.runChoice.memoryCap);
  if (memory.value !== cap) memory.value = cap;
  const seed = $('#analyze-seed');
  if (document.activeElement !== seed && seed.getAttribute('aria-invalid') !== 'true')
    seed.value = String(a.runChoice.seed);
  seed.disabled = a.runChoice.inputs !== 'seeded';
  $('#analyze-args').hidden = a.runChoice.inputs !== 'files';
  renderResultFiles(run && !busy ? (run.files ?? []) : []);
  const status = $('#analyze-run-status');
  const report = run?.report ?? null;
  let text = '';
  if (busy) text = run.pending;
  else if (run?.cancelled)
    text = `Run cancelled.${report ? " The earlier run's results are kept below." : ' Nothing was measured.'}`;
  else if (run?.error) text = `The run did not finish in the Worker: ${run.error}`;
  else if (report) text = runSummaryText(run);
  status.textContent = text;
  status.dataset.state = busy
    ? 'running'
    : run?.cancelled
      ? 'cancelled'
      : run?.error
        ? 'error'
        : report
          ? report.status
          : 'none';
  const notRun = $('#analyze-run-notrun');
  const why = report ? notRunText(report) : '';
  notRun.hidden = !why;
  notRun.textContent = why;
  // A run stopped at a place: the text around it, a caret under the column (as the analysis's errors).
  const where = report?.status === 'error' ? report.errors[0] : null;
  const pre = $('#analyze-run-error-excerpt');
  pre.hidden = !where?.line || !source;
  if (!pre.hidden) fillExcerpt(pre, source, where.line, where.column);
  renderResults(busy ? null : report, run?.memoryCap ?? null);
  const box = $('#analyze-run-checks');
  box.hidden = !report || report.checks.length === 0;
  if (box.hidden) return;
  const list = report.checks.slice(0, CHECK_LIMIT).map((c) => {
    const li = el('li', '', c.passed ? 'check passed' : 'check failed');
    li.append(
      el('span', c.passed ? 'passed' : 'FAILED', 'verdict'),
      document.createTextNode(` line ${c.line}: ${c.kind}${c.passed ? '' : ` — ${c.detail}`}`),
    );
    return li;
  });
  if (report.checks.length > CHECK_LIMIT)
    list.push(
      el(
        'li',
        `and ${report.checks.length - CHECK_LIMIT} more checks (${report.checks.slice(CHECK_LIMIT).filter((c) => !c.passed).length} of them failed)`,
      ),
    );
  $('#analyze-checks').replaceChildren(...list);
}
