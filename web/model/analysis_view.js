// What the analyze view shows, from the core's analysis (core.analyzeText) and summarizeFile's
// summary (web/model/analysis.js): where each op sits (top level or inside a fusion/region),
// the error locations, the table's rows and their order, the figure's points. Pure: no DOM.
import { runSteps, STEP_ROWS } from './steps.js';

/**
 * Rows the table draws at once: a page of the whole list in the chosen order (every row can be
 * reached page by page). Laying out a page's rows is most of a redraw's main-thread time: in
 * Chromium on a loaded 2-core machine 500 rows took ~200 ms, 100 rows ~100 ms.
 */
export const TABLE_PAGE = 50;
/**
 * Points the figure draws at most: the ones with the most bytes. Chart.js resolves each point's
 * options (its radius is its own), about 0.1 ms a point in Chromium on a loaded 2-core machine:
 * 4000 points held the main thread ~400 ms, 1000 about a quarter of that.
 */
export const POINT_LIMIT = 1000;
/**
 * Fusions the figure draws at most (each an estimate, a measurement and the line between them):
 * with the ops' POINT_LIMIT points, a fused run's figure costs about what an op-by-op run's does.
 */
export const FUSION_POINT_LIMIT = POINT_LIMIT / 2;

/**
 * For each op of the summary (summarizeFile concatenates the modules that analysed, in order):
 * {top, where}. `top`: the op is one of its module's entry ops at the outermost level, so the
 * top-level ops sum to the totals (a fusion carries its fused computation; a while its body).
 * `where`: null for those, else the computation it sits in ("fused_computation.1") or
 * "region of line N", N the line of the entry op that holds the region.
 */
export function placeOps(result) {
  const out = [];
  if (!result?.ok) return out;
  for (const m of result.value.modules) {
    if (m.error) continue;
    // The core lists a region's ops just before the op that holds them (its rows come after its
    // body's): the holder of an entry op in a region is the next top-level op.
    const placed = new Array(m.ops.length);
    let nextTop = null;
    for (let i = m.ops.length - 1; i >= 0; i--) {
      const o = m.ops[i];
      // The core marks the entry's own ops, the ones the totals add up (top_level).
      const top = o.top_level === true;
      let where = null;
      if (!top) where = o.function !== m.entry ? o.function : nextTop ? `region of line ${nextTop.line}` : 'a region';
      else nextTop = o;
      placed[i] = { top, where };
    }
    out.push(...placed);
  }
  return out;
}

/**
 * The table's rows for a summary: the op's own numbers plus its bound under the chosen roof
 * (`bounds[i]`, the core's: core.roofline) and its share of the program's flops and bytes: top-level
 * ops only, whose shares sum to 1 (an op in a body or a fused computation is counted within the op
 * that runs it; its share would be counted twice, or, in a fusion, of costs the fusion does not
 * have: null).
 * @param {(string|null)[]|null} bounds  per op, in the summary's order; null: no roof
 */
export function buildRows(summary, placement, bounds = null) {
  const rows = runSteps(buildRowsInSteps(summary, placement));
  return bounds ? withBounds(rows, bounds) : rows;
}

/** buildRows without bounds, yielding every STEP_ROWS rows (a big program's rows are made across tasks). */
export function* buildRowsInSteps(summary, placement) {
  const t = summary.totals;
  const ops = summary.ops;
  const rows = new Array(ops.length);
  for (let index = 0; index < ops.length; index++) {
    if (index > 0 && index % STEP_ROWS === 0) yield;
    const o = ops[index];
    const place = placement[index] ?? { top: true, where: null };
    rows[index] = {
      index,
      line: o.line,
      column: o.column,
      op: o.op,
      shape: o.shape,
      flops: o.flops,
      transcendentals: o.transcendentals,
      bytes: o.bytes_accessed,
      intensity: o.intensity ?? null,
      modeled: o.modeled,
      note: o.note ?? null,
      top: place.top,
      where: place.where,
      bound: null,
      seconds: null,
      gflops: null,
      gbs: null,
      ofRoof: null,
      view: false,
      fusion: null,
      flopShare: place.top && t.flops > 0 ? o.flops / t.flops : null,
      byteShare: place.top && t.bytes_accessed > 0 ? o.bytes_accessed / t.bytes_accessed : null,
    };
  }
  return rows;
}

/** Puts each op's bound under the chosen roof (the core's, by op index) into its row; unmodeled ops have none. */
export function withBounds(rows, bounds) {
  for (const r of rows) r.bound = r.modeled ? (bounds[r.index] ?? null) : null;
  return rows;
}

/**
 * A run's measured time per op of the summary, matched by place (line and column) to the top-level
 * rows — the run times its entries' own ops, the top-level rows of the analysis:
 * {seconds: Float64Array (NaN: not measured), total: the run's ops_seconds, or null when nothing
 * was timed or some ops were left untimed (the timing budget was spent), timed: how many rows
 * have a time}. `report`: the core's run report (web/model/run.js).
 */
export function measuredSeconds(summary, placement, report) {
  const byPlace = new Map();
  for (const o of report.ops) byPlace.set(`${o.line}:${o.column}`, o);
  const seconds = new Float64Array(summary.ops.length).fill(NaN);
  const views = new Uint8Array(summary.ops.length);
  let timed = 0;
  summary.ops.forEach((o, i) => {
    if (!(placement[i]?.top ?? true)) return;
    const t = byPlace.get(`${o.line}:${o.column}`);
    if (t?.seconds > 0) {
      seconds[i] = t.seconds;
      views[i] = t.view ? 1 : 0;
      timed += 1;
    }
  });
  // The program's measured total only when every op was timed (a partial sum is not its time).
  return {
    seconds,
    views,
    total: report.ops_seconds > 0 && !(report.untimed_ops > 0) ? report.ops_seconds : null,
    timed,
  };
}

/**
 * A fused run's fusions (the core's run report: its grouping, its counts), each matched by place
 * to the summary's rows of its ops: [{fusion (its position in report.fusions), name, kind, line,
 * column, ops: [{line, column, op, index (the op's row; -1: none)}], indices (its ops' rows),
 * within ({line, column, op} of the entry op whose body holds it, or null), seconds (null: not
 * timed — a body's fusion's time is in its entry op's), repeats, flops, transcendentals, bytes,
 * intensity (flops per byte at its boundary: where its points stand; null without both), fallback}].
 * And `ofOp`: for each row, the position of the first fusion its op ran in (NaN: none), and
 * `alsoIn`: a row's later fusions, for an op that ran in several (a helper's op inlined at each of
 * its calls; absent for most rows). Nothing here
 * decides what fuses: an op op-by-op run (report.fused false) is in no fusion.
 */
export function runFusions(summary, report) {
  return runSteps(runFusionsSteps(summary, report));
}

/** runFusions as steps (web/model/steps.js): a run of thousands of fusions is matched across tasks. */
export function* runFusionsSteps(summary, report) {
  // Each row by its place: line · 2^20 + column, one number (a string key per op cost the page
  // ~100 ms for 14,000 ops); a column past 2^20 keeps a string key, so no two places share one.
  const placeKey = (line, column) => (column >= 0 && column < 1048576 ? line * 1048576 + column : `${line}:${column}`);
  const rowAt = new Map();
  for (let i = 0; i < summary.ops.length; i++) {
    if (i > 0 && i % (4 * STEP_ROWS) === 0) yield;
    const o = summary.ops[i];
    const key = placeKey(o.line, o.column);
    if (!rowAt.has(key)) rowAt.set(key, i);
  }
  const ofOp = new Float64Array(summary.ops.length).fill(NaN);
  const alsoIn = new Map();
  const all = report.fusions ?? [];
  const fusions = new Array(all.length);
  for (let fusion = 0; fusion < all.length; fusion++) {
    if (fusion > 0 && fusion % STEP_ROWS === 0) yield;
    const f = all[fusion];
    const ops = f.ops.map((o) => ({
      line: o.line,
      column: o.column,
      op: o.op,
      index: rowAt.get(placeKey(o.line, o.column)) ?? -1,
    }));
    const indices = [];
    for (const o of ops) if (o.index >= 0) indices.push(o.index);
    for (const i of indices) {
      if (Number.isNaN(ofOp[i])) ofOp[i] = fusion;
      else if (ofOp[i] !== fusion) {
        const more = alsoIn.get(i);
        if (!more) alsoIn.set(i, [fusion]);
        else if (more.at(-1) !== fusion) more.push(fusion);
      }
    }
    fusions[fusion] = {
      fusion,
      name: f.name,
      kind: f.kind,
      line: f.line,
      column: f.column,
      ops,
      indices,
      within: f.within ?? null,
      seconds: f.seconds > 0 ? f.seconds : null,
      repeats: f.repeats,
      flops: f.flops,
      transcendentals: f.transcendentals,
      bytes: f.bytes_accessed,
      intensity: f.flops > 0 && f.bytes_accessed > 0 ? f.flops / f.bytes_accessed : null,
      fallback: f.fallback ?? '',
      bound: null,
      ceiling: null,
      gflops: null,
      gbs: null,
      ofRoof: null,
    };
  }
  return { fusions, ofOp, alsoIn };
}

/**
 * Puts each fusion's bound and ceiling under the chosen roof and what it achieved (the core's:
 * core.roofline over the ops and then the fusions, fusion j at position `first` + j).
 */
export function withFusionRoofline(fusions, line, first) {
  for (const f of fusions) {
    const at = first + f.fusion;
    f.bound = line.ops.bounds[at] ?? null;
    f.ceiling = line.ops.ceilings[at] ?? null;
    if (f.seconds !== null) {
      f.gflops = line.measured_ops?.gflops[at] ?? null;
      f.gbs = line.measured_ops?.gbs[at] ?? null;
      f.ofRoof = line.measured_ops?.of_roof[at] ?? null;
    }
  }
  return fusions;
}

/**
 * The figure's fusion points: each fusion with flops and bytes at its intensity, at its ceiling
 * under the roof (the estimate for the fused program), and, when timed, at what it achieved
 * (the measurement), each naming its kind and its ops; at most FUSION_POINT_LIMIT fusions (the ones
 * with the most bytes), and how many are not drawn (no flops; over the limit).
 */
export function fusionPoints(fusions) {
  let drawn = fusions.filter((f) => f.intensity !== null && f.ceiling > 0);
  const all = drawn.length;
  if (drawn.length > FUSION_POINT_LIMIT) {
    // As for the ops: the FUSION_POINT_LIMIT fusions with the most bytes, in program order.
    const order = orderOf(
      Float64Array.from(drawn, (f) => f.bytes),
      'desc',
    ).subarray(0, FUSION_POINT_LIMIT);
    drawn = Array.from(order)
      .sort((p, q) => p - q)
      .map((i) => drawn[i]);
  }
  const describe = (f) => ({
    x: f.intensity,
    fusion: f.fusion,
    name: f.name,
    kind: f.kind,
    ops: f.ops.map((o) => ({ line: o.line, op: o.op })),
    flops: f.flops,
    bytes: f.bytes,
    ceiling: f.ceiling,
    bound: f.bound,
    within: f.within,
  });
  return {
    estimated: drawn.map((f) => ({ ...describe(f), y: f.ceiling })),
    measured: drawn
      .filter((f) => f.gflops > 0)
      .map((f) => ({ ...describe(f), y: f.gflops, seconds: f.seconds, ofRoof: f.ofRoof })),
    notDrawn: { noFlops: fusions.length - all, overLimit: all - drawn.length },
  };
}

/** "line 4 stablehlo.multiply, line 5 stablehlo.add": which ops a fusion fused, in program order. */
export function fusedOpsText(fusion, limit = 8) {
  const parts = fusion.ops.slice(0, limit).map((o) => `line ${o.line} ${o.op}`);
  if (fusion.ops.length > limit) parts.push(`and ${fusion.ops.length - limit} more`);
  return parts.join(', ');
}

/** The lines a fusion's ops span in the text: {from: {line, column}, to: line}. */
export function fusionSpan(fusion) {
  let from = fusion.ops[0];
  let to = fusion.ops[0].line;
  for (const o of fusion.ops) {
    if (o.line < from.line || (o.line === from.line && o.column < from.column)) from = o;
    if (o.line > to) to = o.line;
  }
  return { from: { line: from.line, column: from.column }, to };
}

/**
 * Puts each row's measured time and what it achieved under the chosen roof (the core's:
 * core.roofline's measured_ops, by op index) into its row: seconds, gflops, gbs, ofRoof (null:
 * not measured, or no bound), view (the run says the op ran as a view of its operand: it moved
 * none of the bytes counted, so its GB/s and share of the roof are not shown).
 */
export function withMeasured(rows, seconds, measuredOps, views = null) {
  for (const r of rows) {
    const t = seconds[r.index];
    r.seconds = Number.isNaN(t) ? null : t;
    r.view = Boolean(views?.[r.index]);
    r.gflops = measuredOps?.gflops[r.index] ?? null;
    r.gbs = r.view ? null : (measuredOps?.gbs[r.index] ?? null);
    r.ofRoof = r.view ? null : (measuredOps?.of_roof[r.index] ?? null);
  }
  return rows;
}

/** What the table says of an op that ran as a view, in place of its share of the roof. */
export const VIEW_NOTE = 'a view: no data moved';
export const VIEW_TITLE =
  'This op ran as a view of its operand here (the same buffer, new dimensions): it moved none of the bytes the cost analysis counts for it, so its GB/s and its share of the roof would mean nothing. XLA often makes such an op a free bitcast too.';

/**
 * What a share of the roof over 100% means under `roof` (its kind: the lesson's hypothetical
 * budgets, this machine's measured ceilings, or a device's specification), for a table whose
 * `over` rows (`noun`s: ops, or fusions) reached more than their ceiling; '' when none did.
 */
export function overRoofNote(over, roof, noun = 'op') {
  if (!over || !roof) return '';
  const what = over === 1 ? `1 ${noun} ran faster than its ceiling` : `${over} ${noun}s ran faster than their ceilings`;
  const why = {
    hypothetical: 'the roof is the hypothetical budgets chosen in the lesson, not this machine, which can be faster',
    measurement:
      "this machine's ceilings were measured on a memory-sized working set, and an op whose bytes stay in the caches reads them faster than main memory",
    specification: "the times are this machine's, in this browser, and the roof is another device's specification",
  }[roof.kind];
  return `${what} (a share of the roof over 100%): ${why ?? "the roof is not this machine's"}.`;
}

/** The columns a person can sort by, in table order. */
export const SORT_KEYS = [
  'line',
  'op',
  'shape',
  'flops',
  'transcendentals',
  'bytes',
  'intensity',
  'bound',
  'flopShare',
  'byteShare',
  'seconds',
  'gflops',
  'gbs',
  'ofRoof',
];

/**
 * Positions 0…n−1 in the order of `keys` (NaN: missing, last in either direction), ties in
 * position order. Each key is replaced by its rank among the distinct keys and the pair (rank,
 * position) by one exact number, so both sorts are the typed array's own numeric sort — a
 * comparator called a million times held the page ~80 ms for 100,000 rows.
 * @param {Float64Array} keys
 * @param {'asc'|'desc'} dir
 * @returns {Uint32Array}
 */
export function orderOf(keys, dir = 'asc') {
  const n = keys.length;
  const distinct = keys.filter((k) => !Number.isNaN(k)).sort();
  let m = 0;
  for (let i = 0; i < distinct.length; i++) if (m === 0 || distinct[i] !== distinct[m - 1]) distinct[m++] = distinct[i];
  const composite = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    let rank = m; // missing: after every value
    if (!Number.isNaN(k)) {
      let lo = 0;
      let hi = m - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (distinct[mid] < k) lo = mid + 1;
        else hi = mid;
      }
      rank = dir === 'desc' ? m - 1 - lo : lo;
    }
    composite[i] = rank * n + i; // exact while (m + 1)·n < 2^53
  }
  composite.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = composite[i] % n;
  return order;
}

/**
 * The rows in a column's order; ties keep the program order (line); missing values last
 * whichever the direction. Text is compared as localeCompare orders it, each distinct value
 * ranked once (a program of 100,000 ops has a few dozen op names), so the sort compares numbers.
 * @param {'asc'|'desc'} dir
 */
export function sortRows(rows, key, dir = 'asc') {
  return runSteps(sortRowsSteps(rows, key, dir));
}

/** sortRows as steps (web/model/steps.js): a big program's rows are ordered across tasks. */
export function* sortRowsSteps(rows, key, dir = 'asc') {
  if (!SORT_KEYS.includes(key))
    throw new Error(`cannot sort by ${JSON.stringify(key)}: one of ${SORT_KEYS.join(', ')}`);
  const missing = (v) => v === null || v === undefined || Number.isNaN(v);
  // Ties in program order: positions in index order (buildRows makes the rows so).
  const inOrder = rows.every((r, i) => i === 0 || rows[i - 1].index < r.index)
    ? rows
    : [...rows].sort((a, b) => a.index - b.index);
  const n = inOrder.length;
  // One number per row (NaN: missing): the value, or the rank of its text.
  const keys = new Float64Array(n);
  const text = inOrder.some((r) => typeof r[key] === 'string');
  let rank = null;
  if (text) {
    const distinct = [...new Set(inOrder.map((r) => r[key]).filter((v) => !missing(v)))].sort((x, y) =>
      x.localeCompare(y),
    );
    rank = new Map();
    distinct.forEach((v, i) =>
      rank.set(v, i > 0 && distinct[i - 1].localeCompare(v) === 0 ? rank.get(distinct[i - 1]) : i),
    );
  }
  yield;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % (4 * STEP_ROWS) === 0) yield;
    const v = inOrder[i][key];
    keys[i] = missing(v) ? NaN : text ? rank.get(v) : v;
  }
  yield;
  const order = orderOf(keys, dir);
  yield;
  return Array.from(order, (i) => inOrder[i]);
}

/** The next sort after a click on `key`: a new column starts descending for numbers, ascending for text and line. */
export function nextSort(current, key) {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: ['line', 'op', 'shape', 'bound'].includes(key) ? 'asc' : 'desc' };
}

/** The ops the figure can draw (top level, modeled, with flops and bytes), at most POINT_LIMIT: the ones with the most bytes. */
export function drawable(rows) {
  const all = rows.filter((r) => r.top && r.modeled && r.flops > 0 && r.bytes > 0);
  if (all.length <= POINT_LIMIT) return { all, chosen: all };
  const order = orderOf(
    Float64Array.from(all, (r) => r.bytes),
    'desc',
  ).subarray(0, POINT_LIMIT);
  return { all, chosen: Array.from(order, (i) => all[i]) };
}

/**
 * The intensities (flops/byte) the figure spans, for the roofs' curves: its points', a run's
 * fusions' and the program's, with a margin, and at least 0.01 to 10⁴.
 */
export function figureRange(rows, totals, drawn = drawable(rows), fusions = []) {
  const xs = drawn.chosen.map((r) => r.intensity);
  for (const f of fusions) if (f.intensity > 0) xs.push(f.intensity);
  if (totals.intensity > 0) xs.push(totals.intensity);
  const xmin = xs.length ? Math.min(...xs) / 2 : 0.01;
  const xmax = xs.length ? Math.max(...xs) * 2 : 100;
  return [Math.min(xmin, 0.01), Math.max(xmax, 10000)];
}

/**
 * The figure's data: one point per top-level op with flops and bytes (x = its intensity, y = its
 * ceiling under the primary roof in GFLOP/s, both the core's; radius by bytes), the program's
 * point, and how many ops are not drawn (no flops: no place on a log axis; beyond POINT_LIMIT).
 * `drawn`: drawable(rows), when the caller has it already.
 * @param {{ops: {ceilings: (number|null)[]}, program: {x: number, y: number}|null}} line  core.roofline's value
 */
export function figurePoints(rows, line, drawn = drawable(rows)) {
  const { all, chosen } = drawn;
  const skipped = rows.filter((r) => r.top).length - all.length;
  const maxBytes = Math.max(1, ...chosen.map((r) => r.bytes));
  const points = chosen.map((r) => ({
    x: r.intensity,
    y: line.ops.ceilings[r.index],
    r: 3 + 9 * Math.sqrt(r.bytes / maxBytes),
    index: r.index,
    line: r.line,
    op: r.op,
    bytes: r.bytes,
    flops: r.flops,
    bound: r.bound,
  }));
  const program = line.program ? { ...line.program } : null;
  // A run's measured points (this machine): the same ops at their achieved GFLOP/s.
  const measured = chosen
    .filter((r) => r.gflops > 0)
    .map((r) => ({
      x: r.intensity,
      y: r.gflops,
      index: r.index,
      line: r.line,
      op: r.op,
      seconds: r.seconds,
      ceiling: line.ops.ceilings[r.index],
      ofRoof: r.ofRoof,
    }));
  return { points, program, measured, notDrawn: { noFlops: skipped, overLimit: all.length - chosen.length } };
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

/**
 * Section 8's y-axis title: what is plotted on it. The ops' ceilings under the chosen roof
 * (estimates); after a run, also what each op achieved on this machine (measurements).
 */
export function analysisYTitle(hasMeasured) {
  return hasMeasured
    ? 'GFLOP/s: ceiling under the roof (estimate), achieved (measurement)'
    : 'ceiling under the roof (GFLOP/s)';
}
