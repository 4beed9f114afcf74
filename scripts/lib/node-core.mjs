// Loads the wasm core in Node, from the same files the page's bundle is made of
// (dist/roofline-core.js and the roofline-core.wasm beside it).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../web/core.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Path of the built core; ROOFLINE_CORE overrides it. */
export function corePath() {
  return process.env.ROOFLINE_CORE || join(ROOT, 'dist', 'roofline-core.js');
}

/**
 * Loads the core from `path` (default: corePath()) and the .wasm beside it. The bytes are handed
 * to the glue (wasmBinary), which then never fetches: Node 20's global fetch cannot read a file.
 */
export async function loadNodeCore(path = corePath()) {
  const wasm = path.replace(/\.js$/, '.wasm');
  for (const file of [path, wasm]) {
    if (!existsSync(file)) {
      throw new Error(`the wasm core is not built: ${file} is missing; run scripts/build first`);
    }
  }
  const createCore = createRequire(import.meta.url)(path);
  return loadCore(createCore, { wasmBinary: readFileSync(wasm) });
}

/**
 * What a CLI that takes one program file does first: reads `files[0]` (exactly one, else a usage
 * error) and loads the core. Exits 1 with `TOOL: message` (or `FILE: cannot read: …`) on failure.
 * Returns {file, source, core}.
 */
export async function readOneProgramAndCore(tool, files, what = 'PROGRAM.py') {
  const fail = (message) => {
    process.stderr.write(`${message}\n`);
    process.exit(1);
  };
  if (files.length !== 1) fail(`${tool}: give one ${what} (got ${files.length}; see --help)`);
  const file = files[0];
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    fail(`${file}: cannot read: ${e.code || e.message}`);
  }
  try {
    return { file, source, core: await loadNodeCore() };
  } catch (e) {
    return fail(`${tool}: ${e.message}`);
  }
}
