// Turning the core's analysis of a text (core.analyzeText) into the per-file summary that
// `node scripts/analyze.mjs --json` prints and the page shows. (The CLI's per-op text table is
// the core's: cpp/hlo/table.h.) Pure: no DOM.
import { sci, short } from './format.js';

export const ESTIMATE_LABEL = "estimate from the IR, XLA's counting rules (HloCostAnalysis), not a measurement";

/** Prefixes "LINE:COL: error: …" with the file name: "FILE:LINE:COL: error: …". */
export function withFile(file, error) {
  return /^\d+:\d+: /.test(error) ? `${file}:${error}` : `${file}: ${error}`;
}

/**
 * One file's result as the CLI prints it with --json: every module's ops (each with its 1-based line), and
 * the file's totals, unmodeled op counts and notes as the core summed them (core.analyzeText);
 * errors as "FILE:LINE:COL: error: …" text (a parse error stops the file; a module that fails to
 * verify is reported and skipped) and as fields (errorPlaces: [{line, column, message}]).
 */
export function summarizeFile(file, result) {
  const out = {
    file,
    dialect: null,
    label: ESTIMATE_LABEL,
    modules: [],
    ops: [],
    totals: {
      flops: 0,
      transcendentals: 0,
      bytes_accessed: 0,
      unfused_bytes_accessed: 0,
      bytes_accessed_operand: {},
      bytes_accessed_output: 0,
      collective_bytes: 0,
      minimum_traffic_bytes: 0,
      intensity: null,
    },
    unmodeled: [],
    notes: [],
    errors: [],
    errorPlaces: [],
  };
  if (!result.ok) {
    out.errors.push(withFile(file, result.error));
    out.errorPlaces.push({
      line: result.line ?? null,
      column: result.column ?? null,
      message: result.message ?? result.error,
    });
    return out;
  }
  const r = result.value;
  out.dialect = r.dialect;
  for (const m of r.modules) {
    if (m.error) continue;
    out.modules.push({ module_name: m.module_name, entry: m.entry, totals: m.totals });
    for (const o of m.ops) out.ops.push(o);
  }
  out.totals = r.totals;
  out.unmodeled = r.unmodeled;
  out.notes = r.notes;
  for (const e of r.errors) {
    out.errors.push(withFile(file, e.error));
    out.errorPlaces.push({ line: e.line || null, column: e.column || null, message: e.message });
  }
  return out;
}

const num = (x) =>
  x == null ? '—' : Number.isInteger(x) && Math.abs(x) < 1e15 ? String(x) : Math.abs(x) >= 1e15 ? sci(x, 4) : short(x);

/**
 * A file's summary with the fusion pass's result (core.fuseText) added: fusions (each naming its
 * module, and already_fused: the module's own fusion), calls_inlined (call sites the pass inlined
 * first, as XLA's CallInliner does), unfused_totals and fused_totals ({flops, transcendentals, bytes_accessed}) and the
 * fused modules as XLA prints HLO (fused_text, one text per module). An error of the pass that
 * the summary does not have already joins its errors.
 */
export function withFusion(s, result) {
  const out = { ...s, fusions: [], calls_inlined: 0, unfused_totals: null, fused_totals: null, fused_text: [] };
  if (!result.ok) {
    if (!s.errors.length) out.errors = [withFile(s.file, result.error)];
    return out;
  }
  const r = result.value;
  for (const m of r.modules) {
    if (m.error) continue;
    out.fused_text.push(m.text);
    out.calls_inlined += m.calls_inlined;
    for (const f of m.fusions) out.fusions.push({ module_name: m.module_name, already_fused: m.already_fused, ...f });
  }
  out.unfused_totals = r.totals;
  out.fused_totals = r.fused_totals;
  return out;
}

/** Text lines for a terminal: the fused modules as HLO, a row per fusion, the two totals side by side. */
export function fusedLines(s) {
  const lines = [`${s.file} (${s.dialect ?? 'not parsed'}) — fused as XLA's fusion rules group it; ${s.label}`];
  if (s.calls_inlined) lines.push(`calls inlined first, as XLA's CallInliner does: ${s.calls_inlined}`);
  for (const t of s.fused_text) lines.push('', ...t.trimEnd().split('\n'));
  if (s.fusions.length) {
    lines.push('');
    const header = ['fusion', 'kind', 'flops', 'transcendentals', 'bytes', 'bytes saved', 'ops (line:column op)'];
    const rows = s.fusions.map((f) => [
      f.name,
      f.kind,
      num(f.flops),
      num(f.transcendentals),
      num(f.bytes_accessed),
      num(f.bytes_saved),
      f.ops.map((o) => `${o.line}:${o.column} ${o.op}`).join(', '),
    ]);
    const widths = header.map((h) => h.length);
    for (const r of rows) for (let i = 0; i < r.length - 1; i++) if (r[i].length > widths[i]) widths[i] = r[i].length;
    const fmt = (r) =>
      r.map((c, i) => (i === r.length - 1 ? c : i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    lines.push(fmt(header));
    for (const r of rows) lines.push(fmt(r));
  } else if (s.fused_totals) {
    lines.push('', 'no fusions: no two ops fuse under the rules');
  }
  const u = s.unfused_totals,
    f = s.fused_totals;
  if (u && f) {
    lines.push(
      `unfused: flops ${num(u.flops)}, transcendentals ${num(u.transcendentals)}, bytes accessed ${num(u.bytes_accessed)}`,
      `fused:   flops ${num(f.flops)}, transcendentals ${num(f.transcendentals)}, bytes accessed ${num(f.bytes_accessed)}` +
        ` — saves ${num(u.bytes_accessed - f.bytes_accessed)} bytes`,
    );
  }
  for (const e of s.errors) lines.push(e);
  return lines;
}
