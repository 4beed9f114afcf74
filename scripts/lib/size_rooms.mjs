// Where the page's bytes are, room by room, for scripts/bench --only size (issue 25: rooms that
// land later report their own gzipped share, so growth is seen, not guessed).
//
// The wasm core: each function's body size in build/wasm/roofline-core.wasm (the code section),
// named by the symbol map the link writes beside it (--emit-symbol-map) and given to the room
// (cpp/<room>/) whose object file defines it (llvm-nm over build/wasm's objects); what no object
// of ours defines is libc, libc++ and Embind's runtime. The data section and the rest of the file
// are rooms of their own.
//
// The page's script: app.js sliced by the source map the bundle writes to build/ (each stretch of
// output goes to the source it came from), grouped as CodeMirror, Chart.js, the page's own code,
// and the core as embedded (its wasm, its glue, the Worker's code: the bundle's three defines).
//
// Each room is reported raw and "gzipped alone" (its bytes concatenated, gzip level 9); gzip finds
// repeats across rooms too, so the rooms' gzipped sizes add up to a little more than the file's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, at];
  }
}

/** The sections of a wasm file: {id, start, end} each, and the functions' bodies. */
export function wasmSections(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm file (no \\0asm magic)');
  const sections = [];
  const bodies = [];
  let importedFunctions = 0;
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    sections.push({ id, start: at, end });
    if (id === 2) {
      // imports: count the functions among them (they come first in the index space)
      let [n, p] = leb(bytes, start);
      for (let i = 0; i < n; i++) {
        let len;
        [len, p] = leb(bytes, p);
        p += len; // module name
        [len, p] = leb(bytes, p);
        p += len; // field name
        const kind = bytes[p++];
        if (kind === 0) {
          importedFunctions++;
          [, p] = leb(bytes, p);
        } else if (kind === 1) {
          p++;
          let flags;
          [flags, p] = leb(bytes, p);
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 2) {
          let flags;
          [flags, p] = leb(bytes, p);
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 3) p += 2;
        else throw new Error(`wasm import of unknown kind ${kind}`);
      }
    } else if (id === 10) {
      let [n, p] = leb(bytes, start);
      for (let i = 0; i < n; i++) {
        const [len, body] = leb(bytes, p);
        bodies.push({ index: importedFunctions + i, start: p, end: body + len });
        p = body + len;
      }
    }
    at = end;
  }
  return { sections, bodies };
}

/** "index:name" lines (names with \xx escapes) → Map index → demangled name. */
function readSymbolMap(text) {
  const names = new Map();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      names.set(
        Number(line.slice(0, colon)),
        line.slice(colon + 1).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
      );
  }
  return names;
}

function objectFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...objectFiles(path));
    else if (entry.name.endsWith('.o')) out.push(path);
  }
  return out;
}

/** The room a source file belongs to: cpp/<room>/…, with fusion (the pass, its inliner and the fused loop) a room of its own. */
export function roomOfSource(source) {
  if (source === 'cpp/hlo/fuse.cpp' || source === 'cpp/hlo/inline.cpp' || source === 'cpp/interp/fused.cpp')
    return 'fusion';
  const m = /^cpp\/([^/]+)\//.exec(source);
  return m ? m[1] : source;
}

/** The wasm core's rooms: [{room, raw_bytes, gzip_bytes, functions}], or {skipped: why}. */
export function wasmRooms(buildDir) {
  const wasmPath = join(buildDir, 'roofline-core.wasm');
  const symbolsPath = join(buildDir, 'roofline-core.js.symbols');
  if (!existsSync(wasmPath) || !existsSync(symbolsPath))
    return { skipped: `${relative(process.cwd(), symbolsPath)} absent (the link writes it)` };
  const nm = ['llvm-nm-14', 'llvm-nm'].find((tool) => !spawnSync(tool, ['--version']).error);
  if (!nm) return { skipped: 'llvm-nm absent (it comes with clang/LLVM)' };
  // Demangled name → the source file whose object defines it (first one wins).
  const owner = new Map();
  const objRoot = join(buildDir, 'CMakeFiles');
  for (const target of ['rl_core.dir', 'roofline_core.dir']) {
    const dir = join(objRoot, target);
    for (const obj of objectFiles(dir)) {
      const source = relative(dir, obj).replace(/\.o$/, '');
      const listed = spawnSync(nm, ['-C', '--defined-only', obj], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (listed.status !== 0) return { skipped: `${nm} failed on ${obj}: ${listed.stderr.trim()}` };
      for (const line of listed.stdout.split('\n')) {
        const m = /^[0-9a-f]* ?([TtWw]) (.*)$/.exec(line);
        if (m && !owner.has(m[2])) owner.set(m[2], source);
      }
    }
  }
  const bytes = readFileSync(wasmPath);
  const { sections, bodies } = wasmSections(bytes);
  const names = readSymbolMap(readFileSync(symbolsPath, 'utf8'));
  const parts = new Map(); // room → Buffer[]
  const add = (room, buf) => {
    if (!parts.has(room)) parts.set(room, []);
    parts.get(room).push(buf);
  };
  for (const body of bodies) {
    const source = owner.get(names.get(body.index));
    add(source ? roomOfSource(source) : 'libc, libc++, Embind', bytes.subarray(body.start, body.end));
  }
  for (const s of sections) {
    if (s.id === 10) continue;
    add(
      s.id === 11 ? 'data (strings, tables)' : 'other sections (types, imports, exports, table)',
      bytes.subarray(s.start, s.end),
    );
  }
  return [...parts]
    .map(([room, bufs]) => {
      const joined = Buffer.concat(bufs);
      return {
        room,
        raw_bytes: joined.length,
        gzip_bytes: gz(joined),
        functions: room.includes('sections') || room.startsWith('data') ? 0 : bufs.length,
      };
    })
    .sort((a, b) => b.gzip_bytes - a.gzip_bytes);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source-map "mappings" → for each generated line, [column, sourceIndex] in order. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const lineText of mappings.split(';')) {
    const segs = [];
    let column = 0;
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
          continue;
        }
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segs.push([column, fields.length > 1 ? source : -1]);
      // (fields 2..4: original line, column, name: not needed)
    }
    lines.push(segs);
  }
  return lines;
}

/** The JS room of a bundled source path (as the source map names it). */
export function roomOfScript(path) {
  const p = path.replace(/\\/g, '/');
  const mod = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1];
  if (mod) {
    if (/^(@codemirror\/|@lezer\/|codemirror$|style-mod$|w3c-keyname$|crelt$|@marijn\/)/.test(mod)) return 'CodeMirror';
    if (mod === 'chart.js' || mod === '@kurkle/color') return 'Chart.js';
    return `npm: ${mod}`;
  }
  const web = /(?:^|\/)web\/(?:(views|model|figures|editor)\/)?/.exec(p);
  if (web) return web[1] ? `page code: web/${web[1]}/` : 'page code: web/*.js';
  return `other: ${p}`;
}

/**
 * app.js's rooms from its source map, with the core's three embedded strings (wasm, glue,
 * Worker code) cut out first: [{room, raw_bytes, gzip_bytes}].
 */
export function scriptRooms(appJs, sourceMap, embedded) {
  const map = typeof sourceMap === 'string' ? JSON.parse(sourceMap) : sourceMap;
  const lines = appJs.split('\n');
  const decoded = decodeMappings(map.mappings);
  const parts = new Map();
  const add = (room, text) => {
    if (!parts.has(room)) parts.set(room, []);
    parts.get(room).push(text);
  };
  // Cut the embedded strings out of the text (by where they sit), then slice the rest.
  const cuts = [];
  for (const [room, text] of embedded) {
    const at = appJs.indexOf(text);
    if (at < 0) throw new Error(`size: app.js does not contain ${room}`);
    cuts.push({ start: at, end: at + text.length, room });
  }
  cuts.sort((a, b) => a.start - b.start);
  let offset = 0;
  let cut = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li];
    const segs = decoded[li] ?? [];
    let room = segs.length && segs[0][1] >= 0 ? roomOfScript(map.sources[segs[0][1]]) : 'page code: web/*.js';
    let from = 0;
    const emit = (to) => {
      // Text [from, to) of this line, less what an embedded string covers.
      let a = offset + from;
      const b = offset + to;
      while (a < b) {
        while (cut < cuts.length && cuts[cut].end <= a) cut++;
        const c = cuts[cut];
        if (c && c.start <= a) {
          const e = Math.min(b, c.end);
          add(c.room, appJs.slice(a, e));
          a = e;
          continue;
        }
        const e = c ? Math.min(b, c.start) : b;
        add(room, appJs.slice(a, e));
        a = e;
      }
    };
    for (const [column, source] of segs) {
      if (column > from) emit(column);
      from = Math.max(from, column);
      if (source >= 0) room = roomOfScript(map.sources[source]);
    }
    emit(line.length + (li < lines.length - 1 ? 1 : 0));
    offset += line.length + 1;
  }
  return [...parts]
    .map(([room, texts]) => {
      const joined = Buffer.from(texts.join(''), 'utf8');
      return { room, raw_bytes: joined.length, gzip_bytes: gz(joined) };
    })
    .sort((a, b) => b.gzip_bytes - a.gzip_bytes);
}
