// The only place CodeMirror 6 is touched (as web/figures/ is for Chart.js): section 8's Write
// editor (Python) and the StableHLO beside it (read-only, no language mode), one component.
//
// Each editor lives in a shadow root of its host element: there CodeMirror's styles go in as a
// constructed stylesheet (adoptedStyleSheets), which the page's Content-Security-Policy
// (style-src 'self' or the one file's hash, no 'unsafe-inline') allows, where the <style>
// element it would add to the document is refused. The page's colours reach it as CSS variables.
import { indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { bracketMatching, indentOnInput, indentUnit } from '@codemirror/language';
import { forEachDiagnostic, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { EditorView, minimalSetup } from 'codemirror';
import { offsetOfByteColumn } from '../model/columns.js';

const theme = EditorView.theme(
  {
    '&': {
      height: '22em',
      border: '1px solid var(--line, #d8dce6)',
      borderRadius: '4px',
      backgroundColor: '#ffffff',
      color: '#1d2430',
      fontSize: '0.9rem',
    },
    '&.cm-focused': { outline: '2px solid var(--focus, #1565c0)', outlineOffset: '1px' },
    '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflow: 'auto' },
    // Line numbers dark enough for WCAG AA contrast on the gutter (CodeMirror's default grey is not).
    '.cm-gutters': { backgroundColor: '#f0f2f7', color: '#4b5563', borderRight: '1px solid #d8dce6' },
    '.cm-activeLineGutter': { backgroundColor: '#dfe3ec', color: '#1d2430' },
    '.cm-activeLine': { backgroundColor: '#f4f6fb' },
    '.cm-content': { caretColor: '#1d2430' },
    '.cm-lintRange-error': { backgroundColor: '#fde7e7' },
  },
  { dark: false },
);

/**
 * An editor in `host` (an element; its shadow root holds the editor).
 * @param {HTMLElement} host
 * @param {{language: 'python' | null, readOnly?: boolean, label: string, text?: string,
 *          onChange?: (text: string) => void}} options
 */
export function createCodeEditor(host, { language, readOnly = false, label, text = '', onChange }) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const extensions = [
    minimalSetup, // undo history, selection drawing, the default highlighting and keymap
    lineNumbers(),
    highlightActiveLineGutter(),
    theme,
    // tabindex: a contenteditable is focusable anyway, but said so, checkers (axe-core) see that
    // the scrolled region (long StableHLO lines) is reachable by keyboard.
    EditorView.contentAttributes.of({
      'aria-label': label,
      tabindex: '0',
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
    }),
  ];
  if (language === 'python') extensions.push(python(), indentUnit.of('    '), indentOnInput(), bracketMatching());
  if (readOnly) {
    // Selectable and focusable (so a keyboard reaches and scrolls it), never changed by typing.
    extensions.push(EditorState.readOnly.of(true));
  } else {
    // Tab indents (Escape, then Tab, leaves the editor: CodeMirror's own way out).
    extensions.push(keymap.of([indentWithTab]), highlightActiveLine());
  }
  if (onChange)
    extensions.push(
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange(u.state.doc.toString());
      }),
    );
  const view = new EditorView({ state: EditorState.create({ doc: text, extensions }), parent: root, root });

  return {
    view,
    text: () => view.state.doc.toString(),
    /** Replaces the whole text (an undoable change in the Python editor); no onChange echo is suppressed. */
    setText(next) {
      if (next === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    },
    /**
     * Marks an error at `line`:`column` (1-based, as the core gives them: the column in UTF-8
     * bytes of the line, clamped to it), over the name or number that starts there, or one
     * character; null clears it.
     */
    markError(error) {
      if (!error || !error.line) {
        view.dispatch(setDiagnostics(view.state, []));
        return;
      }
      const doc = view.state.doc;
      const line = doc.line(Math.min(Math.max(1, error.line), doc.lines));
      const from = line.from + offsetOfByteColumn(line.text, error.column ?? 1);
      const word = /^[\w.]+/.exec(line.text.slice(from - line.from));
      const to = Math.min(line.to, from + (word ? word[0].length : 1));
      view.dispatch(setDiagnostics(view.state, [{ from, to, severity: 'error', message: error.message }]));
    },
    /** The marked errors as the editor holds them: [{line, column, to_column, message}] (1-based; columns in UTF-16 code units). */
    marks() {
      const out = [];
      forEachDiagnostic(view.state, (d, from, to) => {
        const line = view.state.doc.lineAt(from);
        out.push({
          line: line.number,
          column: from - line.from + 1,
          to_column: to - line.from + 1,
          message: d.message,
        });
      });
      return out;
    },
    /** Selects line `line` from `column` to its end and scrolls it into view, without taking focus. */
    selectLine(lineNumber, column = 1) {
      const doc = view.state.doc;
      if (!Number.isInteger(lineNumber) || lineNumber < 1 || lineNumber > doc.lines) return;
      const line = doc.line(lineNumber);
      const from = line.from + Math.min(Math.max(0, column - 1), line.length);
      view.dispatch({
        selection: { anchor: from, head: line.to },
        effects: EditorView.scrollIntoView(from, { y: 'center' }),
      });
    },
    /** The line the selection's head is on (1-based). */
    selectedLine: () => view.state.doc.lineAt(view.state.selection.main.head).number,
    focus: () => view.focus(),
  };
}
