// Shared set-up of the browser tests: Debian's chromium driven by playwright-core.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Opens a page and records what must not happen: console errors, uncaught exceptions, and
 * any request that leaves the page's own origin (the app makes no network request).
 */
export async function openPage(browser, url) {
  const page = await browser.newPage();
  const problems = [];
  const origin = url.startsWith('file:') ? 'file:' : new URL(url).origin;
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    if (!(u.startsWith(origin) || u.startsWith('data:') || u.startsWith('blob:'))) problems.push(`network request: ${u}`);
  });
  await page.goto(url);
  return { page, problems };
}
