// Section 6's "measure it" in the browser (issue 12): the experiment runs in a Worker on this
// machine and its results sit beside the model's prediction, tagged as measurements; a factor the
// workloads cannot measure gets the core's message; a changed factor marks the results stale;
// Cancel is calm and keeps them; focus never falls to <body>; axe-core stays clean. On file://,
// over http and in the single file. Times are never asserted, only what the page derives from them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { browserAndServer, openPage, ROOT, waitReady } from './browser.mjs';

const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const fixture = browserAndServer({ alone: true });

const measured = (page) => page.evaluate(() => window.rooflineLab.trafficMeasurement());
const status = (page) => page.locator('#traffic-measure-status').innerText();

/** Presses Measure and waits for the status to leave "Measuring…". */
async function measure(page) {
  await page.locator('#traffic-measure').click();
  await page.waitForFunction(() => !document.querySelector('#traffic-measure').disabled, null, {
    timeout: 120000,
    polling: 250,
  });
}

for (const name of Object.keys(fixture.pages)) {
  describe(`section 6, measure it: ${name}`, () => {
    test('measures both workloads at 1× and the factor, beside the prediction, tagged as measurements', async () => {
      const { page, problems } = await fixture.open(name);
      assert.equal(
        await page.locator('#traffic-measured').isHidden(),
        true,
        'nothing measured is shown before a measurement',
      );
      assert.equal(await page.locator('#traffic-measure').innerText(), 'Measure at 1× and 2×');
      const reportBefore = await page.evaluate(() => window.rooflineLab.report());
      await measure(page);
      assert.equal(await status(page), 'Done: measurements of this machine.');
      const m = await measured(page);
      assert.equal(m.factor, 2);
      assert.equal(m.reread, 'after-array');
      assert.deepEqual(
        m.workloads.map((w) => w.name),
        ['memory-bound', 'compute-bound'],
      );
      assert.equal(m.workloads[0].predicted.time_ratio, 2);
      // The table is the measurement's, in the measurement's colours, under the section's tag.
      assert.equal(await page.locator('#h-traffic-measure .tag.measurement').innerText(), 'measurement');
      assert.equal(await page.locator('#traffic-measured-table').getAttribute('class'), 'measurement');
      const rows = await page
        .locator('#traffic-measured-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
      assert.deepEqual(
        rows.map((r) => r[0]),
        ['memory-bound', 'compute-bound'],
      );
      rows.forEach((r, i) => assert.equal(r[6], `${Number(m.workloads[i].predicted.time_ratio.toPrecision(3))}×`));
      assert.match(
        await page.locator('#traffic-measured-summary').innerText(),
        /^Measured on this machine at 1× and 2× the reads of a 64 MiB array/,
      );
      assert.equal(await page.locator('#traffic-measured-notes li').count(), 2);
      assert.equal(await page.locator('#traffic-measured-stale').isHidden(), true);
      // Nothing of it went into the model's numbers.
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.report()), reportBefore);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

describe('section 6, measure it: refusals, stale results, Cancel, focus, the other order of reads, axe', () => {
  const name = 'index.html from file://';
  test("a factor under 1 gets the core's message and the earlier results stay, marked stale", async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#traffic-reread').selectOption('right-away');
    await measure(page);
    const first = await measured(page);
    assert.equal(first.reread, 'right-away');
    assert.match(await page.locator('#traffic-measured-summary').innerText(), /each chunk read again right away/);
    // A refused input elsewhere does not mark the measurement stale: its factor has not moved.
    await page.locator('input[name="m"]').fill('0');
    await page.waitForFunction(() => window.rooflineLab.error()?.input === 'm');
    assert.equal(await page.locator('#traffic-measured-stale').isHidden(), true);
    await page.locator('input[name="m"]').fill('32');
    await page.locator('#in-traffic_factor').fill('0.5');
    await page.waitForFunction(() => window.rooflineLab.state().traffic_factor === 0.5);
    assert.equal(
      await page.locator('#traffic-measured-stale').innerText(),
      'Measured at 2×; the traffic factor is now 0.5×: measure again for it.',
    );
    await measure(page);
    assert.match(await status(page), /^Not measured: traffic factor to measure must be from 1 to 64 .*got 0\.5$/);
    assert.deepEqual(await measured(page), first, 'the earlier results are kept');
    assert.equal(await page.locator('#traffic-measured').isVisible(), true);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('Measure hands focus to Cancel; Cancel is calm and keeps the earlier results', async () => {
    const { page, problems } = await fixture.open(name);
    await page.locator('#in-traffic_factor').fill('3');
    await measure(page);
    const first = await measured(page);
    assert.equal(first.factor, 3);
    await page.locator('#in-traffic_factor').fill('16');
    await page.locator('#traffic-measure').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'traffic-cancel');
    await page.keyboard.press('Enter'); // Cancel, from the keyboard
    await page.waitForFunction(() => !document.querySelector('#traffic-measure').disabled, null, {
      timeout: 60000,
      polling: 250,
    });
    assert.equal(await status(page), 'Cancelled; the earlier results (if any) are kept.');
    assert.deepEqual(await measured(page), first);
    assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY');
    assert.equal(
      await page.locator('#traffic-measured-stale').innerText(),
      'Measured at 3×; the traffic factor is now 16×: measure again for it.',
    );
    // The pool still works after a cancel: measure at 16×.
    await measure(page);
    assert.equal((await measured(page)).factor, 16);
    assert.equal(await page.locator('#traffic-measured-stale').isHidden(), true);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('axe-core finds no serious or critical violation with the results shown', async (t) => {
    const context = await fixture.browser.newContext({ bypassCSP: true });
    const { url, ownFiles } = fixture.pages['index.html over http://127.0.0.1']();
    const { page, problems } = await openPage(fixture.browser, url, { ownFiles, context });
    await waitReady(page);
    await measure(page);
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(() =>
      window.axe.run(document.querySelector('#experiment'), { resultTypes: ['violations'] }),
    );
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    if (result.violations.length > bad.length)
      t.diagnostic(
        `minor: ${result.violations
          .filter((v) => !bad.includes(v))
          .map((v) => v.id)
          .join(', ')}`,
      );
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
    );
    assert.deepEqual(problems, []);
    await context.close();
  });
});
