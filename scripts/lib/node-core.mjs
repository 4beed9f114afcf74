// Loads the wasm core in Node, from the same file the page loads (dist/roofline-core.js).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../web/core.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Path of the built core; ROOFLINE_CORE overrides it. */
export function corePath() {
  return process.env.ROOFLINE_CORE || join(ROOT, 'dist', 'roofline-core.js');
}

/** Loads the core from `path` (default: corePath()). */
export async function loadNodeCore(path = corePath()) {
  if (!existsSync(path)) {
    throw new Error(`the wasm core is not built: ${path} is missing; run scripts/build first`);
  }
  const createCore = createRequire(import.meta.url)(path);
  return loadCore(createCore);
}
