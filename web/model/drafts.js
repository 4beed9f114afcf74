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

/**
 * Reads what localStorage holds (a string, or null when nothing is saved). Never throws.
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
  const sources = (v) => Array.isArray(v) && v.every(isSource);
  const write = value.write ?? null;
  if (
    write !== null &&
    !(isObject(write) && (write.source === null || isSource(write.source)) && sources(write.replaced))
  )
    return ignored('its Write program is malformed');
  const nb = value.notebook ?? null;
  if (
    nb !== null &&
    !(
      isObject(nb) &&
      typeof nb.seed === 'string' &&
      (nb.cells === null || sources(nb.cells)) &&
      Array.isArray(nb.replaced) &&
      nb.replaced.every(sources)
    )
  )
    return ignored('its Notebook cells are malformed');
  // Rebuilt from known fields only: nothing else from storage reaches the page.
  return {
    drafts: {
      write: write === null ? null : { source: write.source, replaced: [...write.replaced] },
      notebook:
        nb === null
          ? null
          : {
              seed: nb.seed,
              cells: nb.cells === null ? null : [...nb.cells],
              replaced: nb.replaced.map((c) => [...c]),
            },
    },
    notice: null,
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

/**
 * The saved drafts after this tab's change: `stored` (what storage holds now, perhaps written by
 * another tab) with the parts this tab changed since it last saved (`changed`: a set of 'write',
 * 'notebook') taken from `mine`.
 */
export function mergeDrafts(stored, mine, changed) {
  return {
    write: changed.has('write') ? mine.write : stored.write,
    notebook: changed.has('notebook') ? mine.notebook : stored.notebook,
  };
}
