#!/usr/bin/env node
// Assembles dist/, the whole static site: index.html, style.css and app.js, the front end
// bundled by esbuild as one classic IIFE script (ES modules do not load from file://) with the
// wasm core inside it once — its glue as text and its wasm LZMA-packed and base-85 encoded, from which
// the page and every Worker make their instances (web/core_source.js) — with Chart.js and the
// Worker's code. roofline-core.js and roofline-core.wasm are the core as files, for the Node CLIs.
//
// dist/roofline-lab.html is the whole app in one file (a teacher uploads it, a student
// double-clicks it): index.html with style.css and app.js inlined, and its Content-Security-
// Policy rewritten to allow exactly those two inline blocks, by their sha256 hashes.
//
// For dist/ served over http(s) (scripts/lib/offline.mjs): the icons, drawn here, the web app
// manifest and the service worker sw.js, whose cache is named by a hash of this build's files.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/node-core.mjs';
import { packWasm } from './lib/pack_wasm.mjs';
import { writeOfflineFiles } from './lib/offline.mjs';

const dist = join(ROOT, 'dist');
const core = join(ROOT, 'build', 'wasm', 'roofline-core.js');
const wasm = join(ROOT, 'build', 'wasm', 'roofline-core.wasm');
for (const file of [core, wasm]) {
  if (!existsSync(file)) {
    console.error(`bundle: ${file} is missing; build the wasm core first (scripts/build)`);
    process.exit(1);
  }
}
mkdirSync(dist, { recursive: true });
const common = {
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'eof',
  logLevel: 'warning',
  // Chart.js reads process.env.NODE_ENV in places; the page has no process.
  define: { 'process.env.NODE_ENV': '"production"' },
};
// The Worker's code, as text, to be joined with the core's glue into a blob at run time.
// Both minified, as app.js is (issue 14, item 16: 37 kB less in the one-file page): the glue
// by transform alone, which keeps its top-level names (createCore) as they are.
const worker = await build({ ...common, entryPoints: [join(ROOT, 'web', 'worker.js')], write: false, minify: true });
const glue = (await transform(readFileSync(core, 'utf8'), { minify: true, target: 'es2020', legalComments: 'eof' }))
  .code;
if (/[A-Za-z0-9+/]{10000,}/.test(glue))
  throw new Error("bundle: the core's glue embeds its wasm (SINGLE_FILE): it would be carried twice");
if (!/\bvar createCore\b/.test(glue))
  throw new Error('bundle: the minified glue no longer declares createCore, which the page calls');
// LZMA (xz -9e: a quarter smaller than gzip -9), then base 85 (web/wasm_bytes.js): 5 characters
// for 4 bytes, where base64 takes 5⅓ (scripts/lib/pack_wasm.mjs). The page unpacks it once
// (web/lzma.js), each Worker once.
const wasmEmbedded = packWasm(readFileSync(wasm));
// The seed notebook's code, for the page's Notebook view (web/seed_source.js): read here, at build
// time, so the page carries it (file:// can fetch nothing). Without it the page is still built and
// its Notebook says the code was not bundled.
const seedPath = process.env.ROOFLINE_SEED || join(ROOT, '..', 'shared', 'seed', 'lesson.py');
let seedSource = null;
if (existsSync(seedPath)) seedSource = readFileSync(seedPath, 'utf8');
else
  console.error(
    `bundle: the seed notebook ${seedPath} is missing: the page's Notebook view will say its code was not bundled (set ROOFLINE_SEED to the file's path)`,
  );
const app = await build({
  ...common,
  entryPoints: [join(ROOT, 'web', 'main.js')],
  minify: true,
  write: false,
  // A source map beside the build (not in dist/, and app.js names none): scripts/bench --only size
  // reads it to give each stretch of app.js to its room (scripts/lib/size_rooms.mjs).
  sourcemap: 'external',
  outfile: join(dist, 'app.js'),
  define: {
    ...common.define,
    __CORE_GLUE__: JSON.stringify(glue),
    __CORE_WASM__: JSON.stringify(wasmEmbedded),
    __WORKER_SOURCE__: JSON.stringify(worker.outputFiles[0].text),
    __SEED_NOTEBOOK__: JSON.stringify(seedSource),
  },
});
const appJs = app.outputFiles.find((f) => f.path.endsWith('.js')).text;
const appMap = app.outputFiles.find((f) => f.path.endsWith('.js.map')).text;
if (/sourceMappingURL/.test(appJs.slice(-200))) throw new Error('bundle: app.js names a source map it does not ship');
// One copy of the core in the bundle, whatever esbuild does with the defines.
// (The glue is counted by a stretch of it with nothing esbuild would quote differently.)
const count = (text, part) => text.split(part).length - 1;
const glueMark = glue.match(/[^"'`\\\n]{80}/)?.[0];
if (!glueMark || count(glue, glueMark) !== 1) throw new Error('bundle: no stretch of the glue to count it by');
for (const [what, copies] of [
  ['wasm', count(appJs, wasmEmbedded)],
  ['glue', count(appJs, glueMark)],
]) {
  if (copies !== 1) throw new Error(`bundle: app.js carries the core's ${what} ${copies} times, not once`);
}
const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
const css = readFileSync(join(ROOT, 'web', 'style.css'), 'utf8');

writeFileSync(join(dist, 'app.js'), appJs);
mkdirSync(join(ROOT, 'build', 'bundle'), { recursive: true });
writeFileSync(join(ROOT, 'build', 'bundle', 'app.js.map'), appMap);
copyFileSync(core, join(dist, 'roofline-core.js')); // for the Node CLIs, with the wasm beside it
copyFileSync(wasm, join(dist, 'roofline-core.wasm'));
writeFileSync(join(dist, 'index.html'), html);
writeFileSync(join(dist, 'style.css'), css);
writeFileSync(join(dist, 'roofline-lab.html'), singleFile(html, css, appJs));
const cacheName = writeOfflineFiles(dist);
console.log(
  `bundle: wrote ${dist}/{index.html,style.css,app.js,roofline-core.js,roofline-core.wasm,roofline-lab.html}`,
);
console.log(
  `bundle: wrote ${dist}/{sw.js,manifest.webmanifest,icon-192.png,icon-512.png} (offline cache ${cacheName})`,
);

/** index.html with its stylesheet and script inline, allowed by hash in its CSP. */
function singleFile(page, style, script) {
  // Inside <script> and <style> the HTML parser stops at "</script" / "</style" and treats
  // "<!--" specially; esbuild escapes these in strings, so finding one means something changed.
  for (const [what, text, bad] of [
    ['app.js', script, /<\/script|<!--/i],
    ['style.css', style, /<\/style/i],
  ]) {
    if (bad.test(text))
      throw new Error(`bundle: ${what} contains ${text.match(bad)[0]}, which cannot be inlined as is`);
  }
  const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const replaceOnce = (text, from, to) => {
    if (!text.includes(from)) throw new Error(`bundle: index.html no longer has ${from}`);
    return text.replace(from, () => to);
  };
  const cspPattern = /content="default-src 'none'; script-src 'self' ([^"]*?); style-src 'self';/;
  if (!cspPattern.test(page))
    throw new Error("bundle: index.html's Content-Security-Policy changed; update singleFile()");
  let out = page.replace(
    cspPattern,
    (_, scriptRest) => `content="default-src 'none'; script-src ${sha(script)} ${scriptRest}; style-src ${sha(style)};`,
  );
  out = replaceOnce(out, '<link rel="stylesheet" href="style.css">', `<style>${style}</style>`);
  out = replaceOnce(out, '<script src="app.js"></script>', `<script>${script}</script>`);
  return out;
}
