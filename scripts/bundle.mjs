#!/usr/bin/env node
// Assembles dist/, the whole static site: index.html, style.css and app.js, the front end
// bundled by esbuild as one classic IIFE script (ES modules do not load from file://) with the
// wasm core's glue (wasm embedded) and the Worker's code inside it as text. roofline-core.js
// is the same glue as a file, for the Node CLIs.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/node-core.mjs';

const dist = join(ROOT, 'dist');
const core = join(ROOT, 'build', 'wasm', 'roofline-core.js');
if (!existsSync(core)) {
  console.error(`bundle: ${core} is missing; build the wasm core first (scripts/build)`);
  process.exit(1);
}
mkdirSync(dist, { recursive: true });
const common = { bundle: true, format: 'iife', target: ['es2020'], legalComments: 'eof', logLevel: 'warning' };
// The Worker's code, as text, to be joined with the core's glue into a blob at run time.
const worker = await build({ ...common, entryPoints: [join(ROOT, 'web', 'worker.js')], write: false });
const coreSource = readFileSync(core, 'utf8');
await build({
  ...common,
  entryPoints: [join(ROOT, 'web', 'main.js')],
  outfile: join(dist, 'app.js'),
  define: {
    __CORE_SOURCE__: JSON.stringify(coreSource),
    __WORKER_SOURCE__: JSON.stringify(worker.outputFiles[0].text),
  },
});
copyFileSync(core, join(dist, 'roofline-core.js'));  // for the Node CLIs
copyFileSync(join(ROOT, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(ROOT, 'web', 'style.css'), join(dist, 'style.css'));
console.log(`bundle: wrote ${dist}/{index.html,style.css,app.js,roofline-core.js}`);
