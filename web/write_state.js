// Section 8's "Write" part of the page state (state.write) and the pure functions that change
// it. No DOM here. The StableHLO a source lowers to is analysed and run as pasted text is: it
// becomes state.analyze's program (web/views/write_view.js hands it over).
//
// state.write = {
//   mode:     'paste' | 'write': which of section 8's two tabs is open;
//   source:   the Python as last taken from the editor (what a link carries);
//   example:  the name of the example the source came from (web/model/write_examples.js), until edited;
//   seq:      the number of the latest lowering asked for (older answers are dropped);
//   pending:  whether that lowering is still in the Worker;
//   lowered:  {text, function, seq} of the last source that lowered, or null;
//   error:    {line, column, message} of the latest source when it did not lower, or null
//             (line and column null when the Worker itself failed);
//   ms:       the Worker's round trip for the latest lowering;
//   linkError: why the link's py= could not be read (a notice; the source on show stays), or null;
//   undo:     [{source, example}]: the programs of the reader's that an example or a link
//             replaced, the latest last (Undo puts it back in the editor; edits after the
//             replacement keep them; only Dismiss lets them go), at most MAX_UNDO;
//   notice:   what the page says of the program (an example or a link replaced it), or null.
// }
// The reader's own source, and the programs Undo can bring back, are also kept in this browser
// between visits (writeDraft; web/main.js saves it, web/model/drafts.js says how).
import { decodeHash } from './model/hash.js';
import { decodeSource, encodeSource, SOURCE_KEY } from './model/source_link.js';
import { DEFAULT_WRITE_EXAMPLE, WRITE_EXAMPLES } from './model/write_examples.js';

/** The file name errors are given under (FILE:LINE:COL). */
export const WRITE_FILE = 'program.py';

export function createWriteState() {
  return {
    mode: 'paste',
    source: '',
    example: null,
    seq: 0,
    pending: false,
    lowered: null,
    error: null,
    ms: null,
    linkError: null,
    undo: [],
    notice: null,
  };
}

/** Opens a tab; the Write tab opens on the default example when it has no source yet. */
export function setWriteMode(w, mode) {
  if (mode !== 'write' && mode !== 'paste') return w;
  if (mode === 'write' && w.source === '') return { ...exampleSource(w, DEFAULT_WRITE_EXAMPLE), mode };
  return { ...w, mode };
}

/** What the page says when an example replaced the reader's own program. */
export const exampleReplaced = (title) =>
  `The example “${title}” replaced your program. Undo puts your program back in the editor, in place of what is there now.`;
/** What the page says when a link's program replaced the reader's own. */
export const LINK_REPLACED =
  "The link's program replaced yours. Undo puts yours back in the editor, in place of what is there now.";
/** What the page says when Undo has more to bring back. */
export const UNDO_MORE = 'Your program is back. Undo again brings back the one replaced before it.';
/** What the page says when programs an example or a link replaced were kept from the last visit. */
export const KEPT_REPLACED =
  'A program of yours that an example or a link replaced was kept in this browser: Undo puts it back in the editor.';

/** How many replaced programs Undo can bring back. */
export const MAX_UNDO = 20;

/** `stack` with `entry` on top (not twice in a row), the oldest dropped past MAX_UNDO. */
function pushUndo(stack, entry) {
  if (stack.length > 0 && stack.at(-1).source === entry.source) return stack;
  return [...stack, entry].slice(-MAX_UNDO);
}

/**
 * The source of example `name` (unknown names change nothing). The reader's own program is not
 * lost: the page says so, and undoExample puts it back, even after edits to the example.
 */
export function exampleSource(w, name) {
  const ex = WRITE_EXAMPLES.find((e) => e.name === name);
  if (!ex) return w;
  const own = writeDraft(w) !== null && w.source !== ex.source;
  const undo = own ? pushUndo(w.undo, { source: w.source, example: null }) : w.undo;
  return {
    ...w,
    source: ex.source,
    example: ex.name,
    undo,
    notice: own ? exampleReplaced(ex.title) : w.notice,
  };
}

/** Undo of exampleSource (or of a link's program): the latest program replaced, back in the editor. */
export function undoExample(w) {
  if (w.undo.length === 0) return w;
  const top = w.undo.at(-1);
  const undo = w.undo.slice(0, -1);
  return { ...w, source: top.source, example: top.example, undo, notice: undo.length > 0 ? UNDO_MORE : null };
}

/** Dismisses the notice, and with it what Undo could bring back. */
export const dismissWriteNotice = (w) => (w.notice || w.undo.length > 0 ? { ...w, notice: null, undo: [] } : w);

/** A source typed (or pasted) into the editor. What Undo can bring back stays. */
export function setWriteSource(w, source) {
  if (source === w.source) return w;
  return { ...w, source: String(source), example: null };
}

/** The source to keep in this browser: the reader's own, or null (none, or an example as it is). */
export const writeDraft = (w) => (w.example === null && w.source !== '' ? w.source : null);
/** The replaced programs to keep in this browser, oldest first (what Undo brings back). */
export const writeReplaced = (w) => w.undo.map((e) => e.source);
/** The Write part to keep in this browser ({source, replaced} of web/model/drafts.js), or null when there is none. */
export function writePart(w) {
  const source = writeDraft(w);
  const replaced = writeReplaced(w);
  return source === null && replaced.length === 0 ? null : { source, replaced };
}

/**
 * What this browser kept ({source, replaced} of web/model/drafts.js) put back: the source opens
 * in the Write tab (a link's, applied after it, replaces it with an Undo), and the replaced
 * programs are Undo's again, said by a notice.
 */
export function applyWriteDraft(w, kept) {
  if (!kept) return w;
  let next = w;
  if (kept.source && w.source === '') next = { ...next, source: kept.source, example: null };
  if (kept.replaced.length > 0)
    next = {
      ...next,
      undo: kept.replaced.map((source) => ({ source, example: null })).slice(-MAX_UNDO),
      notice: KEPT_REPLACED,
    };
  return next;
}

/** Programs another tab of this page kept (the saved Write part's replaced ones): Undo's here too. */
export function adoptReplaced(w, replaced) {
  const held = new Set(w.undo.map((e) => e.source));
  const theirs = replaced.filter((x) => !held.has(x));
  if (theirs.length === 0) return w;
  return {
    ...w,
    undo: [...theirs.map((source) => ({ source, example: null })), ...w.undo].slice(-MAX_UNDO),
    notice: w.notice ?? KEPT_REPLACED,
  };
}

/** A lowering of the current source goes to the Worker: its number is the new seq. */
export function setLowerPending(w) {
  return { ...w, seq: w.seq + 1, pending: true };
}

/**
 * The Worker's answer for lowering `seq` (the core's {ok, text, function} or {ok: false, line,
 * column, message, error}); an answer to an older lowering changes nothing.
 */
export function setLowered(w, seq, result, ms) {
  if (seq !== w.seq) return w;
  if (result.ok)
    return { ...w, pending: false, ms, error: null, lowered: { text: result.text, function: result.function, seq } };
  const place = Number.isInteger(result.line) && result.line > 0;
  return {
    ...w,
    pending: false,
    ms,
    error: {
      line: place ? result.line : null,
      column: place ? result.column : null,
      message: result.message ?? result.error,
    },
  };
}

/** The Worker failed the lowering (not the source: a message without a place). */
export function setLowerFailure(w, seq, message) {
  if (seq !== w.seq) return w;
  return { ...w, pending: false, error: { line: null, column: null, message } };
}

/** The error as the page prints it: program.py:LINE:COL: message (no place: the message alone). */
export function errorText(error) {
  if (!error) return '';
  return error.line ? `${WRITE_FILE}:${error.line}:${error.column}: ${error.message}` : error.message;
}

/**
 * A link's Write part: `py=<base64url>` opens the Write tab with that source; a value that cannot
 * be read opens the tab with a notice saying why (the source on show stays). Without py= the
 * state stays as it is.
 */
export function applyWriteLink(w, hash) {
  const raw = decodeHash(hash).write;
  if (!raw || !Object.hasOwn(raw, SOURCE_KEY)) return w;
  const decoded = decodeSource(raw[SOURCE_KEY]);
  if (!decoded.ok) return { ...setWriteMode(w, 'write'), linkError: `${decoded.error}; the program on show is kept` };
  if (decoded.source === w.source) return { ...w, mode: 'write', example: null, linkError: null };
  const own = writeDraft(w) !== null;
  return {
    ...w,
    mode: 'write',
    source: decoded.source,
    example: null,
    linkError: null,
    undo: own ? pushUndo(w.undo, { source: w.source, example: null }) : w.undo,
    notice: own ? LINK_REPLACED : w.notice,
  };
}

/** Dismisses a link's notice. */
export function clearWriteLinkError(w) {
  return w.linkError ? { ...w, linkError: null } : w;
}

/** What the link says of the Write tab: {part: 'py=…' or '', error: why the source is not in it, or null}. */
export function writeLink(w) {
  if (w.mode !== 'write' || w.source === '') return { part: '', error: null };
  const e = encodeSource(w.source);
  return e.ok
    ? { part: `${SOURCE_KEY}=${e.value}`, error: null }
    : { part: '', error: `${e.error}, so the link does not carry it` };
}
