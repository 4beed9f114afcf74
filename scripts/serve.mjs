#!/usr/bin/env node
// A static file server for dist/ on 127.0.0.1, with no dependencies. Used by scripts/demo
// and by the browser tests (over http, beside file://).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/** Serves `dir`; resolves to the listening server (port 0 picks a free port). */
export function serve(dir, port = 8000, host = '127.0.0.1') {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (!(file + sep).startsWith(root + sep) && file !== root) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (!existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] || 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveServer(server));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) || 'dist';
  const portArg = args.find((a) => a.startsWith('--port='));
  const port = portArg ? Number(portArg.slice('--port='.length)) : 8000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be an integer from 0 to 65535, got ${JSON.stringify(portArg.slice(7))}`);
    process.exit(1);
  }
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`serve: ${dir}/index.html is missing; run scripts/build first`);
    process.exit(1);
  }
  try {
    const server = await serve(dir, port);
    console.log(`Roofline Lab is served at http://127.0.0.1:${server.address().port}/  (Ctrl-C stops it)`);
  } catch (e) {
    console.error(
      `serve: cannot listen on 127.0.0.1:${port}: ${e.code || e.message}${e.code === 'EADDRINUSE' ? ' (try --port=8080)' : ''}`,
    );
    process.exit(1);
  }
}
