// Turning the core's analysis of a text (core.analyzeText) into the per-file summary that
// `node scripts/analyze.mjs` prints and the page will show. Pure: no DOM.
import { sci, short } from './format.js';

export const ESTIMATE_LABEL = "estimate from the IR, XLA's counting rules (HloCostAnalysis), not a measurement";

/** Prefixes "LINE:COL: error: …" with the file name: "FILE:LINE:COL: error: …". */
export function withFile(file, error) {
  return /^\d+:\d+: /.test(error) ? `${file}:${error}` : `${file}: ${error}`;
}

/**
 * One file's result: every module's ops (each with its 1-based line), the totals summed over
 * its modules, unmodeled op counts merged, and errors (a parse error stops the file; a module
 * that fails to verify is reported and skipped).
 */
export function summarizeFile(file, result) {
  const out = {
    file, dialect: null, label: ESTIMATE_LABEL, modules: [], ops: [],
    totals: { flops: 0, transcendentals: 0, bytes_accessed: 0, unfused_bytes_accessed: 0, bytes_accessed_operand: {}, bytes_accessed_output: 0, collective_bytes: 0, minimum_traffic_bytes: 0 },
    unmodeled: [], notes: [], errors: [],
  };
  if (!result.ok) {
    out.errors.push(withFile(file, result.error));
    return out;
  }
  out.dialect = result.value.dialect;
  const unmodeled = new Map();
  for (const m of result.value.modules) {
    if (m.error) {
      out.errors.push(withFile(file, m.error));
      continue;
    }
    out.modules.push({ module_name: m.module_name, entry: m.entry, totals: m.totals });
    out.ops.push(...m.ops);
    const t = out.totals;
    for (const key of ['flops', 'transcendentals', 'bytes_accessed', 'unfused_bytes_accessed', 'bytes_accessed_output', 'collective_bytes', 'minimum_traffic_bytes']) t[key] += m.totals[key];
    for (const [i, bytes] of Object.entries(m.totals.bytes_accessed_operand)) t.bytes_accessed_operand[i] = (t.bytes_accessed_operand[i] ?? 0) + bytes;
    for (const u of m.unmodeled) unmodeled.set(u.op, (unmodeled.get(u.op) ?? 0) + u.count);
    out.notes.push(...m.notes);
  }
  out.totals.intensity = out.totals.bytes_accessed > 0 ? out.totals.flops / out.totals.bytes_accessed : null;
  out.unmodeled = [...unmodeled].map(([op, count]) => ({ op, count }));
  return out;
}

const num = (x) => (x == null ? '—' : Number.isInteger(x) && Math.abs(x) < 1e15 ? String(x) : Math.abs(x) >= 1e15 ? sci(x, 4) : short(x));

/** Text lines for a terminal: a row per op, then the totals. */
export function summaryLines(s) {
  const lines = [`${s.file} (${s.dialect ?? 'not parsed'}) — ${s.label}`];
  if (s.ops.length) {
    const header = ['line', 'op', 'shape', 'flops', 'transcendentals', 'bytes', 'intensity'];
    const rows = s.ops.map((o) => [String(o.line), o.op + (o.modeled ? '' : ' (unmodeled)'), o.shape, num(o.flops), num(o.transcendentals), num(o.bytes_accessed), o.intensity == null ? '—' : short(o.intensity)]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const fmt = (r) => r.map((c, i) => (i === 1 || i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    lines.push(fmt(header), ...rows.map(fmt));
  }
  const t = s.totals;
  if (s.modules.length) {
    lines.push(
      `totals: flops ${num(t.flops)}, transcendentals ${num(t.transcendentals)}, bytes accessed ${num(t.bytes_accessed)} ` +
        `(${Object.entries(t.bytes_accessed_operand).map(([i, b]) => `operand ${i}: ${num(b)}`).join(', ')}${Object.keys(t.bytes_accessed_operand).length ? ', ' : ''}output: ${num(t.bytes_accessed_output)}), ` +
        `intensity ${t.intensity == null ? '—' : short(t.intensity)} flops/byte`,
      ...(t.unfused_bytes_accessed !== t.bytes_accessed
        ? [`fusion: ${num(t.bytes_accessed)} bytes at fusion boundaries vs ${num(t.unfused_bytes_accessed)} unfused — saves ${num(t.unfused_bytes_accessed - t.bytes_accessed)}`]
        : []),
      `minimum traffic (arguments + results, once each): ${num(t.minimum_traffic_bytes)} bytes` +
        (t.collective_bytes ? `; collective bytes per device: ${num(t.collective_bytes)}` : ''),
    );
  }
  if (s.unmodeled.length) lines.push(`unmodeled (no cost rule; not counted): ${s.unmodeled.map((u) => `${u.op} ×${u.count}`).join(', ')}`);
  for (const n of s.notes) lines.push(`note: ${n}`);
  for (const e of s.errors) lines.push(e);
  return lines;
}
