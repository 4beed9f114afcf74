// Section 8's input: the text area, file open and drop, the bundled examples, the Worker's
// status, and the errors (line:col, with the text around it). Pasted text is only ever put in
// with textContent or as the text area's value.
import { excerpt, lineStarts } from '../model/analysis_view.js';
import { caretUnder } from '../model/columns.js';
import { $, el } from './dom.js';

/** Text typed into the box is analysed this long after the last keystroke. */
export const TYPING_DELAY_MS = 400;
/**
 * A file, example or paste longer than this (characters) is analysed whole but shown in the text area
 * only as its first PREVIEW_CHARS, read-only: a text area lays out all of its text at once, and
 * in Chromium on a loaded 2-core machine 100 kB took 130 ms, 175 kB 220–500 ms of one task (20 kB:
 * 7 ms). The excerpts under the table and the error read the whole text.
 */
export const PREVIEW_OVER = 100000;
export const PREVIEW_CHARS = 20000;

/** A text and its line starts (computed once, when first needed). */
export function textSource(text) {
  let starts = null;
  return { text, lines: () => (starts ??= lineStarts(text)) };
}

/**
 * Fills `pre` with the lines around `line`, the line itself in a <mark>, and a caret under the
 * core's byte `column` (web/model/columns.js: characters, tabs kept, a long line's window around it).
 */
export function fillExcerpt(pre, source, line, column) {
  const parts = [];
  const starts = source.lines();
  for (const l of excerpt(source.text, starts, line)) {
    const label = `${String(l.number).padStart(6)} | `;
    if (l.number === line) {
      const end = line < starts.length ? starts[line] - 1 : source.text.length;
      const whole = source.text.slice(starts[line - 1], end).replace(/\r$/, '');
      const { text, pad } = column ? caretUnder(whole, column) : { text: l.text, pad: '' };
      parts.push(document.createTextNode(label), el('mark', text || ' '), document.createTextNode('\n'));
      if (column) parts.push(document.createTextNode(`${' '.repeat(label.length)}${pad}^\n`));
    } else {
      parts.push(document.createTextNode(`${label}${l.text}\n`));
    }
  }
  pre.replaceChildren(...parts);
}

/** Selects line (and column) in the text area and scrolls it into view, without taking focus. */
export function selectInTextarea(source, line, column = 1) {
  const area = $('#analyze-text');
  if (!source || !line) return;
  const preview = area.readOnly && area.value.length < source.text.length && source.text.startsWith(area.value);
  if (area.value !== source.text && !preview) return;
  const s = source.lines();
  const start = s[line - 1] ?? 0;
  const end = Math.min(line < s.length ? s[line] - 1 : source.text.length, area.value.length);
  if (start >= end) return;
  area.setSelectionRange(Math.min(start + Math.max(0, column - 1), end), end);
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
  area.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

/** Selects lines `fromLine` (from `fromColumn`) to `toLine` (its end) in the text area: a fusion's ops. */
export function selectLinesInTextarea(source, fromLine, fromColumn, toLine) {
  const area = $('#analyze-text');
  if (!source || !fromLine || !toLine) return;
  const preview = area.readOnly && area.value.length < source.text.length && source.text.startsWith(area.value);
  if (area.value !== source.text && !preview) return;
  const s = source.lines();
  const start = (s[fromLine - 1] ?? 0) + Math.max(0, fromColumn - 1);
  const end = Math.min(toLine < s.length ? s[toLine] - 1 : source.text.length, area.value.length);
  if (start >= end) return;
  area.setSelectionRange(start, end);
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
  area.scrollTop = Math.max(0, (fromLine - 3) * lineHeight);
}

/** Shows the selected op's line under the table (or hides the excerpt). */
export function showSelectedLine(source, row) {
  const pre = $('#analyze-excerpt');
  pre.hidden = !row || !source;
  if (pre.hidden) return;
  fillExcerpt(pre, source, row.line, null);
}

/**
 * Wires the inputs. `onText(text, name, {immediate})` asks for an analysis.
 * @param {{name: string, title: string, text: string}[]} examples
 */
export function bindAnalyzeInput(examples, { onText, onCancel }) {
  const area = $('#analyze-text');
  const box = $('#analyze-examples');
  let timer = null;
  let fileName = null; // the name of the file or example the text came from, until it is edited
  const note = $('#analyze-preview-note');
  const now = (t, name) => {
    clearTimeout(timer);
    fileName = name;
    const preview = t.length > PREVIEW_OVER;
    const cut = preview ? t.lastIndexOf('\n', PREVIEW_CHARS) + 1 || PREVIEW_CHARS : t.length;
    area.value = preview ? t.slice(0, cut) : t;
    area.readOnly = preview;
    note.hidden = !preview;
    if (preview) {
      // Why read-only, and the way to edit it all the same (a text box lays out all of its text at
      // once: a few seconds for megabytes, a frozen page meanwhile).
      const edit = el('button', `Edit all ${t.length} characters here`);
      edit.type = 'button';
      edit.addEventListener('click', () => {
        area.readOnly = false;
        area.value = t;
        note.hidden = true;
        area.focus();
        area.setSelectionRange(0, 0);
      });
      note.replaceChildren(
        `${name} has ${t.length} characters: the whole text is analysed, and the box shows its first ` +
          `${cut}, read-only (a text box lays out all of its text at once, and the page would stall while it ` +
          `did). Clear the box to paste other text, or `,
        edit,
        ' (the page may pause while it lays the text out).',
      );
    }
    onText(t, name, { immediate: true });
  };
  $('#analyze-clear').addEventListener('click', () => {
    clearTimeout(timer);
    area.readOnly = false;
    note.hidden = true;
    area.value = '';
    area.focus();
    onText('', 'input', { immediate: true });
  });
  for (const ex of examples) {
    const b = el('button', ex.title);
    b.type = 'button';
    b.dataset.example = ex.name;
    b.addEventListener('click', () => now(ex.text, `${ex.name}.mlir`));
    box.append(b);
  }
  // A paste that would make the text longer than PREVIEW_OVER goes the way an opened file goes:
  // the text area never lays it out (a 5 MB paste froze the page for 0.4–1.3 s).
  area.addEventListener('paste', (e) => {
    if (area.readOnly) return;
    const pasted = e.clipboardData?.getData('text/plain') ?? '';
    const whole = area.value.slice(0, area.selectionStart) + pasted + area.value.slice(area.selectionEnd);
    if (whole.length <= PREVIEW_OVER) return;
    e.preventDefault();
    now(whole, 'pasted text');
  });
  area.addEventListener('input', () => {
    if (area.readOnly) return;
    clearTimeout(timer);
    fileName = null;
    timer = setTimeout(() => onText(area.value, 'input', { immediate: false }), TYPING_DELAY_MS);
  });
  const readFile = async (file) => {
    if (!file) return;
    $('#analyze-status').textContent = `reading ${file.name}…`;
    now(await file.text(), file.name);
  };
  $('#analyze-file').addEventListener('change', (e) => readFile(e.target.files[0]));
  area.addEventListener('dragover', (e) => {
    e.preventDefault();
    area.classList.add('dragging');
  });
  area.addEventListener('dragleave', () => area.classList.remove('dragging'));
  area.addEventListener('drop', (e) => {
    e.preventDefault();
    area.classList.remove('dragging');
    readFile(e.dataTransfer?.files?.[0]);
  });
  $('#analyze-cancel').addEventListener('click', () => onCancel());
  return { currentName: () => fileName ?? 'input' };
}

/** Status, progress and errors from state.analyze; `source`: the text the errors refer to. */
export function renderAnalyzeInput(a, source) {
  const busy = Boolean(a.pending);
  $('#analyze-progress').hidden = !busy;
  $('#analyze-cancel').disabled = !busy;
  const status = $('#analyze-status');
  if (busy) status.textContent = a.pending;
  else if (a.cancelled)
    status.textContent = `Analysis cancelled.${a.shown ? ` The results below are still those of ${a.shown.name}.` : ''}`;
  else if (a.cleared) status.textContent = 'Cleared: paste, drop or open a program.';
  else if (a.ms !== null && a.errors.length === 0)
    status.textContent = `Analysed ${a.shown?.name ?? 'the text'} in ${Math.round(a.ms)} ms (in the Worker).`;
  else if (a.errors.length) status.textContent = 'The text did not analyse: see the message below.';
  else status.textContent = '';
  status.dataset.state = busy
    ? 'busy'
    : a.cancelled
      ? 'cancelled'
      : a.cleared
        ? 'cleared'
        : a.errors.length
          ? 'error'
          : a.ms !== null
            ? 'done'
            : 'none';
  const box = $('#analyze-error');
  box.hidden = a.errors.length === 0;
  $('#analyze-text').setAttribute('aria-invalid', String(a.errors.length > 0));
  if (!a.errors.length) return;
  const first = a.errors[0];
  const where = first.line ? `line ${first.line}, column ${first.column} (${first.line}:${first.column}): ` : '';
  const more =
    a.errors.length > 1
      ? ` (and ${a.errors.length - 1} more: ${a.errors
          .slice(1)
          .map((e) => `${e.line}:${e.column}`)
          .join(', ')})`
      : '';
  $('#analyze-error-message').textContent = `${where}${first.message}${more}`;
  const pre = $('#analyze-error-excerpt');
  pre.hidden = !first.line || !source;
  if (!pre.hidden) fillExcerpt(pre, source, first.line, first.column);
}
