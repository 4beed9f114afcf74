// The reader's own code, kept in this browser between visits: the Write tab's Python when it is
// the reader's (not an example as it is), and the Notebook's cells when any differs from the
// seed's. Pure: no DOM, no storage; web/main.js reads and writes the text (one localStorage key).
//
// Saved value (DRAFTS_KEY), each part written by the tab that changed it (two tabs of the page
// keep each other's parts: web/main.js merges):
//   {version: 1,
//    write: {source: string | null,      // the Write tab's own source (null: an example as it is)
//            replaced: [string]} | null, // programs an example or a link replaced (Undo's), oldest first
//    notebook: {seed: string,            // the fingerprint of the seed's cells the edits were made to
//               cells: [string] | null,  // every cell's source, when any differs from the seed's
//               replaced: [[string]]} | null}  // cells "The seed's code again" replaced (Undo's)
// A value that is not this (corrupt JSON, another version) is ignored whole, with a notice; the
// page never trusts it, and the reader's next edit replaces it.

export const DRAFTS_KEY = 'rooflineLab.drafts.v1';
export const DRAFTS_VERSION = 1;

/** Longest source kept (a browser's quota is a few MB for the whole origin). */
export const MAX_DRAFT_CHARS = 1_000_000;

export const emptyDrafts = () => ({ write: null, notebook: null });

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSource = (v) => typeof v === 'string' && v.length <= MAX_DRAFT_CHARS;

/**
 * A fingerprint of the seed's cells (FNV-1a, 32 bits, over each source and its length): saved
 * edits are put back only into the cells they were made in.
 * @param {{source: string}[]} cells
 */
export function seedFingerprint(cells) {
  let h = 0x811c9dc5;
  const mix = (text) => {
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  };
  for (const c of cells) mix(`${c.source.length}:${c.source}\u0000`);
  return `${cells.length}-${h.toString(16).padStart(8, '0')}`;
}

const sources = (v) => Array.isArray(v) && v.every(isSource);

/** The Write part as saved (a bare string: this format's first form), or undefined when malformed. */
function writePart(w) {
  if (w === null || w === undefined) return null;
  if (isSource(w)) return { source: w, replaced: [] };
  if (isObject(w) && (w.source === null || isSource(w.source)) && sources(w.replaced ?? []))
    return { source: w.source, replaced: [...(w.replaced ?? [])] };
  return undefined;
}

/** The Notebook part as saved (replaced missing: this format's first form), or undefined when malformed. */
function notebookPart(n) {
  if (n === null || n === undefined) return null;
  const replaced = n?.replaced ?? [];
  if (
    isObject(n) &&
    typeof n.seed === 'string' &&
    (n.cells === null || sources(n.cells)) &&
    Array.isArray(replaced) &&
    replaced.every(sources)
  )
    return { seed: n.seed, cells: n.cells === null ? null : [...n.cells], replaced: replaced.map((c) => [...c]) };
  return undefined;
}

/**
 * Reads what localStorage holds (a string, or null when nothing is saved). Never throws. A part
 * that is malformed is ignored with a notice; the other part is kept.
 * @returns {{drafts: {write: object|null, notebook: object|null}, notice: string|null}}
 */
export function decodeDrafts(text) {
  if (text === null || text === undefined) return { drafts: emptyDrafts(), notice: null };
  const ignored = (why) => ({
    drafts: emptyDrafts(),
    notice: `The code saved in this browser was ignored (${why}); your next edit replaces it.`,
  });
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return ignored('it is not valid JSON');
  }
  if (!isObject(value) || !Object.hasOwn(value, 'version')) return ignored('it is not Roofline Lab code');
  if (value.version !== DRAFTS_VERSION)
    return ignored(`it is version ${JSON.stringify(value.version)}, this page reads version ${DRAFTS_VERSION}`);
  // Rebuilt from known fields only: nothing else from storage reaches the page.
  const write = writePart(value.write);
  const notebook = notebookPart(value.notebook);
  const bad =
    write === undefined && notebook === undefined
      ? 'its Write program and its Notebook cells are'
      : write === undefined
        ? 'its Write program is'
        : notebook === undefined
          ? 'its Notebook cells are'
          : '';
  return {
    drafts: { write: write ?? null, notebook: notebook ?? null },
    notice: bad
      ? `Part of the code saved in this browser was ignored (${bad} malformed); your next edit replaces it.`
      : null,
  };
}

/** Every source a part holds (for the length check). */
function partSources(drafts) {
  const w = drafts.write;
  const n = drafts.notebook;
  return [...(w ? [w.source ?? '', ...w.replaced] : []), ...(n ? [...(n.cells ?? []), ...n.replaced.flat()] : [])];
}

/**
 * The text to save: {ok: true, text} (text null when there is nothing of the reader's to keep: the
 * key is removed), or {ok: false, error} when a source is too long to keep.
 */
export function encodeDrafts(drafts) {
  const long = partSources(drafts).find((t) => t.length > MAX_DRAFT_CHARS);
  if (long !== undefined)
    return {
      ok: false,
      error: `a source of ${long.length.toLocaleString('en-US')} characters is over the ${MAX_DRAFT_CHARS.toLocaleString('en-US')} kept`,
    };
  if (drafts.write === null && drafts.notebook === null) return { ok: true, text: null };
  return {
    ok: true,
    text: JSON.stringify({ version: DRAFTS_VERSION, write: drafts.write, notebook: drafts.notebook }),
  };
}

/** Each part as JSON: what a tab compares to see what changed, and what another tab wrote. */
export const draftParts = (d) => ({ write: JSON.stringify(d.write), notebook: JSON.stringify(d.notebook) });

/**
 * The saved drafts after this tab's change: `stored` (what storage holds now) with the parts this
 * tab changed (`changed`: a set of 'write', 'notebook') taken from `mine`. A part another tab wrote
 * since this one last saved it (`last`: this tab's parts as it last saved them, JSON) is not
 * lost: its programs or cells that this tab does not hold join this tab's replaced ones (Undo's).
 */
export function mergeDrafts(stored, mine, changed, last = null) {
  const now = draftParts(stored);
  const foreign = (part) => last !== null && now[part] !== last[part] && stored[part];
  let write = changed.has('write') ? mine.write : stored.write;
  if (changed.has('write') && foreign('write')) {
    const held = new Set([mine.write?.source, ...(mine.write?.replaced ?? [])]);
    const theirs = [...stored.write.replaced, stored.write.source].filter((x) => x !== null && !held.has(x));
    if (theirs.length > 0)
      write = { source: mine.write?.source ?? null, replaced: [...theirs, ...(mine.write?.replaced ?? [])] };
  }
  let notebook = changed.has('notebook') ? mine.notebook : stored.notebook;
  if (changed.has('notebook') && foreign('notebook') && mine.notebook === null) notebook = stored.notebook;
  else if (changed.has('notebook') && foreign('notebook') && stored.notebook.seed === mine.notebook.seed) {
    const key = (cells) => JSON.stringify(cells);
    const held = new Set([key(mine.notebook.cells), ...mine.notebook.replaced.map(key)]);
    const theirs = [...stored.notebook.replaced, stored.notebook.cells].filter((c) => c !== null && !held.has(key(c)));
    if (theirs.length > 0) notebook = { ...mine.notebook, replaced: [...theirs, ...mine.notebook.replaced] };
  }
  return { write, notebook };
}
