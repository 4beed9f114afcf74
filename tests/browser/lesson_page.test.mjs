// dist/index.html, opened from file:// and over http, shows the model's numbers computed by
// the wasm core, refuses bad input by name and keeps the last good numbers.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { browserAndServer, openPage, ROOT, waitReady } from './browser.mjs';

const fixture = browserAndServer();

for (const [name, url] of Object.entries(fixture.origins)) {
  describe(`the lesson page from ${name}`, () => {
    test('loads the core and shows the lesson numbers, with no console error and no network request', async () => {
      const { page, problems } = await openPage(fixture.browser, url());
      await page.waitForFunction(() => document.getElementById('status').textContent === 'Core loaded.', null, {
        timeout: 15000,
      });
      const report = await page.evaluate(() => window.rooflineLab.report());
      assert.equal(report.matmul_accounting.flops, 8192);
      assert.equal(report.matmul_accounting.minimum_bytes, 3584);
      assert.equal(report.matmul_accounting.flops_per_byte, 16 / 7);
      assert.deepEqual(report.sizes, [8, 16, 32, 64, 128]);
      assert.deepEqual(
        report.intensity,
        report.sizes.map((n) => (2 * n ** 3) / (4 * 3 * n * n)),
      );
      assert.equal(report.ridge, 5);
      assert.deepEqual(
        report.figure.series.map((s) => s.label),
        ['bandwidth budget', 'compute budget', 'combined ceiling'],
      );

      const text = (sel) => page.locator(sel).innerText();
      assert.equal(await text('[data-field="flops"] >> nth=0'), '8192');
      assert.equal(await text('[data-field="minimum_bytes"] >> nth=0'), '3584');
      assert.match(await text('[data-field="intensity"] >> nth=0'), /^16\/7 ≈ 2\.286$/);
      const ceilings = await page.locator('#sizes tbody tr td:nth-child(3)').allInnerTexts();
      assert.deepEqual(ceilings, ['26.67', '53.33', '100', '100', '100']);
      const doubled = await page.locator('#traffic tbody tr td:nth-child(3)').allInnerTexts();
      assert.deepEqual(doubled, ['13.33', '26.67', '53.33', '100', '100']);
      if (name === 'file://') {
        // The first screen (for the README) and the whole page.
        mkdirSync(join(ROOT, 'build', 'screenshots'), { recursive: true });
        await page.screenshot({ path: join(ROOT, 'build', 'screenshot-lesson.png'), fullPage: false });
        await page.screenshot({ path: join(ROOT, 'build', 'screenshots', 'lesson.png'), fullPage: true });
        await page.locator('#figure').screenshot({ path: join(ROOT, 'build', 'screenshots', 'figure.png') });
      }
      // The reference solution stays folded until asked for.
      assert.equal(await page.locator('#exercise-solution').isVisible(), false);
      await page.locator('#exercise summary').click();
      assert.match(await text('#exercise-solution'), /27648 flops.*8064 bytes.*24\/7.*68\.57 GFLOP\/s.*memory-bound/);
      assert.match(await text('#stablehlo'), /^module @jit_workload attributes/);
      assert.deepEqual(await page.locator('#stablehlo mark').allInnerTexts(), [
        'stablehlo.dot_general',
        'stablehlo.tanh',
      ]);
      const contract = await page.locator('#contract li').allInnerTexts();
      assert.equal(contract.length, 3);
      assert.ok(
        contract.every((c) => c.startsWith('✓')),
        contract.join(' | '),
      );
      assert.deepEqual(
        await page.locator('#cost tfoot th').allInnerTexts(),
        ['program'],
        'one row header, no empty one (axe: empty-table-header)',
      );
      assert.equal(await page.locator('#cost tfoot th').getAttribute('colspan'), '2');
      assert.deepEqual(await page.locator('#cost tfoot td').allInnerTexts(), ['8192', '256', '5632']);
      assert.match(await text('#cost-note'), /XLA's own CPU cost analysis recorded the same/);
      assert.match(
        await text('#kernel-check'),
        /^Passed: max \|x − y\| = [0-9.e-]+ over the 32×8 outputs \(kernel tanh_matmul_f32_4x8__wasmsimd_splat/,
      );
      assert.equal(report.kernel_check.passed, true);
      assert.ok(report.kernel_check.max_abs_error < 2e-5);
      assert.equal(report.local_samples_seconds, null, 'no measurement before the reader asks for one');
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('measures this machine on 1 core and on 2 Workers at once, with progress, while the page stays usable', async () => {
      const { page, problems } = await openPage(fixture.browser, url());
      await waitReady(page);
      const before = await page.evaluate(() => window.rooflineLab.report());
      await page.locator('#measure-form input[name="samples"]').fill('3');
      await page.locator('#measure-form input[name="workers"]').fill('2');
      await page.locator('#measure').click();
      assert.equal(await page.locator('#cancel').isEnabled(), true);
      // The main thread is free while the Worker measures: the model still answers input.
      await page.locator('input[name="m"]').fill('64');
      assert.equal(await page.locator('[data-field="flops"] >> nth=0').innerText(), String(2 * 64 * 16 * 8));
      await page.waitForFunction(() => window.rooflineLab.measurements() !== null, null, { timeout: 120000 });
      const m = await page.evaluate(() => window.rooflineLab.measurements());
      assert.equal(m.local_samples_seconds.length, 3);
      assert.ok(m.local_samples_seconds.every((x) => x > 0));
      assert.ok(m.timing.repeats >= 1 && m.timing.timer_resolution > 0);
      assert.ok(m.timing.min <= m.timing.median && m.timing.median <= m.timing.max);
      // Every reported sample lasted 100 ticks of the timer's measured resolution.
      for (const s of m.local_samples_seconds)
        assert.ok(m.timing.repeats * s >= 100 * m.timing.timer_resolution, `lesson: ${m.timing.repeats} × ${s}`);
      for (const k of m.kernel_timings) {
        for (const s of k.seconds_per_call)
          assert.ok(k.repeats * s >= 100 * k.timer_resolution, `${k.m}³ on ${k.cores}: ${k.repeats} × ${s}`);
      }
      // Both core counts: 1 core and the pool's Workers at once.
      assert.deepEqual(m.measured_ceilings.cores, [1, 2]);
      for (const c of [1, 2]) {
        assert.ok(m.measured_ceilings.by_cores[c].gflops > 0);
        for (const level of ['l1', 'l2', 'memory'])
          assert.ok(m.measured_ceilings.by_cores[c].bandwidth_gbs[level] > 0, `${c}: ${level}`);
      }
      assert.equal(m.measured_ceilings.gflops, m.measured_ceilings.by_cores[1].gflops);
      assert.deepEqual(
        m.kernel_timings.map((k) => [k.m, k.cores]),
        [
          [256, 1],
          [256, 2],
          [512, 1],
          [512, 2],
        ],
      );
      assert.equal(m.bigger_size_timing.m, 256);
      assert.match(await page.locator('#measure-status').innerText(), /^Done: measurements of this machine/);
      assert.deepEqual(await page.locator('#measured-ceilings thead th').allInnerTexts(), [
        'measured',
        '1 core',
        '2 cores at once',
        'all ÷ 1 core',
        'how',
      ]);
      assert.equal(await page.locator('#measured-ceilings tbody tr').count(), 6);
      assert.match(
        await page.locator('#measured-ceilings tbody tr >> nth=1').innerText(),
        /^tanh\(A@B\) at 512³, GFLOP\/s \(median\)\t[0-9.]+\t[0-9.]+\t[0-9.]+× \(efficiency [0-9.]+%\)/,
      );
      assert.equal(await page.locator('#timing tbody tr').count(), 5);
      const ticks = (await page.locator('#timing tbody tr td:nth-child(9)').allInnerTexts()).map(Number);
      assert.ok(
        ticks.every((t) => t >= 100),
        ticks.join(', '),
      );
      assert.match(await page.locator('#lesson-size-note').innerText(), /live in L1/);
      assert.equal(await page.locator('#all-cores-error').isHidden(), true);
      const workers = await page.evaluate(() => window.rooflineLab.workers());
      assert.deepEqual(
        workers.map((w) => w.state),
        ['ready', 'ready'],
      );
      // Section 8 (its analysis on the same pool) can now use this machine's roofs, on 1 core and on all cores.
      await page.locator('#analyze-examples button[data-example="lesson"]').click();
      await page.waitForFunction(() => document.querySelectorAll('#analyze-roof option').length > 2, null, {
        timeout: 30000,
      });
      const roofs = await page.locator('#analyze-roof option').allInnerTexts();
      assert.ok(
        roofs.some((r) => /^this machine, 1 core, measured: /.test(r)),
        roofs.join(' | '),
      );
      assert.ok(
        roofs.some((r) =>
          /^this machine, all cores \(2\), measured: [0-9.]+ GFLOP\/s, [0-9.]+ GB\/s \(memory-sized triad\)/.test(r),
        ),
        roofs.join(' | '),
      );
      await page.locator('#analyze-roof').selectOption('measured-all');
      assert.match(await page.locator('#analyze-roof-kind').innerText(), /^measurement of this machine/);
      assert.equal(
        (await page.evaluate(() => window.rooflineLab.analyzeView())).roof.peak,
        m.measured_ceilings.by_cores[2].gflops * 1e9,
      );
      // The model's numbers are untouched by the measurement.
      const after = await page.evaluate(() => window.rooflineLab.report());
      assert.deepEqual(after.hypothetical_ceilings_gflops, before.hypothetical_ceilings_gflops);
      assert.equal(after.local_samples_seconds, null);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('cancel stops a measurement and keeps the page working; bad sample counts are refused', async () => {
      const { page, problems } = await openPage(fixture.browser, url());
      await waitReady(page);
      const samples = page.locator('#measure-form input[name="samples"]');
      await samples.fill('0');
      await page.locator('#measure').click();
      assert.equal(
        await page.locator('#measure-status').innerText(),
        'samples must be an integer from 1 to 1000, got 0',
      );
      await samples.fill('two');
      await page.locator('#measure').click();
      assert.equal(await page.locator('#measure-status').innerText(), 'samples must be a number, got "two"');
      await samples.fill('1000');
      await page.locator('#measure').click();
      await page.locator('#cancel').click();
      assert.equal(
        await page.locator('#measure-status').innerText(),
        'Cancelled; the earlier results (if any) are kept.',
      );
      assert.equal(await page.locator('#measure').isEnabled(), true);
      assert.equal(await page.evaluate(() => window.rooflineLab.measurements()), null);
      // Cancel during a step on every Worker at once ends all the Workers.
      await samples.fill('2');
      await page.locator('#measure-form input[name="workers"]').fill('2');
      await page.locator('#measure').click();
      await page.waitForFunction(
        () =>
          /2 cores at once/.test(document.getElementById('measure-status').textContent) &&
          window.rooflineLab.workers().every((w) => w.leased && w.busy),
        null,
        { timeout: 60000, polling: 10 },
      );
      await page.locator('#cancel').click();
      assert.equal(
        await page.locator('#measure-status').innerText(),
        'Cancelled; the earlier results (if any) are kept.',
      );
      assert.deepEqual(
        (await page.evaluate(() => window.rooflineLab.workers())).map((w) => w.state),
        ['off', 'off'],
      );
      // Bad Worker counts are refused by name.
      const workers = page.locator('#measure-form input[name="workers"]');
      await workers.fill('0');
      await page.locator('#measure').click();
      assert.equal(await page.locator('#measure-status').innerText(), 'Workers must be an integer from 1 to 64, got 0');
      assert.equal(await workers.getAttribute('aria-invalid'), 'true');
      // A new run after the cancel starts fresh Workers and finishes.
      await workers.fill('2');
      await samples.fill('1');
      await page.locator('#measure').click();
      await page.waitForFunction(() => window.rooflineLab.measurements() !== null, null, { timeout: 120000 });
      assert.deepEqual((await page.evaluate(() => window.rooflineLab.measurements())).measured_ceilings.cores, [1, 2]);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test("an in-page link (the skip link) keeps the reader's inputs and raises no notice", async () => {
      const { page, problems } = await openPage(fixture.browser, url());
      await page.evaluate(() => window.rooflineLab.ready);
      await page.locator('input[name="m"]').fill('64');
      await page.locator('a.skip').focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => !location.hash.includes('lowered'), null, { timeout: 5000 });
      assert.equal(await page.locator('input[name="m"]').inputValue(), '64');
      assert.equal(await page.locator('#notices').isHidden(), true);
      assert.match(await page.evaluate(() => location.hash), /m=64/);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test('bad input names the field and the value, and keeps the last good numbers', async () => {
      const { page, problems } = await openPage(fixture.browser, url());
      await waitReady(page);
      const m = page.locator('input[name="m"]');
      await m.fill('0');
      assert.equal(await page.locator('#m-error').innerText(), 'm must be a positive integer, got 0');
      assert.equal(await page.locator('#input-error').innerText(), 'One field needs fixing: m.');
      assert.equal(await m.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('[data-field="flops"] >> nth=0').innerText(), '8192');
      await m.fill('abc');
      assert.equal(await page.locator('#m-error').innerText(), 'm must be a number, got "abc"');
      assert.equal(await page.locator('#input-error').innerText(), 'One field needs fixing: m.');
      await m.fill('');
      assert.equal(await page.locator('#m-error').innerText(), 'm must be a number, got nothing');
      await m.fill('64');
      assert.equal(await page.locator('#input-error').innerText(), '');
      assert.equal(await page.locator('#input-error').isVisible(), false);
      assert.equal(await page.locator('[data-field="flops"] >> nth=0').innerText(), String(2 * 64 * 16 * 8));
      // The lowered computation follows the shapes; the XLA-recorded remark is for the seed's only.
      assert.match(
        await page.locator('#stablehlo').innerText(),
        /tensor<64x16xf32>, tensor<16x8xf32>\) -> tensor<64x8xf32>/,
      );
      assert.deepEqual(await page.locator('#cost tfoot').locator('th, td').allInnerTexts(), [
        'program',
        String(2 * 64 * 16 * 8),
        String(64 * 8),
        String(4 * (64 * 16 + 16 * 8 + 64 * 8) + 2 * 4 * 64 * 8),
      ]);
      assert.doesNotMatch(await page.locator('#cost-note').innerText(), /XLA's own CPU/);
      await page.locator('input[name="itemsize"]').fill('3');
      assert.match(await page.locator('#stablehlo').innerText(), /^Not shown: no StableHLO float type has itemsize 3/);
      await page.locator('input[name="itemsize"]').fill('4');

      await page.locator('input[name="peak"]').fill('100e9');
      assert.match(
        await page.locator('#peak-error').innerText(),
        /^peak must be at most 1e9 GFLOP\/s .*got 100000000000$/,
      );
      await page.locator('input[name="peak"]').fill('40');
      const ceilings = await page.locator('#sizes tbody tr td:nth-child(3)').allInnerTexts();
      assert.deepEqual(ceilings, ['26.67', '40', '40', '40', '40']); // ridge 2: only n=8 stays memory-bound
      await page.locator('input[name="traffic_factor"]').fill('-1');
      assert.equal(
        await page.locator('#traffic_factor-error').innerText(),
        'traffic factor must be from 0.25 to 16 on this page, got -1',
      );
      await page.locator('input[name="sizes"]').fill('8,0');
      assert.equal(
        await page.locator('#sizes-error').innerText(),
        'sizes: entry 2 of 2 must be a positive integer, got 0 (the list is split at commas: write 1000, not 1,000)',
      );
      assert.equal(
        await page.locator('#input-error').innerText(),
        '2 fields need fixing: square sizes and traffic factor.',
      );
      await page.locator('#reset').click();
      assert.equal(await page.locator('#input-error').innerText(), '');
      assert.equal(await page.locator('input[name="m"]').inputValue(), '32');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
