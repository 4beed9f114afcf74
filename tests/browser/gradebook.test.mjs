// The teacher's side, in the page: students export result files, the teacher drops them on the
// gradebook (a view of its own, reachable from section 9 and by link), which regrades every
// answer with the core, lists the files it cannot grade by name with the reason, sorts, exports
// CSV; "Export for Moodle" writes the set as Moodle XML. Bad files (over 5 MB, thousands of
// answers, script-like names, a future version) each get a message and the rest still grade.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browserAndServer, downloadFrom, openPage, ROOT, waitReady } from './browser.mjs';

const fixture = browserAndServer();
const SET = 'seed=gb7&count=3&families=work_traffic,bound';
const cli = (...args) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'exercises.mjs'), ...args], { encoding: 'utf8' });
const exercisesOf = (seed) =>
  JSON.parse(cli('--seed', seed, '--count', '3', '--families', 'work_traffic,bound', '--json').stdout);

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'roofline-gradebook-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A student answers in section 9 (as typed, each checked) and exports their results: the file's text. */
async function studentFile(student, typed) {
  const { page, problems } = await fixture.open(
    'http://127.0.0.1',
    `#classroom&${SET}&student=${encodeURIComponent(student)}`,
  );
  for (const [index, id, answer] of typed) {
    const input = page.locator(`#cl-${index}-${id}`);
    if (await input.count()) {
      await input.fill(answer);
      await input.press('Enter');
    } else {
      await page.locator(`#cl-ex-${index} form[data-question="${id}"] input[value="${answer}"]`).check();
      await page.locator(`#cl-ex-${index} form[data-question="${id}"] button.check`).click();
    }
  }
  const download = await downloadFrom(page, page.locator('#cl-export-json'), problems, '#cl-export-status');
  const text = readFileSync(await download.path(), 'utf8');
  assert.deepEqual(problems, []);
  await page.close();
  return text;
}

/**
 * The class table as laid out: one cell per column (each body cell under its header, as wide),
 * one line per student (a row's cells share its top and do not overlap the next row's).
 */
async function assertTableLayout(page) {
  const layout = await page.evaluate(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, width: r.width, top: r.top, bottom: r.bottom };
    };
    const heads = [...document.querySelectorAll('#gb-table thead th')].map(box);
    const rows = [...document.querySelectorAll('#gb-table tbody tr')].map((tr) => ({
      row: box(tr),
      cells: [...tr.children].map(box),
    }));
    return { heads, rows };
  });
  assert.ok(layout.heads.length > 6 && layout.rows.length > 0);
  let previousBottom = -Infinity;
  for (const [r, { row, cells }] of layout.rows.entries()) {
    assert.equal(cells.length, layout.heads.length, `row ${r}: one cell per column`);
    for (const [i, c] of cells.entries()) {
      const h = layout.heads[i];
      assert.ok(
        Math.abs(c.left - h.left) < 1 && Math.abs(c.width - h.width) < 1,
        `row ${r}, column ${i}: the cell (${c.left}+${c.width}) is under its header (${h.left}+${h.width})`,
      );
      assert.ok(
        c.width > 0 && Math.abs(c.top - row.top) < 1 && c.bottom <= row.bottom + 1,
        `row ${r}, column ${i}: the cell (top ${c.top}) is on its row's line (${row.top}–${row.bottom})`,
      );
    }
    assert.ok(row.top >= previousBottom - 1, `row ${r} starts below the row before`);
    previousBottom = row.bottom;
  }
}

describe("the teacher's gradebook", () => {
  test('result files dropped on the page are regraded by the core into a sortable class table, with refusals by file', async () => {
    const ada = exercisesOf('gb7/Ada');
    const { m, k, n } = ada[0].params;
    const adaText = await studentFile('Ada', [
      [0, 'work', ada[0].questions[0].exact],
      [0, 'work', '400 GB/s'], // right, then wrong: right counts
      [0, 'traffic', String(m * k + k * n + m * n)], // the elements, not the bytes
      [1, 'bound', ada[1].questions.find((q) => q.id === 'bound').exact],
    ]);
    const evil = '<img src=x onerror="window.__pwned=1">';
    const cyText = await studentFile(evil, [[0, 'work', '<script>window.__pwned=2</script>']]);
    // Bo forges his file: wrong answers marked right. The gradebook regrades them.
    const boText = await studentFile('Bo', [
      [0, 'work', '12'],
      [0, 'ratio', '1'],
    ]);
    const bo = JSON.parse(boText);
    for (const q of bo.questions) {
      q.correct = true;
      for (const a of q.history) a.correct = true;
    }
    bo.score.right = 9;
    const files = {
      'ada.json': adaText,
      'cy <b>bold.json': cyText,
      'bo.json': JSON.stringify(bo),
      'ada-again.json': adaText.replace(/"exported": "[^"]*"/, '"exported": "2000-01-01T00:00:00.000Z"'),
      'notes.txt': 'Dear teacher, here are my answers: 42',
      'future.json': JSON.stringify({ ...bo, version: 3, student: 'Future' }),
      'other-set.json': JSON.stringify({ ...bo, seed: 'another', student: 'Oz' }),
      'huge.json': JSON.stringify({ ...bo, student: 'Huge', pad: 'x'.repeat(5.5 * 1024 * 1024) }),
      'thousands.json': JSON.stringify({
        ...bo,
        student: 'Tess',
        questions: [
          {
            ...bo.questions[0],
            attempts: 5000,
            history: Array.from({ length: 5000 }, (_, i) => ({ answer: String(i), at: 't' })),
          },
        ],
      }),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

    const { page, problems } = await fixture.open('http://127.0.0.1', `#classroom&${SET}`);
    await page.locator('#cl-gradebook').scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    assert.ok(scrolled > 0);
    await page.locator('#cl-gradebook').click();
    assert.equal(
      await page.evaluate(() => document.activeElement.id),
      'h-gradebook',
      "focus on the gradebook's heading, not <body>",
    );
    assert.match(
      await page.evaluate(() => location.hash),
      /^#gradebook&seed=gb7&count=3&families=work_traffic,bound&m=32/,
    );
    assert.equal(await page.locator('#gradebook').isVisible(), true);
    assert.equal(await page.locator('#lowered').isVisible(), false, 'a view of its own');
    assert.equal(await page.locator('#classroom').isVisible(), false);
    assert.equal(await page.locator('#gb-status').innerText(), 'No result files yet.');
    assert.equal(
      await page.locator('#gb-set').innerText(),
      'Graded against seed "gb7", 3 exercises, families work_traffic, bound.',
    );

    // Most files opened at once; the rest dropped on the drop zone (a real drop event with Files).
    const calls = await page.evaluate(() => window.rooflineLab.coreCalls().total);
    const opened = Object.keys(files).filter((f) => f !== 'bo.json' && f !== 'notes.txt');
    await page.locator('#gb-files').setInputFiles(opened.map((f) => join(dir, f)));
    await page.waitForFunction(
      () => document.getElementById('gb-status').textContent.startsWith('2 students graded'),
      null,
      { timeout: 20000 },
    );
    assert.equal(
      (await page.evaluate(() => window.rooflineLab.coreCalls().total)) - calls,
      1,
      'one call into the core for the whole drop',
    );
    await page.evaluate(
      async (dropped) => {
        const transfer = new DataTransfer();
        for (const [name, text] of dropped) transfer.items.add(new File([text], name, { type: 'application/json' }));
        document
          .getElementById('gb-drop')
          .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      [
        ['bo.json', files['bo.json']],
        ['notes.txt', files['notes.txt']],
      ],
    );
    await page.waitForFunction(
      () => document.getElementById('gb-status').textContent.startsWith('3 students graded'),
      null,
      { timeout: 20000 },
    );

    // The table: one row per student, sorted by name; the core's verdicts, not the files'.
    const rows = await page
      .locator('#gb-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual(
      rows.map((r) => r[0]),
      [evil, 'Ada', 'Bo'],
    );
    await assertTableLayout(page);
    const heads = await page.locator('#gb-table thead th').allInnerTexts();
    assert.deepEqual(heads.slice(0, 9), [
      'student',
      'right',
      'tried',
      'attempts',
      'hints',
      'solutions',
      '1a work',
      '1b traffic',
      '1c ratio',
    ]);
    const ada0 = rows[1];
    assert.deepEqual(ada0.slice(1, 6), ['2 of 9', '3', '4', '0', '0']);
    assert.equal(ada0[6], '✓right at attempt 12 attempts', 'right at attempt 1, kept after a wrong one');
    assert.equal(ada0[7], '✗wrong1 attempt');
    assert.equal(ada0[8], '–not tried');
    assert.deepEqual(rows[2].slice(1, 3), ['0 of 9', '2'], "Bo's forged verdicts are not read");
    // Script-like text in names and answers is text: nothing ran, no element was made of it.
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('#gradebook img, #gradebook script, #gradebook b').count(), 0);

    // Files not graded: by name, with the reason; the others are graded.
    const refused = await page.locator('#gb-refused-list li').allInnerTexts();
    assert.deepEqual(
      refused.map((r) => r.slice(0, r.indexOf(':'))),
      ['ada-again.json', 'future.json', 'other-set.json', 'huge.json', 'thousands.json', 'notes.txt'],
    );
    const reason = (name) => refused.find((r) => r.startsWith(`${name}:`));
    assert.equal(
      reason('ada-again.json'),
      'ada-again.json: repeats student "Ada": ada.json, exported later, is graded',
    );
    assert.equal(
      reason('future.json'),
      'future.json: is version 3, written by a newer Roofline Lab; this gradebook reads version 2',
    );
    assert.match(
      reason('other-set.json'),
      /^other-set\.json: belongs to another set \(seed "another", 3 exercises, families work_traffic, bound\); this gradebook grades seed "gb7"/,
    );
    assert.match(
      reason('huge.json'),
      /^huge\.json: is \d+ bytes; a result file must be at most 5 MB \(5242880 bytes\)$/,
    );
    assert.match(reason('thousands.json'), /has 5000 attempts; a result file may hold at most 1000 for a question$/);
    assert.match(reason('notes.txt'), /^notes\.txt: is not JSON \(1:1: expected a JSON value, got 'D'\)/);

    // Per question: the share right, and the most common mistake (the checker's category).
    const foot = await page.locator('#gb-table tfoot td').allInnerTexts();
    assert.equal(foot[5], '33% (1 of 3)', '1a work: Ada only');
    assert.match(
      await page.locator('#gb-mistakes').innerText(),
      /1b traffic \(1 student, elements_not_bytes\): .?That is the number of elements/,
    );

    // Sorting: by right, most first; again, fewest first.
    await page.locator('#gb-table thead button[data-sort="right"]').click();
    assert.deepEqual(await page.locator('#gb-table tbody th').allInnerTexts(), ['Ada', evil, 'Bo']);
    assert.equal(
      await page.locator('#gb-table thead th:has(button[data-sort="right"])').getAttribute('aria-sort'),
      'descending',
    );
    await page.locator('#gb-table thead button[data-sort="right"]').click();
    assert.equal((await page.locator('#gb-table tbody th').allInnerTexts())[2], 'Ada');

    // CSV export of the table, in the order shown.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#gb-export').click()]);
    assert.equal(csv.suggestedFilename(), 'roofline-lab-gradebook-gb7.csv');
    const lines = readFileSync(await csv.path(), 'utf8').split('\r\n');
    assert.match(
      lines[0],
      /^student,file,right,tried,questions,attempts,hints,solutions,1a work,1a work attempts,1a work hints,/,
    );
    assert.match(lines[3], /^Ada,ada\.json,2,3,9,4,0,0,right at attempt 1,2,0,wrong,1,0,/);
    assert.match(lines.at(-2), /^share right,/);

    // rooflineLab.gradebook() gives the table the CLI prints for the same files.
    const names = ['ada.json', 'cy <b>bold.json', 'bo.json', 'notes.txt'];
    const api = await page.evaluate(
      (fs) => window.rooflineLab.gradebook(fs),
      names.map((name) => ({ name, text: files[name] })),
    );
    const printed = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'exercises.mjs'), '--grade', ...names, '--json'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(printed.status, 3, printed.stderr);
    assert.deepEqual(api, JSON.parse(printed.stdout));
    assert.equal(api.students.length, 3);
    await assert.rejects(
      page.evaluate(() => window.rooflineLab.gradebook('nope')),
      /files must be an array/,
    );

    // Back to the exercises: the lesson is there again, and the link is section 9's.
    await page.locator('#gb-close').click();
    assert.equal(
      await page.evaluate(() => document.activeElement.id),
      'cl-gradebook',
      'focus back on the control that opened it',
    );
    assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'where the reader was, not the top');
    assert.equal(await page.locator('#lowered').isVisible(), true);
    assert.equal(await page.locator('#gradebook').isVisible(), false);
    assert.match(
      await page.evaluate(() => location.hash),
      /^#classroom&seed=gb7&count=3&families=work_traffic,bound&m=32/,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("reachable by link; #gradebook alone grades the files' own set; clearing empties it", async () => {
    const text = await studentFile('Solo', [[0, 'work', '1']]);
    for (const where of Object.keys(fixture.origins)) {
      const { page, problems } = await fixture.open(where, '#gradebook');
      assert.equal(await page.locator('#gradebook').isVisible(), true);
      assert.equal(await page.locator('#lowered').isVisible(), false);
      assert.equal(
        await page.locator('#gb-set').innerText(),
        'The set is taken from the files: the one most of them belong to.',
      );
      writeFileSync(join(dir, 'solo.json'), text);
      await page.locator('#gb-files').setInputFiles(join(dir, 'solo.json'));
      await page.waitForFunction(() => document.getElementById('gb-status').textContent.startsWith('1 student graded'));
      assert.equal(
        await page.locator('#gb-set').innerText(),
        'Graded against seed "gb7", 3 exercises, families work_traffic, bound (the set most of the files belong to).',
      );
      await assertTableLayout(page);
      await page.locator('#gb-clear').click();
      assert.equal(await page.locator('#gb-status').innerText(), 'No result files yet.');
      assert.equal(await page.locator('#gb-results').isVisible(), false);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  test('two students who export without a name get files of their own, and the gradebook grades both', async () => {
    const exported = [];
    for (const answer of ['1', '2']) {
      // two browsers (a new page is a new context: its own storage)
      const { page, problems } = await fixture.open('http://127.0.0.1', `#classroom&${SET}`);
      await page.locator('#cl-0-work').fill(answer);
      await page.locator('#cl-0-work').press('Enter');
      const download = await downloadFrom(page, page.locator('#cl-export-json'), problems, '#cl-export-status');
      const status = await page.locator('#cl-export-status').innerText();
      const id = /“unnamed ([a-z0-9]+)”/.exec(status)?.[1];
      assert.ok(id, status);
      assert.match(status, /tell your teacher that this id is yours/);
      assert.equal(download.suggestedFilename(), `roofline-lab-results-gb7-unnamed-${id}.json`);
      const text = readFileSync(await download.path(), 'utf8');
      assert.deepEqual([JSON.parse(text).student, JSON.parse(text).unnamed_id], ['', id]);
      // Again from the same browser: the same student (the id is saved with the progress).
      const again = await downloadFrom(page, page.locator('#cl-export-json'), problems, '#cl-export-status');
      assert.equal(again.suggestedFilename(), download.suggestedFilename());
      exported.push({ name: download.suggestedFilename(), text, id });
      assert.deepEqual(problems, []);
      await page.close();
    }
    assert.notEqual(exported[0].id, exported[1].id);
    const { page, problems } = await fixture.open('http://127.0.0.1', `#gradebook&${SET}`);
    for (const f of exported) writeFileSync(join(dir, f.name), f.text);
    await page.locator('#gb-files').setInputFiles(exported.map((f) => join(dir, f.name)));
    await page.waitForFunction(() => document.getElementById('gb-status').textContent.startsWith('2 students graded'));
    assert.deepEqual(
      (await page.locator('#gb-table tbody th').allInnerTexts()).sort(),
      exported.map((f) => `(no name) ${f.id}`).sort(),
    );
    assert.equal(await page.locator('#gb-refused').isVisible(), false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a mistyped link is said where the gradebook is, naming the key, the rule and the value; the files still grade', async () => {
    const text = await studentFile('Typo', [[0, 'work', '1']]);
    writeFileSync(join(dir, 'typo.json'), text);
    const { page, problems } = await fixture.open(
      'file://',
      '#gradebook&seed=gb7&count=abc&families=work_traffic,bound',
    );
    assert.equal(await page.locator('#gradebook').isVisible(), true);
    assert.equal(
      await page.locator('#gb-notices').isVisible(),
      true,
      "in the gradebook, not in section 9's hidden box",
    );
    assert.deepEqual(await page.locator('#gb-notice-list li').allInnerTexts(), [
      'ignored count="abc" in the link: count must be an integer from 1 to 100, got "abc"',
      "The link's set is not used: the gradebook grades the set most of the files belong to.",
    ]);
    await page.locator('#gb-files').setInputFiles(join(dir, 'typo.json'));
    await page.waitForFunction(() => document.getElementById('gb-status').textContent.startsWith('1 student graded'));
    assert.equal(await page.locator('#gb-refused').isVisible(), false, "the real file is not refused as another set's");
    // A good link afterwards: the notices go.
    await page.evaluate(() => {
      location.hash = '#gradebook&seed=gb7&count=3&families=work_traffic,bound';
    });
    await page.waitForFunction(() => document.getElementById('gb-notices').hidden);
    assert.match(await page.locator('#gb-set').innerText(), /^Graded against seed "gb7", 3 exercises/);
    // Opened by a link, "Back to the exercises" has no control to go back to: section 9's heading.
    await page.locator('#gb-close').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'h-classroom');
    assert.ok(
      await page.evaluate(() => {
        const r = document.getElementById('h-classroom').getBoundingClientRect();
        return window.scrollY > 0 && r.top >= 0 && r.bottom <= innerHeight;
      }),
      "section 9's heading in view, not the top of the page",
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('axe-core finds no serious or critical violation in the gradebook with a class table', async () => {
    const text = await studentFile('Axel', [
      [0, 'work', '1'],
      [1, 'bound', 'memory-bound'],
    ]);
    writeFileSync(join(dir, 'axel.json'), text);
    writeFileSync(join(dir, 'bad.json'), '{');
    const context = await fixture.browser.newContext({ bypassCSP: true });
    const { page, problems } = await openPage(
      fixture.browser,
      `${fixture.origins['http://127.0.0.1']()}#gradebook&${SET}`,
      { context },
    );
    await waitReady(page);
    await page.locator('#gb-files').setInputFiles([join(dir, 'axel.json'), join(dir, 'bad.json')]);
    await page.waitForFunction(() => document.getElementById('gb-status').textContent.startsWith('1 student graded'));
    await page.addScriptTag({ path: join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
    const result = await page.evaluate(() =>
      window.axe.run({ include: [['#gradebook']] }, { resultTypes: ['violations'] }),
    );
    const serious = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    assert.deepEqual(serious, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('"Export for Moodle" writes the set as well-formed Moodle XML, the same as the CLI\'s', async () => {
    const { page, problems } = await fixture.open('file://', `#classroom&${SET}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#cl-export-moodle').click()]);
    assert.equal(download.suggestedFilename(), 'roofline-lab-moodle-gb7.xml');
    const file = join(dir, 'page.xml');
    writeFileSync(file, readFileSync(await download.path(), 'utf8'));
    const lint = spawnSync('xmllint', ['--noout', file], { encoding: 'utf8' });
    assert.equal(lint.status, 0, lint.stderr);
    const fromCli = join(dir, 'cli.xml');
    assert.equal(
      cli('--seed', 'gb7', '--count', '3', '--families', 'work_traffic,bound', '--moodle', fromCli).status,
      0,
    );
    assert.equal(readFileSync(file, 'utf8'), readFileSync(fromCli, 'utf8'));
    assert.equal(await page.locator('#cl-export-status').innerText(), '');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
