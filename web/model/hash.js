// The page's view in the URL hash, so that a link reproduces it. Pure: no DOM, no core.
//
//   #m=32&k=16&n=8&dtype=f32&peak=100&bandwidth=20&factor=2&sizes=8,16,32,64,128
//
// Decoding only splits the text into fields; whether a value is acceptable is decided where
// typed input is (state.js and the core), so a bad value in a link gets the same message as a
// bad value typed in a field, and is ignored with a notice.

/** Hash key → state field. `itemsize` is written only when no dtype has that itemsize (e.g. 3). */
export const HASH_KEYS = {
  m: 'm',
  k: 'k',
  n: 'n',
  dtype: 'dtype',
  itemsize: 'itemsize',
  peak: 'peak',
  bandwidth: 'bandwidth',
  factor: 'traffic_factor',
  sizes: 'sizes',
};

/**
 * Keys of the classroom section (9): `#classroom&seed=…&count=…&families=…&student=…`, and of the
 * teacher's gradebook, `#gradebook` (with the set's keys: the set it grades). They are not the
 * lesson's: decodeHash hands them over raw in `classroom` (never as a lesson notice), and
 * web/model/classroom.js and web/gradebook_state.js read them.
 */
export const CLASSROOM_KEYS = ['classroom', 'seed', 'count', 'families', 'student', 'gradebook'];

/**
 * The key of section 8's "Write" source, `#py=<base64url>` (web/model/source_link.js reads it):
 * handed over raw in `write` ({py: '…'}; null when the hash has none), never a lesson notice.
 */
export const WRITE_KEYS = ['py'];

/**
 * The key of section 8's run choice, `#fuse=ops` (op by op) or `#fuse=xla-cpu` (fused as XLA's
 * CPU backend fuses it; `fused`, the default, is never written): handed over raw in `run` ({fuse: '…'}; null when the hash has none) and judged by
 * web/analyze_state.js (runChoiceFromLink), which says why a bad value is ignored.
 */
export const RUN_KEYS = ['fuse'];

/**
 * The key of the Notebook view, `#notebook` (the seed's code as cells, run in the page): handed
 * over in `notebook` ({notebook: ''}; null when the hash has none), read by web/notebook_state.js.
 */
export const NOTEBOOK_KEYS = ['notebook'];

const FIELD_TO_KEY = Object.fromEntries(Object.entries(HASH_KEYS).map(([key, field]) => [field, key]));

/** Longest value read from a link; anything longer is ignored (a link is not a place for data). */
export const MAX_VALUE_LENGTH = 200;

/**
 * The hash for a set of field texts (what the fields show), in a fixed order.
 * @param {Record<string, string>} inputs  state fields → text; the itemsize is left out when the dtype implies it
 * @param {Record<string, number>} itemsizeOfDtype
 */
export function encodeHash(inputs, itemsizeOfDtype = {}) {
  const parts = [];
  for (const [key, field] of Object.entries(HASH_KEYS)) {
    const value = inputs[field];
    if (value === undefined || value === null) continue;
    if (field === 'dtype' && value === '') continue;
    if (
      field === 'itemsize' &&
      itemsizeOfDtype[inputs.dtype] !== undefined &&
      String(itemsizeOfDtype[inputs.dtype]) === String(value).trim()
    )
      continue;
    const text = encodeURIComponent(String(value).trim()).replace(/%2C/gi, ',');
    parts.push(`${key}=${text}`);
  }
  return parts.join('&');
}

/**
 * Splits a hash ("#m=32&dtype=bf16" or without the '#') into field texts. Never throws: what it
 * cannot read is left out and explained in `notices`. The classroom's keys go, raw and unjudged,
 * into `classroom` ({seed: 'alice', …}; `classroom` is null when the hash has none of them), and
 * the Write source's key into `write`, the run's into `run` and the Notebook's into `notebook`, likewise.
 * @returns {{values: Record<string, string>, notices: string[], classroom: Record<string, string>|null,
 *            write: Record<string, string>|null, run: Record<string, string>|null, notebook: Record<string, string>|null}}
 */
export function decodeHash(hash) {
  const values = {};
  const notices = [];
  let classroom = null;
  let write = null;
  let run = null;
  let notebook = null;
  const text = typeof hash === 'string' ? hash.replace(/^#/, '') : '';
  if (text.trim() === '') return { values, notices, classroom, write, run, notebook };
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key;
    let value;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      notices.push(`ignored "${shorten(part)}" in the link: it is not valid URL encoding`);
      continue;
    }
    if (CLASSROOM_KEYS.includes(key)) {
      classroom = classroom ?? {};
      classroom[key] = eq < 0 ? '' : value.slice(0, MAX_VALUE_LENGTH + 1);
      continue;
    }
    if (WRITE_KEYS.includes(key)) {
      write = write ?? {};
      write[key] = value; // judged, length included, by web/model/source_link.js
      continue;
    }
    if (RUN_KEYS.includes(key)) {
      run = run ?? {};
      if (Object.hasOwn(run, key)) notices.push(`${key} appears twice in the link; the last one is used`);
      run[key] = eq < 0 ? '' : value.slice(0, MAX_VALUE_LENGTH + 1);
      continue;
    }
    if (NOTEBOOK_KEYS.includes(key)) {
      notebook = notebook ?? {};
      notebook[key] = eq < 0 ? '' : value.slice(0, MAX_VALUE_LENGTH + 1);
      continue;
    }
    const field = Object.hasOwn(HASH_KEYS, key) ? HASH_KEYS[key] : undefined;
    if (field === undefined) {
      notices.push(
        `ignored "${shorten(key)}" in the link: not one of ${[...Object.keys(HASH_KEYS), ...CLASSROOM_KEYS, ...WRITE_KEYS, ...RUN_KEYS, ...NOTEBOOK_KEYS].join(', ')}`,
      );
      continue;
    }
    if (eq < 0) {
      notices.push(`ignored "${shorten(key)}" in the link: it has no value (write ${key}=…)`);
      continue;
    }
    if (value.length > MAX_VALUE_LENGTH) {
      notices.push(`ignored ${key} in the link: its value is longer than ${MAX_VALUE_LENGTH} characters`);
      continue;
    }
    if (Object.hasOwn(values, field)) notices.push(`${key} appears twice in the link; the last one is used`);
    values[field] = value;
  }
  return { values, notices, classroom, write, run, notebook };
}

/** The hash key of a state field ('traffic_factor' → 'factor'). */
export function hashKeyOf(field) {
  return FIELD_TO_KEY[field] ?? field;
}

function shorten(text) {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
