// Section 8's tabs (Paste / open, and Write) and the Write tab: the Python editor and the
// StableHLO beside it (web/editor/code_editor.js), the examples, lowering as you type (in the
// Worker, 300 ms after the last keystroke; an answer to an older source is dropped), the error at
// program.py:LINE:COL marked in the editor, and the lowered module handed to section 8's analysis.
import { createCodeEditor } from '../editor/code_editor.js';
import { WRITE_EXAMPLES } from '../model/write_examples.js';
import {
  dismissWriteNotice,
  errorText,
  exampleSource,
  setLowered,
  setLowerFailure,
  setLowerPending,
  setWriteMode,
  setWriteSource,
  undoExample,
  writeLink,
} from '../write_state.js';
import { $, el } from './dom.js';

/** The name a lowered module is analysed under (the results and the run say it). */
const nameOf = (fn) => `program.py (${fn}, lowered)`;

/** A source is lowered this long after the last keystroke. */
export const LOWER_DELAY_MS = 300;

/**
 * @param {{lower: (source: string) => Promise<object>}} client  the Worker pool's lower requests
 * @param {() => object} getState  the page state (state.write)
 * @param {(w: object) => void} setWrite  stores a new state.write, redraws it and writes the link
 * @param {(text: string, name: string) => void} analyze  hands a lowered module to section 8's analysis
 */
export function bindWriteView(client, getState, setWrite, analyze) {
  const w = () => getState().write;
  let editor = null;
  let hlo = null;
  let timer = null;
  let requested = null; // the source last sent to the Worker
  let analysed = null; // the module last handed to the analysis
  let marked; // the error last marked in the editor
  const tabs = [$('#analyze-tab-paste'), $('#analyze-tab-write')];
  const modeOf = (tab) => (tab.id === 'analyze-tab-write' ? 'write' : 'paste');

  /** Opens a tab; back on Write, its last module is analysed again if another program's results are on show. */
  function open(mode) {
    const before = w().mode;
    setWrite(setWriteMode(w(), mode));
    const l = w().lowered;
    if (mode === 'write' && before !== 'write' && l && getState().analyze.shown?.name !== nameOf(l.function)) {
      analysed = l.text;
      analyze(l.text, nameOf(l.function));
    }
  }
  for (const tab of tabs) {
    tab.addEventListener('click', () => open(modeOf(tab)));
    // The tabs pattern: arrows move between tabs (and open them), Home and End go to the ends.
    tab.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(tab);
      const to = {
        ArrowRight: (i + 1) % tabs.length,
        ArrowLeft: (i + tabs.length - 1) % tabs.length,
        Home: 0,
        End: tabs.length - 1,
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      tabs[to].focus();
      open(modeOf(tabs[to]));
    });
  }
  const select = $('#write-example');
  for (const ex of WRITE_EXAMPLES) {
    const option = el('option', ex.title);
    option.value = ex.name;
    select.append(option);
  }
  select.addEventListener('change', () => {
    if (select.value) setWrite(exampleSource(w(), select.value));
  });
  // Undo and Dismiss hide their own button: the focus goes to the editor, where the text is.
  $('#write-undo').addEventListener('click', () => {
    setWrite(undoExample(w()));
    if (w().undo.length === 0) editor?.focus();
  });
  $('#write-dismiss').addEventListener('click', () => {
    setWrite(dismissWriteNotice(w()));
    editor?.focus();
  });

  /** Sends the state's source to the Worker; its answer is dropped if a newer one was sent meanwhile. */
  function lower() {
    clearTimeout(timer);
    timer = null;
    const next = setLowerPending(w());
    requested = next.source;
    setWrite(next);
    const { seq, source } = next;
    const t0 = performance.now();
    client.lower(source).then(
      (result) => {
        setWrite(setLowered(w(), seq, result, performance.now() - t0));
        const now = w();
        if (result.ok && now.lowered?.seq === seq && result.text !== analysed) {
          analysed = result.text;
          analyze(result.text, nameOf(result.function));
        }
      },
      (e) => setWrite(setLowerFailure(w(), seq, e.message)),
    );
  }

  function typed(text) {
    if (text === w().source && timer === null) return; // the state's own text, put in by render
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      setWrite(setWriteSource(w(), text));
      if (w().source !== requested) lower();
    }, LOWER_DELAY_MS);
  }

  /**
   * The editors, made when the Write tab first opens (CodeMirror's work stays off the page's
   * start), each in a task of its own after the tab is drawn: a first editor (CodeMirror's code
   * compiled on first use, its DOM and measuring) is the longest single step of the tab.
   */
  let making = false;
  function makeEditors() {
    if (making) return;
    making = true;
    setTimeout(() => {
      // Made with the text to show: putting it in afterwards is a second update and layout.
      editor = createCodeEditor($('#write-editor'), {
        language: 'python',
        label: 'Python (JAX-style) to lower',
        text: w().source,
        onChange: typed,
      });
      render(getState());
      setTimeout(() => {
        hlo = createCodeEditor($('#write-hlo'), {
          language: null,
          readOnly: true,
          label: 'StableHLO the Python lowers to (read-only)',
          text: w().lowered?.text ?? '',
        });
        render(getState());
      }, 0);
    }, 0);
  }

  function render(state) {
    const s = state.write;
    for (const tab of tabs) {
      const on = modeOf(tab) === s.mode;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    $('#analyze-paste').hidden = s.mode !== 'paste';
    $('#analyze-write').hidden = s.mode !== 'write';
    const linkError = $('#write-link-error');
    linkError.hidden = !s.linkError;
    linkError.textContent = s.linkError ?? '';
    $('#write-notice-box').hidden = !s.notice;
    $('#write-notice').textContent = s.notice ?? '';
    $('#write-undo').hidden = s.undo.length === 0;
    $('#write-drafts-note').hidden = !state.drafts?.notice;
    $('#write-drafts-note').textContent = state.drafts?.notice ?? '';
    if (s.mode !== 'write') return;
    // A source not yet lowered (from a link, an example, the tab's first opening): lowered after this redraw.
    if (timer === null && s.source !== requested) {
      setTimeout(() => {
        if (w().mode === 'write' && w().source !== requested && timer === null) lower();
      }, 0);
    }
    select.value = s.example ?? '';
    if (!editor) makeEditors();
    // A source from a link or an example goes into the editor (typing is already there).
    if (editor && timer === null && editor.text() !== s.source) editor.setText(s.source);
    hlo?.setText(s.lowered?.text ?? '');
    if (editor && marked !== s.error) {
      marked = s.error;
      editor.markError(s.error);
    }
    const error = $('#write-error');
    error.hidden = !s.error;
    error.textContent = errorText(s.error);
    $('#write-stale').hidden = !(s.error && s.lowered);
    const status = $('#write-status');
    status.textContent = s.pending
      ? 'lowering in the Worker…'
      : s.error
        ? 'It did not lower: see the message under the editors.'
        : s.lowered
          ? `Lowered ${s.lowered.function} in ${Math.round(s.ms)} ms (in the Worker); its analysis is below.`
          : '';
    status.dataset.state = s.pending ? 'busy' : s.error ? 'error' : s.lowered ? 'done' : 'none';
    const link = writeLink(s);
    const note = $('#write-link-note');
    note.hidden = !link.error;
    note.textContent = link.error ? `The link holds the other settings but not this program: ${link.error}.` : '';
  }

  return {
    render,
    /** A table row's op selected: its line in the StableHLO beside the editor, when that is the analysis on show. */
    selectLine(line, column, name) {
      if (hlo && w().mode === 'write' && w().lowered && name === nameOf(w().lowered.function))
        hlo.selectLine(line, column);
    },
    /** rooflineLab.writeView(): the tab, the source, the lowering, and the errors as the editor marks them. */
    view: () => {
      const s = w();
      return structuredClone({
        mode: s.mode,
        source: s.source,
        example: s.example,
        pending: s.pending,
        function: s.lowered?.function ?? null,
        stablehlo: s.lowered?.text ?? null,
        error: s.error ? { ...s.error, text: errorText(s.error) } : null,
        marks: editor ? editor.marks() : [],
        link_error: s.linkError,
        notice: s.notice,
        undo: s.undo.length > 0,
        link_note: writeLink(s).error,
        stablehlo_line: hlo ? hlo.selectedLine() : null,
      });
    },
  };
}
