// What the analyze view shows, from the core's analysis (core.analyzeText) and summarizeFile's
// summary (web/model/analysis.js): where each op sits (top level or inside a fusion/region),
// the error locations, the table's rows and their order, the figure's points. Pure: no DOM.

/** Rows the table draws at most (the whole list is sorted; the rest are summarised). */
export const ROW_LIMIT = 500;
/** Points the figure draws at most: the ones with the most bytes. */
export const POINT_LIMIT = 4000;

/**
 * For each op of the summary (summarizeFile concatenates the modules that analysed, in order):
 * {top, where}. `top`: the op is one of its module's entry ops at the outermost level, so the
 * top-level ops sum to the totals (a fusion carries its fused computation; a while its body).
 * `where`: null for those, else the computation it sits in ("fused_computation.1") or
 * "region of line N".
 */
export function placeOps(result) {
  const out = [];
  if (!result?.ok) return out;
  for (const m of result.value.modules) {
    if (m.error) continue;
    let lastTop = null;
    for (const o of m.ops) {
      // The core marks the entry's own ops, the ones the totals add up (top_level).
      const top = o.top_level === true;
      if (top) lastTop = o;
      let where = null;
      if (!top) where = o.function !== m.entry ? o.function : lastTop ? `region of line ${lastTop.line}` : 'a region';
      out.push({ top, where });
    }
  }
  return out;
}

/**
 * The table's rows for a summary: the op's own numbers plus its bound under the chosen roof
 * (`bounds[i]`, the core's: core.roofline) and its share of the program's flops and bytes
 * (top-level ops' shares sum to 1).
 * @param {(string|null)[]|null} bounds  per op, in the summary's order; null: no roof
 */
export function buildRows(summary, placement, bounds = null) {
  const t = summary.totals;
  const rows = summary.ops.map((o, index) => {
    const place = placement[index] ?? { top: true, where: null };
    return {
      index, line: o.line, column: o.column, op: o.op, shape: o.shape, flops: o.flops, transcendentals: o.transcendentals,
      bytes: o.bytes_accessed, intensity: o.intensity ?? null, modeled: o.modeled, note: o.note ?? null,
      top: place.top, where: place.where,
      bound: null,
      flopShare: t.flops > 0 ? o.flops / t.flops : null,
      byteShare: t.bytes_accessed > 0 ? o.bytes_accessed / t.bytes_accessed : null,
    };
  });
  return bounds ? withBounds(rows, bounds) : rows;
}

/** Puts each op's bound under the chosen roof (the core's, by op index) into its row; unmodeled ops have none. */
export function withBounds(rows, bounds) {
  for (const r of rows) r.bound = r.modeled ? bounds[r.index] ?? null : null;
  return rows;
}

/** The columns a person can sort by, in table order. */
export const SORT_KEYS = ['line', 'op', 'shape', 'flops', 'transcendentals', 'bytes', 'intensity', 'bound', 'flopShare', 'byteShare'];

/**
 * The rows in a column's order; ties keep the program order (line); missing values last
 * whichever the direction.
 * @param {'asc'|'desc'} dir
 */
export function sortRows(rows, key, dir = 'asc') {
  if (!SORT_KEYS.includes(key)) throw new Error(`cannot sort by ${JSON.stringify(key)}: one of ${SORT_KEYS.join(', ')}`);
  const sign = dir === 'desc' ? -1 : 1;
  const missing = (v) => v === null || v === undefined || Number.isNaN(v);
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (missing(x) || missing(y)) return missing(x) === missing(y) ? a.index - b.index : missing(x) ? 1 : -1;
    const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return c !== 0 ? sign * c : a.index - b.index;
  });
}

/** The next sort after a click on `key`: a new column starts descending for numbers, ascending for text and line. */
export function nextSort(current, key) {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: ['line', 'op', 'shape', 'bound'].includes(key) ? 'asc' : 'desc' };
}

/** The ops the figure can draw (top level, modeled, with flops and bytes), at most POINT_LIMIT: the ones with the most bytes. */
function drawable(rows) {
  const all = rows.filter((r) => r.top && r.modeled && r.flops > 0 && r.bytes > 0);
  const chosen = all.length > POINT_LIMIT ? [...all].sort((a, b) => b.bytes - a.bytes).slice(0, POINT_LIMIT) : all;
  return { all, chosen };
}

/**
 * The intensities (flops/byte) the figure spans, for the roofs' curves: its points' and the
 * program's, with a margin, and at least 0.01 to 10⁴.
 */
export function figureRange(rows, totals) {
  const xs = drawable(rows).chosen.map((r) => r.intensity);
  if (totals.intensity > 0) xs.push(totals.intensity);
  const xmin = xs.length ? Math.min(...xs) / 2 : 0.01;
  const xmax = xs.length ? Math.max(...xs) * 2 : 100;
  return [Math.min(xmin, 0.01), Math.max(xmax, 10000)];
}

/**
 * The figure's data: one point per top-level op with flops and bytes (x = its intensity, y = its
 * ceiling under the primary roof in GFLOP/s, both the core's; radius by bytes), the program's
 * point, and how many ops are not drawn (no flops: no place on a log axis; beyond POINT_LIMIT).
 * @param {{ops: {ceilings: (number|null)[]}, program: {x: number, y: number}|null}} line  core.roofline's value
 */
export function figurePoints(rows, line) {
  const { all, chosen } = drawable(rows);
  const skipped = rows.filter((r) => r.top).length - all.length;
  const maxBytes = Math.max(1, ...chosen.map((r) => r.bytes));
  const points = chosen.map((r) => ({
    x: r.intensity, y: line.ops.ceilings[r.index], r: 3 + 9 * Math.sqrt(r.bytes / maxBytes),
    index: r.index, line: r.line, op: r.op, bytes: r.bytes, flops: r.flops, bound: r.bound,
  }));
  const program = line.program ? { ...line.program } : null;
  return { points, program, notDrawn: { noFlops: skipped, overLimit: all.length - chosen.length } };
}

/** Offsets of each line's start in `text` (index 0 is line 1). */
export function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Lines around `line` (1-based) for an excerpt: [{number, text}] from line − before to line + after.
 * Very long lines are cut to `width` characters.
 */
export function excerpt(text, starts, line, { before = 3, after = 3, width = 400 } = {}) {
  const out = [];
  const first = Math.max(1, line - before);
  const last = Math.min(starts.length, line + after);
  for (let n = first; n <= last; n++) {
    const end = n < starts.length ? starts[n] - 1 : text.length;
    let s = text.slice(starts[n - 1], end).replace(/\r$/, '');
    if (s.length > width) s = `${s.slice(0, width)}…`;
    out.push({ number: n, text: s });
  }
  return out;
}
