// Installs and works offline after one visit: served over http, the page adds its web app manifest
// (name, icons the build drew, colours) and its service worker caches the build; with the network
// off a reload is ready and the lesson's numbers are right; a rebuilt dist/ (another hash) is
// picked up, said on the page, and replaces the cache. From file:// and as the single file, none
// of it is attempted and nothing breaks.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import { CACHED_FILES, THEME_COLOR, writeOfflineFiles } from '../../scripts/lib/offline.mjs';
import { DIST, launch, openPage, waitReady } from './browser.mjs';

let browser;
let server;
let dir;
before(async () => {
  browser = await launch();
  // A copy of dist/ of its own: this test rebuilds it.
  dir = mkdtempSync(join(tmpdir(), 'roofline-offline-'));
  cpSync(DIST, dir, { recursive: true });
  server = await serve(dir, 0);
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cacheNameIn = (folder) => /const CACHE = "([^"]+)";/.exec(readFileSync(join(folder, 'sw.js'), 'utf8'))[1];
const controlled = (page) =>
  page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });

/** The lesson's numbers, as the seed notebook has them. */
async function lessonIsRight(page) {
  const report = await page.evaluate(() => window.rooflineLab.report());
  assert.equal(report.ridge, 5);
  assert.deepEqual(
    report.hypothetical_ceilings_gflops.map((x) => Math.round(x * 1e9) / 1e9),
    [80 / 3, 160 / 3, 100, 100, 100].map((x) => Math.round(x * 1e9) / 1e9),
  );
  assert.equal(report.matmul_accounting.flops, 8192);
  assert.equal(await page.locator('#accounting [data-field="flops"]').innerText(), '8192');
}

describe('installable, and working offline after one visit', () => {
  test('the build wrote the icons, the manifest and a service worker named by a hash of the files', () => {
    const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.webmanifest'), 'utf8'));
    assert.equal(manifest.name, 'Roofline Lab');
    assert.equal(manifest.theme_color, THEME_COLOR);
    assert.equal(manifest.display, 'standalone');
    for (const icon of manifest.icons) {
      const png = readFileSync(join(DIST, icon.src));
      assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
      const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      assert.equal(`${w}x${h}`, icon.sizes);
    }
    assert.match(cacheNameIn(DIST), /^roofline-lab-[0-9a-f]{16}$/);
    assert.equal(cacheNameIn(DIST), cacheNameIn(dir), 'the same files: the same name');
  });

  test('over http: manifest and service worker; offline, a reload is ready with the right numbers; a new build is picked up', async () => {
    const context = await browser.newContext();
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    const { page, problems } = await openPage(browser, `${url}#m=32&k=16&n=8`, { context });
    await waitReady(page);
    assert.equal(await page.locator('link[rel="manifest"]').getAttribute('href'), 'manifest.webmanifest');
    await controlled(page);
    const first = cacheNameIn(dir);
    // Every file of the build is cached after one visit.
    const cached = await page.evaluate(
      async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname),
      first,
    );
    assert.deepEqual(cached.sort(), CACHED_FILES.map((f) => (f === './' ? '/' : `/${f}`)).sort());
    assert.deepEqual(await page.evaluate(() => caches.keys()), [first]);

    // The network off: the page still opens, and it is the lesson.
    await context.setOffline(true);
    await page.reload();
    await waitReady(page);
    await lessonIsRight(page);
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    // The classroom works offline too (the core is in the page).
    await page.evaluate(() => {
      location.hash = '#classroom&seed=offline&count=2';
    });
    await page.waitForFunction(() => window.rooflineLab.classroom().settings.seed === 'offline');
    assert.equal(await page.locator('#cl-exercises > li').count(), 2);
    await context.setOffline(false);

    // A rebuilt dist/: another title, so other files and another hash.
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    writeFileSync(join(dir, 'index.html'), html.replace('<title>Roofline Lab — ', '<title>Roofline Lab (rebuilt) — '));
    const second = writeOfflineFiles(dir);
    assert.notEqual(second, first);
    await page.reload();
    await waitReady(page);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    await page.locator('#update-notice').waitFor({ state: 'visible', timeout: 30000 });
    assert.match(await page.locator('#update-notice').innerText(), /A new version of Roofline Lab is ready/);
    assert.match(await page.title(), /^Roofline Lab — /, 'the old version until the reader says so');
    await Promise.all([page.waitForEvent('load', { timeout: 30000 }), page.locator('#update-reload').click()]);
    await waitReady(page);
    assert.match(await page.title(), /^Roofline Lab \(rebuilt\) — /);
    await page.waitForFunction((name) => caches.keys().then((k) => k.length === 1 && k[0] === name), second, {
      timeout: 15000,
    });
    assert.equal(await page.locator('#update-notice').isVisible(), false);
    // And the new version works offline as well.
    await context.setOffline(true);
    await page.reload();
    await waitReady(page);
    await lessonIsRight(page);
    assert.match(await page.title(), /\(rebuilt\)/);
    await context.setOffline(false);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('from file:// and as the single file nothing of this is attempted, and nothing breaks', async () => {
    const pages = [
      pathToFileURL(join(DIST, 'index.html')).href,
      pathToFileURL(join(DIST, 'roofline-lab.html')).href,
      `http://127.0.0.1:${server.address().port}/roofline-lab.html`,
    ];
    for (const url of pages) {
      const context = await browser.newContext();
      const { page, problems, requests } = await openPage(browser, url, { context });
      await waitReady(page);
      await lessonIsRight(page);
      assert.equal(await page.locator('link[rel="manifest"]').count(), 0, url);
      const registrations = await page.evaluate(() =>
        navigator.serviceWorker
          ? navigator.serviceWorker.getRegistrations().then(
              (r) => r.length,
              () => 0,
            )
          : 0,
      );
      assert.equal(registrations, 0, url);
      assert.deepEqual(
        requests.filter((r) => /sw\.js|manifest|icon-/.test(r)),
        [],
        url,
      );
      assert.deepEqual(problems, [], url);
      await context.close();
    }
  });
});
