// rooflineLab.notebook in the page: the seed's lesson.py run in a Worker prints what the CLI
// (node scripts/notebook.mjs) prints, the timing samples aside; errors come back as Python's
// traceback; an endless loop ends at the step budget. (The page's Notebook view: notebook_page.test.mjs.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { browserAndServer, ROOT } from './browser.mjs';

const LESSON = resolve(ROOT, '..', 'shared', 'seed', 'lesson.py');
const fixture = browserAndServer({ alone: true });
const SAMPLES = /^Local CPU samples seconds: \[[^\]]*\]$/m;

for (const name of Object.keys(fixture.pages)) {
  describe(`rooflineLab.notebook: ${name}`, () => {
    test(
      "the seed's lesson.py prints the CLI's lines, the measured samples aside",
      { skip: !existsSync(LESSON) },
      async () => {
        const cli = spawnSync(process.execPath, [join(ROOT, 'scripts', 'notebook.mjs'), LESSON], { encoding: 'utf8' });
        assert.equal(cli.status, 0, cli.stderr);
        const { page, problems } = await fixture.open(name);
        const r = await page.evaluate(
          (src) => window.rooflineLab.notebook(src, { filename: 'lesson.py' }),
          readFileSync(LESSON, 'utf8'),
        );
        assert.equal(r.error, '');
        assert.match(r.stdout, SAMPLES);
        assert.equal(r.stdout.replace(SAMPLES, 'samples'), cli.stdout.replace(SAMPLES, 'samples'));
        assert.match(
          r.stdout,
          /^Hypothetical ceilings GFLOP\/s: \[26\.666666666666664, 53\.33333333333333, 100\.0, 100\.0, 100\.0\]$/m,
        );
        assert.deepEqual(problems, []);
        await page.close();
      },
    );

    test("an exception is Python's traceback; while True: ends at the step budget", async () => {
      const { page, problems } = await fixture.open(name);
      const e = await page.evaluate(() =>
        window.rooflineLab.notebook("print('a')\nx = {'k': 1}['q']\n", { filename: 'cell.py' }),
      );
      assert.deepEqual(e, {
        stdout: 'a\n',
        error:
          "Traceback (most recent call last):\n  File \"cell.py\", line 2, in <module>\n    x = {'k': 1}['q']\nKeyError: 'q'\n",
        errorType: 'KeyError',
        line: 2,
      });
      const loop = await page.evaluate(() =>
        window.rooflineLab.notebook('while True:\n    pass\n', { maxSteps: 100000 }),
      );
      assert.equal(loop.errorType, 'RuntimeError');
      assert.match(loop.error, /step budget of 100000/);
      await assert.rejects(
        page.evaluate(() => window.rooflineLab.notebook('', { maxSteps: -5 })),
        /maxSteps must be an integer/,
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
}
