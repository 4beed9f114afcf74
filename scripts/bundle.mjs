#!/usr/bin/env node
// Assembles dist/, the whole static site: index.html, style.css, the wasm core (one classic
// script with the wasm embedded) and the front end bundled by esbuild as one IIFE. Classic
// scripts only, because ES modules do not load from file://.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/node-core.mjs';

const dist = join(ROOT, 'dist');
const core = join(ROOT, 'build', 'wasm', 'roofline-core.js');
if (!existsSync(core)) {
  console.error(`bundle: ${core} is missing; build the wasm core first (scripts/build)`);
  process.exit(1);
}
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(ROOT, 'web', 'main.js')],
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  outfile: join(dist, 'app.js'),
  legalComments: 'eof',
  logLevel: 'warning',
});
copyFileSync(core, join(dist, 'roofline-core.js'));
copyFileSync(join(ROOT, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(ROOT, 'web', 'style.css'), join(dist, 'style.css'));
console.log(`bundle: wrote ${dist}/{index.html,style.css,app.js,roofline-core.js}`);
