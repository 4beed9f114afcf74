// The lesson page's figure, experiment, exercise, URL hash, downloads, bad input, accessibility
// and layout: dist/index.html from file:// and over http, and dist/roofline-lab.html copied
// alone into an empty folder (the single-file app a teacher uploads).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { dirname, join } from 'node:path';
import { browserAndServer, openPage, ROOT, waitReady } from './browser.mjs';

const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const LOAD_TIMES = join(ROOT, 'build', 'screenshots', 'load-times.json');

const fixture = browserAndServer({ alone: true });
const { pages } = fixture;
const loadTimes = {};
after(() => {
  mkdirSync(dirname(LOAD_TIMES), { recursive: true });
  writeFileSync(LOAD_TIMES, `${JSON.stringify(loadTimes, null, 2)}\n`);
});

const close = (a, b, rel = 1e-12) => Math.abs(a - b) <= rel * Math.abs(b);
const series = (page) => page.evaluate(() => window.rooflineLab.chartSeries());
const byRole = (list, role) => list.find((s) => s.role === role);
const texts = (page, sel) => page.locator(sel).allInnerTexts();

const open = (name, hash = '') => fixture.open(name, hash);

for (const name of Object.keys(pages)) {
  describe(`the lesson page: ${name}`, () => {
    test("draws the roofline figure with the lesson's three series, the ridge and the sizes", async (t) => {
      const { page, problems, requests } = await open(name);
      const { coreMs, firstRenderMs, readyMs } = await page.evaluate(() => window.rooflineLab.timings());
      loadTimes[name] = {
        coreMs: Math.round(coreMs),
        firstRenderMs: Math.round(firstRenderMs),
        readyMs: Math.round(readyMs),
      };
      t.diagnostic(
        `core ${Math.round(coreMs)} ms, lesson drawn ${Math.round(firstRenderMs)} ms, ready ${Math.round(readyMs)} ms after navigation start`,
      );
      assert.ok(
        coreMs > 0 && coreMs <= firstRenderMs && firstRenderMs <= readyMs,
        JSON.stringify({ coreMs, firstRenderMs, readyMs }),
      );
      const report = await page.evaluate(() => window.rooflineLab.report());
      const data = await page.evaluate(() => window.rooflineLab.figureData());
      assert.deepEqual(Object.keys(data), ['kind', 'x', 'xlabel', 'ylabel', 'series']);
      assert.deepEqual(data, report.figure);
      assert.equal(data.kind, 'line');
      assert.equal(data.xlabel, 'minimum-traffic operations per byte');
      assert.equal(data.ylabel, 'hypothetical ceiling (GFLOP/s)');
      // x = sorted(intensities + [ridge]) = n/6 for the sizes, and 5.
      const x = [8 / 6, 16 / 6, 5, 32 / 6, 64 / 6, 128 / 6];
      data.x.forEach((v, i) => assert.ok(close(v, x[i]), `x[${i}] ${v}`));

      const drawn = await series(page);
      assert.deepEqual(
        drawn.slice(0, 3).map((s) => s.label),
        ['bandwidth budget', 'compute budget', 'combined ceiling'],
      );
      const expected = {
        'bandwidth budget': (v) => 20 * v,
        'compute budget': () => 100,
        'combined ceiling': (v) => Math.min(100, 20 * v),
      };
      for (const s of drawn.slice(0, 3)) {
        assert.deepEqual(
          s.points.map(([px]) => px),
          data.x,
          s.label,
        );
        s.points.forEach(([px, py]) => assert.ok(close(py, expected[s.label](px)), `${s.label} at ${px}: ${py}`));
        assert.deepEqual(
          s.points.map(([, py]) => py),
          data.series.find((d) => d.label === s.label).y,
        );
      }
      assert.deepEqual(byRole(drawn, 'ridge').points.at(-1), [5, 100]);
      const sizes = byRole(drawn, 'sizes').points;
      assert.deepEqual(
        sizes.map(([px]) => px),
        report.intensity,
      );
      assert.deepEqual(
        sizes.map(([, py]) => py),
        report.hypothetical_ceilings_gflops,
      );
      assert.equal(
        drawn.some((s) => s.measured),
        false,
        'nothing measured is drawn before a measurement',
      );
      assert.equal(await page.locator('#show-measured-roof').isDisabled(), true);
      assert.match(await page.locator('#roofline').getAttribute('aria-label'), /ridge at 5 flops\/byte/);
      assert.equal(await page.locator('#figure-table tbody tr').count(), 6);
      assert.deepEqual(problems, []);
      if (name.startsWith('roofline-lab.html'))
        assert.deepEqual(
          [...new Set(requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:')))],
          [pages[name]().url],
        );
      await page.close();
    });

    test('bandwidth 40 moves the ridge to 2.5; factor 2 gives 13.3, 26.7, 53.3, 100, 100', async () => {
      const { page, problems } = await open(name);
      const factorRevised = async () =>
        (await series(page)).find((s) => s.role === 'revised sizes').points.map(([, y]) => Number(y.toFixed(1)));
      assert.deepEqual(await texts(page, '#traffic tbody tr td:nth-child(2)'), ['26.67', '53.33', '100', '100', '100']);
      assert.deepEqual(await texts(page, '#traffic tbody tr td:nth-child(3)'), [
        '13.33',
        '26.67',
        '53.33',
        '100',
        '100',
      ]);
      assert.deepEqual(await texts(page, '#traffic tbody tr td:nth-child(6)'), ['no', 'no', 'yes', 'no', 'no']);
      assert.equal(
        await page.locator('#traffic-summary').innerText(),
        'With 2× the traffic, n=32 changes bound: compute-bound at 100 GFLOP/s → memory-bound at 53.33 GFLOP/s.',
      );
      assert.deepEqual(await factorRevised(), [13.3, 26.7, 53.3, 100, 100]);
      const revisedRoof = byRole(await series(page), 'revised ceiling').points;
      assert.deepEqual(
        revisedRoof.find(([x]) => x === 10),
        [10, 100],
        'the revised roof bends at ridge · factor',
      );

      await page.locator('input[name="bandwidth"]').fill('40');
      assert.equal(await page.evaluate(() => window.rooflineLab.report().ridge), 2.5);
      assert.deepEqual(byRole(await series(page), 'ridge').points.at(-1), [2.5, 100]);
      assert.equal(await page.locator('[data-field="ridge"] >> nth=0').innerText(), '2.5');
      assert.match(await page.locator('#roofline').getAttribute('aria-label'), /ridge at 2\.5 flops\/byte/);
      assert.match(await page.evaluate(() => location.hash), /bandwidth=40/);

      await page.locator('input[name="bandwidth"]').fill('20');
      await page.locator('input[name="traffic_factor"]').fill('4');
      assert.deepEqual(await factorRevised(), [6.7, 13.3, 26.7, 53.3, 100]);
      assert.match(
        await page.locator('#traffic-summary').innerText(),
        /^With 4× the traffic, n=32 changes bound.*; n=64 changes bound/,
      );
      // Outside 0.25–16: refused next to the field; the figure and the table keep the last valid state.
      const before = await series(page);
      for (const bad of ['32', '0.1']) {
        await page.locator('input[name="traffic_factor"]').fill(bad);
        assert.equal(
          await page.locator('#traffic_factor-error').innerText(),
          `traffic factor must be from 0.25 to 16 on this page, got ${bad}`,
        );
        assert.equal(await page.locator('#traffic_factor-error').isVisible(), true);
        assert.deepEqual(await series(page), before);
        assert.deepEqual(await texts(page, '#traffic tbody tr td:nth-child(3)'), [
          '6.667',
          '13.33',
          '26.67',
          '53.33',
          '100',
        ]);
      }
      await page.locator('input[name="traffic_factor"]').fill('2');
      assert.equal(await page.locator('#traffic_factor-error').isVisible(), false);
      assert.deepEqual(await factorRevised(), [13.3, 26.7, 53.3, 100, 100]);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the exercise accepts the right answers and rejects wrong ones; the solution opens once every part is right', async () => {
      const { page, problems } = await open(name);
      assert.match(await page.locator('#ratio-tolerance').innerText(), /relative 0\.002 \(0\.2%\)/);
      assert.equal(await page.locator('#exercise-solution').isVisible(), false);
      const answer = async (work, traffic, ratio, bound) => {
        await page.locator('#ans-work').fill(work);
        await page.locator('#ans-traffic').fill(traffic);
        await page.locator('#ans-ratio').fill(ratio);
        if (bound) await page.locator(`input[name="bound"][value="${bound}"]`).check();
        await page.locator('#check-answers').click();
        return page.evaluate(() =>
          ['work', 'traffic', 'ratio', 'bound'].map(
            (k) => document.getElementById(`${k}-feedback`).className.split(' ')[1],
          ),
        );
      };
      assert.deepEqual(await answer('13824', '2016', '7/24', 'compute'), ['wrong', 'wrong', 'wrong', 'wrong']);
      // The core's checker gives the feedback (its verdicts come with the lesson's report).
      assert.match(await page.locator('#work-feedback').innerText(), /each multiply-add is 2 flops/);
      assert.match(await page.locator('#traffic-feedback').innerText(), /bytes must use the itemsize/);
      assert.equal(
        await page.locator('#exercise-solution').isVisible(),
        false,
        'a wrong try at every part does not give the solution away',
      );
      assert.match(await page.locator('#exercise-result').innerText(), /^0 of 4 right/);
      assert.deepEqual(await answer('27648', '8064', '3.4', 'memory'), ['right', 'right', 'wrong', 'right']);
      for (const ratio of ['24/7', '3.4286', '3.43']) {
        assert.deepEqual(
          await answer('27648', '8,064 bytes', ratio, 'memory'),
          ['right', 'right', 'right', 'right'],
          ratio,
        );
        assert.equal(await page.locator('#exercise-result').innerText(), 'All four answers are right.');
        assert.equal(await page.locator('#exercise-solution').isVisible(), true, 'open once every part is right');
      }
      assert.deepEqual(await answer('lots', '8064', '24/7', 'memory'), ['wrong', 'right', 'right', 'right']);
      assert.match(await page.locator('#work-feedback').innerText(), /must start with a number/);
      // The expected bound follows the budgets: at 40 GB/s, 40 · 24/7 ≈ 137 > 100.
      await page.locator('input[name="bandwidth"]').fill('40');
      assert.match(await page.locator('#bound-feedback').innerText(), /^Not memory-bound/);
      assert.match(await page.locator('#exercise-solution').innerText(), /compute-bound\.$/);
      assert.deepEqual(await answer('27648', '8064', '24/7', 'compute'), ['right', 'right', 'right', 'right']);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('bad input in any field: a message next to it, and the figure and tables keep the last valid state', async () => {
      const { page, problems } = await open(name);
      await page.locator('input[name="m"]').fill('64');
      const figure = await series(page);
      const tables = async () => [
        await texts(page, '#sizes tbody td'),
        await texts(page, '#traffic tbody td'),
        await page.locator('[data-field="flops"] >> nth=0').innerText(),
      ];
      const good = await tables();
      const hash = await page.evaluate(() => location.hash);
      for (const field of ['m', 'k', 'n', 'itemsize', 'sizes', 'peak', 'bandwidth', 'traffic_factor']) {
        const input = page.locator(`[name="${field}"]`).first();
        const kept = await input.inputValue();
        for (const bad of ['', '0', '-3', 'NaN', '1e30', 'abc']) {
          await input.fill(bad);
          const message = page.locator(`#${field}-error`);
          assert.equal(await message.isVisible(), true, `${field}=${JSON.stringify(bad)} shows a message`);
          assert.match(
            await message.innerText(),
            new RegExp(`^${field === 'traffic_factor' ? 'traffic factor' : field}`),
            `${field}=${bad}`,
          );
          assert.equal(await input.getAttribute('aria-invalid'), 'true');
          assert.equal(await page.locator('#stale-note').isVisible(), true);
        }
        assert.deepEqual(await series(page), figure, `${field}: the figure keeps the last valid state`);
        assert.deepEqual(await tables(), good, `${field}: the tables keep the last valid state`);
        assert.equal(await page.evaluate(() => location.hash), hash, 'the link keeps the last valid view');
        await input.fill(kept);
        assert.equal(await page.locator(`#${field}-error`).isVisible(), false);
      }
      assert.equal(await page.locator('#stale-note').isVisible(), false);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('the URL hash: a link reproduces a view, a bad value is ignored with a notice, setState writes it', async () => {
      let { page, problems } = await open(name, '#m=64&k=32&n=16&dtype=bf16&peak=50&bandwidth=40&factor=4&sizes=8,64');
      assert.deepEqual(await page.evaluate(() => window.rooflineLab.state()), {
        m: 64,
        k: 32,
        n: 16,
        dtype: 'bf16',
        itemsize: 2,
        sizes: [8, 64],
        peak: 50,
        bandwidth: 40,
        traffic_factor: 4,
        showMeasuredRoof: false,
        showMeasuredPoint: false,
        showAllCoresRoof: false,
        showAllCoresPoint: false,
        error: null,
      });
      assert.equal(await page.locator('select[name="dtype"]').inputValue(), 'bf16');
      assert.equal(await page.locator('input[name="itemsize"]').inputValue(), '2');
      assert.match(await page.locator('#stablehlo').innerText(), /tensor<64x32xbf16>/);
      assert.equal(await page.locator('#notices').isVisible(), false);
      assert.deepEqual(problems, []);
      await page.close();

      ({ page, problems } = await open(name, '#m=abc&bandwidth=1e30&factor=99&dtype=f16&bogus=1&%E0%A4%A'));
      assert.equal(await page.locator('#notices').isVisible(), true);
      const notices = await texts(page, '#notice-list li');
      assert.equal(notices.length, 5, notices.join('\n'));
      assert.ok(notices.includes('ignored m="abc" in the link: m must be a number, got "abc"'));
      assert.ok(
        notices.some((n) => n.startsWith('ignored bandwidth="1e30" in the link: bandwidth must be at most 1e9')),
      );
      const s = await page.evaluate(() => window.rooflineLab.state());
      assert.deepEqual([s.m, s.bandwidth, s.traffic_factor, s.dtype, s.itemsize], [32, 20, 2, 'f16', 2]);
      assert.equal(
        await page.evaluate(() => window.rooflineLab.report().ridge),
        5,
        "the page works with the seed's values",
      );
      await page.locator('#dismiss-notices').click();
      assert.equal(await page.locator('#notices').isVisible(), false);

      // The scripting surface changes the view as typing does, and the hash follows.
      const r = await page.evaluate(() =>
        window.rooflineLab.setState({ dtype: 'f64', bandwidth: 40, factor: 4, sizes: [16, 32] }),
      );
      assert.equal(r.ok, true);
      assert.equal(r.state.itemsize, 8);
      assert.equal(
        await page.evaluate(() => location.hash),
        '#m=32&k=16&n=8&dtype=f64&peak=100&bandwidth=40&factor=4&sizes=16,32',
      );
      const bad = await page.evaluate(() => window.rooflineLab.setState({ peak: -1, colour: 1 }));
      assert.equal(bad.ok, false);
      assert.equal(bad.error, 'peak must be a positive, finite number of GFLOP/s, got -1');
      assert.equal(bad.state.peak, 100);
      await page.evaluate(() => window.rooflineLab.setState({ peak: 100 }));
      assert.match(
        (await page.evaluate(() => window.rooflineLab.setState({ colour: 1 }))).error,
        /^unknown keys: colour/,
      );
      // A changed hash (a pasted link) is applied as it stands.
      await page.evaluate(() => {
        location.hash = '#bandwidth=10';
      });
      // Polled on a timer, not on animation frames; on a timeout, say what the page holds.
      await page
        .waitForFunction(() => window.rooflineLab.state().bandwidth === 10, null, { polling: 50, timeout: 20000 })
        .catch(async (e) => {
          const seen = await page.evaluate(() => ({
            href: location.href,
            bandwidth: window.rooflineLab.state().bandwidth,
          }));
          throw new Error(`the pasted link #bandwidth=10 was not applied: ${JSON.stringify(seen)} (${e.message})`);
        });
      assert.equal((await page.evaluate(() => window.rooflineLab.state())).dtype, 'f32');
      // An update that lands between the pasted link and its hashchange (here a setState in the
      // same task; in CI it was a Worker's result) does not put the old view back over the link.
      await page.evaluate(() => {
        location.hash = '#bandwidth=12';
        window.rooflineLab.setState({ peak: 90 });
      });
      await page
        .waitForFunction(() => window.rooflineLab.state().bandwidth === 12, null, { polling: 50, timeout: 20000 })
        .catch(async (e) => {
          const seen = await page.evaluate(() => ({
            href: location.href,
            bandwidth: window.rooflineLab.state().bandwidth,
          }));
          throw new Error(`the link pasted during an update was overwritten: ${JSON.stringify(seen)} (${e.message})`);
        });
      assert.equal(
        (await page.evaluate(() => window.rooflineLab.state())).peak,
        100,
        "the link is the seed's view with its values",
      );
      assert.match(await page.evaluate(() => location.hash), /bandwidth=12/);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test("downloads: the figure data as the lesson's JSON, and the chart as PNG", async () => {
      const { page, problems } = await open(name);
      const [json] = await Promise.all([page.waitForEvent('download'), page.locator('#download-json').click()]);
      assert.equal(json.suggestedFilename(), 'roofline-figure.json');
      const data = JSON.parse(readFileSync(await json.path(), 'utf8'));
      assert.deepEqual(data, await page.evaluate(() => window.rooflineLab.report().figure));
      assert.deepEqual(Object.keys(data), ['kind', 'x', 'xlabel', 'ylabel', 'series']);
      const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#download-png').click()]);
      assert.equal(png.suggestedFilename(), 'roofline-figure.png');
      const bytes = readFileSync(await png.path());
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.ok(bytes.length > 5000, `a real picture, not an empty canvas (${bytes.length} bytes)`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}

describe('measured roofs and points, keyboard, accessibility and layout', () => {
  for (const name of ['index.html over http://127.0.0.1', 'roofline-lab.html alone, from file://']) {
    test(`${name}: the measured roofs and kernel points, 1 core and all cores, are added on request, styled as measured`, async () => {
      const { page, problems } = await open(name);
      await page.locator('#measure-form input[name="samples"]').fill('1');
      await page.locator('#measure-form input[name="workers"]').fill('2');
      await page.locator('#measure').click();
      await page.waitForFunction(() => window.rooflineLab.measurements() !== null, null, { timeout: 120000 });
      const before = await series(page);
      assert.equal(
        before.some((s) => s.measured),
        false,
        'measurements are drawn only when asked for',
      );
      const yTitle = async () =>
        /Y axis: (.*)\.$/.exec(await page.locator('#roofline').getAttribute('aria-label'))?.[1];
      assert.equal(await yTitle(), 'hypothetical ceiling (GFLOP/s)', "only the model drawn: the core's label");
      for (const id of [
        '#show-measured-roof',
        '#show-measured-point',
        '#show-all-cores-roof',
        '#show-all-cores-point',
      ]) {
        assert.equal(await page.locator(id).isEnabled(), true, id);
      }
      assert.equal(
        (await page.locator('label:has(#show-all-cores-roof)').innerText()).trim(),
        'measured roofs, all 2 cores',
      );
      for (const id of ['#show-measured-roof', '#show-measured-point', '#show-all-cores-roof', '#show-all-cores-point'])
        await page.locator(id).check();
      const drawn = await series(page);
      const m = await page.evaluate(() => window.rooflineLab.measurements());
      assert.deepEqual(m.measured_ceilings.cores, [1, 2]);
      for (const [cores, prefix] of [
        [1, 'measured roof'],
        [2, 'all-cores roof'],
      ]) {
        const roofs = drawn.filter((s) => s.role.startsWith(prefix));
        const who = cores === 1 ? 'this machine, 1 core' : 'this machine, 2 cores';
        assert.deepEqual(
          roofs.map((s) => s.label),
          ['L1', 'L2', 'memory'].map((l) => `measured (${who}): ${l} roof`),
        );
        assert.ok(roofs.every((s) => s.measured));
        const c = m.measured_ceilings.by_cores[cores];
        for (const [i, level] of ['l1', 'l2', 'memory'].entries()) {
          for (const [x, y] of roofs[i].points)
            assert.ok(close(y, Math.min(c.gflops, c.bandwidth_gbs[level] * x), 1e-12), `${cores}: ${level} at ${x}`);
        }
      }
      for (const [cores, role] of [
        [1, 'measured point'],
        [2, 'all-cores point'],
      ]) {
        const points = byRole(drawn, role);
        assert.equal(
          points.label,
          `measured (this machine, ${cores === 1 ? '1 core' : '2 cores'}): tanh(A@B) at 256³, 512³`,
        );
        const timings = m.kernel_timings.filter((t) => t.cores === cores);
        assert.deepEqual(
          points.points,
          timings.map((t) => [(2 * t.m ** 3) / (4 * 3 * t.m ** 2), t.gflops]),
        );
      }
      assert.equal(byRole(drawn, 'measured point').points[0][1], m.bigger_size_timing.gflops);
      // The axis says what is plotted; the legend's keys are drawn as the series are (issue 22, item 9).
      assert.equal(
        await yTitle(),
        'GFLOP/s: hypothetical ceiling, measured roofs and measured tanh(A@B) (this machine)',
      );
      for (const s of drawn) {
        assert.ok(s.key, `${s.role} has a legend key`);
        const line = !['sizes', 'revised sizes', 'measured point', 'all-cores point'].includes(s.role);
        assert.equal(s.key.line, line, `${s.role}: a line series has a line key, a point series its point`);
      }
      const dashes = drawn.filter((s) => s.key.line).map((s) => `${s.role}: ${s.key.dash.join(',')}`);
      assert.equal(byRole(drawn, 'bandwidth budget').key.dash.join(','), '2,3');
      assert.equal(byRole(drawn, 'combined ceiling').key.dash.length, 0, 'the solid ceiling is solid in the legend');
      assert.notEqual(
        byRole(drawn, 'measured roof l1').key.dash.join(','),
        byRole(drawn, 'all-cores roof l1').key.dash.join(','),
        dashes.join('; '),
      );
      assert.notEqual(
        byRole(drawn, 'measured roof l1').key.dash.join(','),
        byRole(drawn, 'bandwidth budget').key.dash.join(','),
      );
      assert.equal(byRole(drawn, 'measured point').key.pointStyle, 'star');
      assert.equal(byRole(drawn, 'sizes').key.pointStyle, 'circle');
      assert.deepEqual(drawn.slice(0, 3), before.slice(0, 3), "the lesson's series are unchanged");
      const shown = await page.evaluate(() => window.rooflineLab.state());
      assert.deepEqual(
        [shown.showMeasuredRoof, shown.showMeasuredPoint, shown.showAllCoresRoof, shown.showAllCoresPoint],
        [true, true, true, true],
      );
      await page.locator('#show-all-cores-roof').uncheck();
      const after = await series(page);
      assert.equal(
        after.some((s) => s.role.startsWith('all-cores roof')),
        false,
      );
      assert.equal(after.filter((s) => s.role.startsWith('measured roof')).length, 3, 'the 1-core roofs stay');
      await page.locator('#show-measured-roof').uncheck();
      assert.equal(
        (await series(page)).some((s) => s.role.startsWith('measured roof')),
        false,
      );
      assert.equal(await yTitle(), 'GFLOP/s: hypothetical ceiling, measured tanh(A@B) (this machine)', 'points only');
      assert.match(
        await page.locator('#roofline').getAttribute('aria-label'),
        /Measurements of this machine on 1 core and 2 cores/,
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('the exercise can be done with the keyboard alone', async () => {
    const { page, problems } = await open('index.html from file://');
    await page.locator('#ans-work').focus();
    await page.keyboard.type('27648');
    await page.keyboard.press('Tab');
    await page.keyboard.type('8064');
    await page.keyboard.press('Tab');
    await page.keyboard.type('24/7');
    await page.keyboard.press('Tab'); // the first radio button
    await page.keyboard.press('Space'); // memory-bound
    await page.keyboard.press('Enter'); // submits the form
    assert.equal(await page.locator('#exercise-result').innerText(), 'All four answers are right.');
    assert.equal(await page.locator('#solution').getAttribute('open'), '');
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    for (const name of ['index.html over http://127.0.0.1', 'roofline-lab.html alone, from file://']) {
      test(`axe-core finds no serious or critical violation (${name}, ${colorScheme})`, async (t) => {
        // axe is injected as a script, which the page's own CSP would refuse: bypass it for this test only.
        const context = await fixture.browser.newContext({ bypassCSP: true, colorScheme });
        const { url, ownFiles } = pages[name]();
        const { page, problems } = await openPage(fixture.browser, url, { ownFiles, context });
        await waitReady(page);
        await page.locator('input[name="m"]').fill('0'); // an inline error on show too
        await page.locator('#ans-work').fill('1');
        await page.locator('#check-answers').click(); // feedback and the open solution
        await page.evaluate(() => {
          for (const d of document.querySelectorAll('details')) d.open = true;
        });
        await page.addScriptTag({ path: AXE });
        const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const minor = result.violations.filter((v) => !bad.includes(v));
        if (minor.length) t.diagnostic(`minor: ${minor.map((v) => `${v.id} (${v.impact})`).join(', ')}`);
        assert.deepEqual(
          bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
        );
        // Minor ones are reported, not failed; these were mended and stay so.
        assert.deepEqual(
          minor.filter((v) => v.id === 'empty-table-header').map((v) => v.nodes.map((n) => n.target.join(' '))),
          [],
        );
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }

  test("fine at a phone's width (375px), and print hides the controls", async () => {
    const context = await fixture.browser.newContext({ viewport: { width: 375, height: 740 } });
    const { page, problems } = await openPage(fixture.browser, pages['index.html from file://']().url, { context });
    await waitReady(page);
    assert.ok(
      (await page.evaluate(() => document.documentElement.scrollWidth)) <= 375,
      'no sideways scrolling of the page',
    );
    const box = await page.locator('#roofline').boundingBox();
    assert.ok(box.width > 300 && box.width <= 375, `the figure fits: ${box.width}px`);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('#download-png').isVisible(), false);
    assert.equal(await page.locator('#measure').isVisible(), false);
    assert.equal(await page.locator('#roofline').isVisible(), true);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
