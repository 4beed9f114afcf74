// Shared set-up of the browser tests: Debian's chromium driven by playwright-core.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before } from 'node:test';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens a page and records what must not happen: console errors, uncaught exceptions, and
 * any request that leaves the page's own files (the app makes no network request).
 * `ownFiles`: the URLs the page may load (default: anything under its origin; for file://, any
 * file). data: and blob: URLs are the page's own (the embedded core, the Worker, downloads).
 * `requests` lists every URL requested, for tests that want to look.
 */
export async function openPage(browser, url, { ownFiles = null, context = null } = {}) {
  const page = await (context ?? browser).newPage();
  const problems = [];
  const requests = [];
  const origin = url.startsWith('file:') ? 'file:' : new URL(url).origin;
  const own = ownFiles ? (u) => ownFiles.includes(u.split('#')[0]) : (u) => u.startsWith(origin);
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    requests.push(u);
    if (!(own(u) || u.startsWith('data:') || u.startsWith('blob:'))) problems.push(`network request: ${u}`);
  });
  await page.goto(url);
  return { page, problems, requests };
}

/** Waits for window.rooflineLab.ready (the core loaded and the page drawn). */
export async function waitReady(page) {
  await page.waitForFunction(() => window.rooflineLab && window.rooflineLab.ready, null, { timeout: 15000 });
  await page.evaluate(() => window.rooflineLab.ready.then(() => true));
}

/**
 * The one set-up of the browser tests: one browser and one static server on dist/ for the whole
 * file, closed after it. `fixture.browser` and `fixture.server` are set once `before` has run.
 *
 * - `fixture.origins` maps 'file://' and 'http://127.0.0.1' to a function giving dist/index.html's URL;
 * - `fixture.pages` maps a page's name to a function giving {url, ownFiles}: index.html from
 *   file:// and over http, and (with `{alone: true}`) roofline-lab.html copied alone into an empty
 *   folder, the single-file app a teacher uploads, which may load nothing but itself;
 * - `fixture.open(name, hash?, options?)` opens a page by name (or an origin's key), waits until
 *   the app is ready and gives {page, problems, requests} (see openPage).
 */
export function browserAndServer({ alone = false } = {}) {
  const fixture = {
    browser: null,
    server: null,
    dir: null,
    origins: {
      'file://': () => pathToFileURL(join(DIST, 'index.html')).href,
      'http://127.0.0.1': () => `http://127.0.0.1:${fixture.server.address().port}/index.html`,
    },
    pages: {
      'index.html from file://': () => ({ url: fixture.origins['file://']() }),
      'index.html over http://127.0.0.1': () => ({ url: fixture.origins['http://127.0.0.1']() }),
      ...(alone
        ? {
            'roofline-lab.html alone, from file://': () => {
              const url = pathToFileURL(join(fixture.dir, 'roofline-lab.html')).href;
              return { url, ownFiles: [url] }; // nothing but itself (and data:/blob:)
            },
          }
        : {}),
    },
    async open(name, hash = '', options = {}) {
      const { url, ownFiles } = fixture.pages[name]?.() ?? { url: fixture.origins[name]() };
      const opened = await openPage(fixture.browser, url + hash, { ownFiles, ...options });
      await waitReady(opened.page);
      return opened;
    },
  };
  before(async () => {
    fixture.browser = await launch();
    fixture.server = await serve(DIST, 0);
    if (alone) {
      fixture.dir = mkdtempSync(join(tmpdir(), 'roofline-lab-'));
      copyFileSync(join(DIST, 'roofline-lab.html'), join(fixture.dir, 'roofline-lab.html'));
    }
  });
  after(async () => {
    await fixture.browser?.close();
    fixture.server?.close();
    if (fixture.dir) rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}

/** A .npy file as np.save writes one (version 1.0, the header padded to 64 bytes). */
export function npyFile(descr, shape, data) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  return Buffer.concat([
    Buffer.from([0x93]),
    Buffer.from('NUMPY'),
    Buffer.from([1, 0, header.length & 0xff, header.length >> 8]),
    Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  ]);
}

/**
 * Clicks `locator` and resolves to the download it starts. When none comes, the error says what
 * the page did instead (its errors, and the text of `statusSelector`), not only "timeout".
 */
export async function downloadFrom(page, locator, problems, statusSelector = null) {
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      locator.click({ timeout: 30_000 }),
    ]);
    return download;
  } catch (e) {
    const status = statusSelector
      ? await page
          .locator(statusSelector)
          .innerText()
          .catch(() => '(unreadable)')
      : '';
    throw new Error(
      `no download after clicking ${locator}: ${e.message.split('\n')[0]}; page problems: ${JSON.stringify(problems)}` +
        (statusSelector ? `; ${statusSelector}: ${JSON.stringify(status)}` : ''),
    );
  }
}
