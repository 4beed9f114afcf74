#!/usr/bin/env node
// Cost every op of StableHLO or HLO text files with XLA's counting rules, in the wasm core.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { ESTIMATE_LABEL, fusedLines, summarizeFile, withFile, withFusion } from '../web/model/analysis.js';
import { ChunkedWriter, writeJson } from './lib/json_stream.mjs';
import { loadNodeCore } from './lib/node-core.mjs';

const HELP = `usage: node scripts/analyze.mjs FILE... [--json] [--fused [--xla-cpu]]

Parses each file as StableHLO (jax.jit(f).lower(...).as_text()) or XLA HLO text
(....compile().as_text()), verifies the operation and shape contract, and estimates every op's
flops, transcendentals and bytes accessed with XLA's HloCostAnalysis rules. Prints a row per
op (line, op, shape, flops, transcendentals, bytes, intensity) and the totals; '// -----'
separated modules are analysed one by one and summed.

  --json      print a JSON array with one object per file:
              {file, dialect, ops: [{line, op, flops, transcendentals, bytes_accessed, ...}],
               totals: {flops, transcendentals, bytes_accessed, bytes_accessed_operand: {"0": …},
                        bytes_accessed_output, collective_bytes, minimum_traffic_bytes, intensity},
               unmodeled: [{op, count}], errors: [...]}
  --fused     fuse each module with XLA's fusion rules (cpp/hlo/fuse.h) and print it as XLA
              prints HLO: the fused computations (%fused_computation.N and their parameters)
              and in their place %fusion.N = ... fusion(...), kind=kLoop|kInput|kOutput,
              calls=%fused_computation.N; then a row per fusion (kind, flops, transcendentals,
              bytes accessed at its boundary, bytes saved, its ops with line:column) and the
              unfused and fused totals side by side. Loop fusion of elementwise ops,
              broadcasts, reshapes, converts, selects, compares, iota and scalar constants;
              a reduce roots an input fusion; a dot or convolution takes its elementwise
              epilogue (output fusion); an expensive op with users in two fusions is never
              duplicated; calls are inlined first, as XLA's CallInliner does (jax.nn.relu's
              @relu fuses into the dot before it); while bodies fuse on their own. A module
              that already has fusions (optimized HLO) keeps its own. With --json each file's
              object gains fusions: [{module_name, already_fused, name, kind, function, ops:
              [{line, column, op}], flops, transcendentals, bytes_accessed,
              unfused_bytes_accessed, bytes_saved}], calls_inlined, unfused_totals and
              fused_totals ({flops, transcendentals, bytes_accessed}) and fused_text (one HLO
              text per module).
  --xla-cpu   with --fused: XLA CPU's output-fusion rule only (an add into a matrix-vector
              dot); a matrix-matrix dot then stays alone, as XLA CPU calls its GEMM library
  -h, --help  print this help

These are estimates from the IR, not measurements. A file that cannot be read or parsed is
reported on stderr as FILE:LINE:COL: error: ..., the other files are still analysed, and the
exit status is 1.`;

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
const json = args.includes('--json');
const fused = args.includes('--fused');
const xlaCpu = args.includes('--xla-cpu');
const unknown = args.find((a) => a.startsWith('-') && !['--json', '--fused', '--xla-cpu'].includes(a));
const files = args.filter((a) => !a.startsWith('-'));
if (unknown) {
  process.stderr.write(`analyze.mjs: unknown option ${JSON.stringify(unknown)} (see --help)\n`);
  process.exit(1);
}
if (xlaCpu && !fused) {
  process.stderr.write('analyze.mjs: --xla-cpu needs --fused (see --help)\n');
  process.exit(1);
}
if (files.length === 0) {
  process.stderr.write('analyze.mjs: no FILE given (see --help)\n');
  process.exit(1);
}

let core;
try {
  core = await loadNodeCore();
} catch (e) {
  process.stderr.write(`analyze.mjs: ${e.message}\n`);
  process.exit(1);
}

// Output goes out as it is made, a megabyte at a time: the JSON of a program of millions of ops
// is more text than one JavaScript string may hold, and each file's summary is let go once written.
const out = new ChunkedWriter((text) => process.stdout.write(text));
let failed = false;
let first = true;
if (json) out.write('[');

/** Bytes of the table the core hands out at a time. */
const TABLE_CHUNK = 1 << 20;
/** The core's limit on a text (cpp/hlo/report.h kMaxTextBytes): a bigger file goes as a string, refused as before. */
const MAX_TEXT_BYTES = 256 * 2 ** 20;

/**
 * `file` read into a textBuffer of the core: {buffer: handle} for tableStart, or null when it is not
 * a regular file (a pipe such as /dev/stdin has no size to make room for), is not UTF-8, is past the
 * core's limit or changed size while read (then read as before). Throws what reading throws.
 */
function readIntoCore(file) {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const size = stat.size;
    if (size > MAX_TEXT_BYTES) return null;
    const room = core.textBuffer(size);
    if (!room.ok) return null;
    const { handle, bytes } = room.value;
    let whole = false;
    try {
      let got = 0;
      for (let n; got < size && (n = readSync(fd, bytes, got, size - got, got)) > 0;) got += n;
      // One byte more than fstat said: the file grew while read.
      whole = got === size && isUtf8(bytes) && readSync(fd, Buffer.alloc(1), 0, 1, size) === 0;
    } finally {
      if (!whole) core.textBufferRelease(handle);
    }
    return whole ? { buffer: handle } : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The per-op table of one file: the core analyses its bytes and makes the lines (cpp/hlo/table.h),
 * printed as they come, a megabyte at a time; no row becomes a JavaScript object. Errors (FILE:LINE:COL:
 * error: …) go to stderr before the table. Returns whether the file had any.
 */
async function printTable(file) {
  const fail = (errors) => {
    for (const e of errors) process.stderr.write(`${e}\n`);
    return errors.length > 0;
  };
  let text;
  try {
    // The file is read straight into the core's memory (no Buffer of it beside the core's copy);
    // UTF-8 goes to the core as it is; other bytes as Node decodes them (U+FFFD for what is not
    // UTF-8), and a file past the core's limit as a string too, which the core refuses naming its size.
    text = readIntoCore(file);
    if (text === null) {
      const bytes = readFileSync(file);
      text = isUtf8(bytes) && bytes.length <= MAX_TEXT_BYTES ? bytes : bytes.toString('utf8');
    }
  } catch (e) {
    // ERR_STRING_TOO_LONG: a file past what one JavaScript string may hold.
    return fail(
      summarizeFile(file, {
        ok: false,
        error:
          e.code === 'ERR_STRING_TOO_LONG'
            ? `too big to read as text: ${e.message}`
            : `cannot read: ${e.code || e.message}`,
      }).errors,
    );
  }
  const start = core.tableStart(text);
  text = null;
  if (!start.ok) return fail(summarizeFile(file, start).errors);
  const { handle, dialect, errors } = start.value;
  const failed = fail(errors.map((e) => withFile(file, e.error)));
  let done = false;
  try {
    out.write(`${file} (${dialect}) — ${ESTIMATE_LABEL}\n`);
    out.flush();
    for (;;) {
      const chunk = core.tableNext(handle, TABLE_CHUNK);
      if (!chunk.ok) throw new Error(chunk.error);
      if (chunk.value.length === 0) break;
      // The chunk lies in the core's memory until the next call: written out before that.
      await new Promise((resolve, reject) => process.stdout.write(chunk.value, (e) => (e ? reject(e) : resolve())));
    }
    done = true;
    out.write('\n');
  } finally {
    if (!done) core.tableRelease(handle);
  }
  return failed;
}

for (const file of files) {
  if (!json && !fused) {
    try {
      if (await printTable(file)) failed = true;
    } catch (e) {
      // Anything JavaScript itself refuses (memory) is this file's error, never an uncaught one.
      process.stderr.write(`${withFile(file, `${e && e.message ? e.message : e}`)}\n`);
      failed = true;
    }
    continue;
  }
  let s;
  try {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      // ERR_STRING_TOO_LONG: a file past what one JavaScript string may hold.
      text = null;
      s = summarizeFile(file, {
        ok: false,
        error:
          e.code === 'ERR_STRING_TOO_LONG'
            ? `too big to read as text: ${e.message}`
            : `cannot read: ${e.code || e.message}`,
      });
    }
    if (text !== null) {
      s = summarizeFile(file, core.analyzeText(text));
      if (fused) s = withFusion(s, core.fuseText(text, { dot_epilogues: !xlaCpu }));
    }
  } catch (e) {
    // Anything JavaScript itself refuses (memory) is this file's error, never an uncaught one.
    s = summarizeFile(file, { ok: false, error: `${e && e.message ? e.message : e}` });
  }
  for (const e of s.errors) process.stderr.write(`${e}\n`);
  if (s.errors.length) failed = true;
  try {
    if (json) {
      out.write(first ? '\n  ' : ',\n  ');
      writeJson(s, out, 2, '  ');
    } else if (s.dialect) {
      for (const line of fusedLines({ ...s, errors: [] })) out.write(`${line}\n`);
      out.write('\n');
    }
  } catch (e) {
    process.stderr.write(`${file}: error: cannot print the analysis: ${e && e.message ? e.message : e}\n`);
    failed = true;
  }
  first = false;
}
if (json) out.write('\n]\n');
out.flush();
process.exitCode = failed ? 1 : 0;
