// The Notebook view's state (web/notebook_state.js) and the Worker's kernel (web/worker_host.js
// 'notebook-cell' / 'notebook-reset' on the wasm core in Node): a kernel keeps variables between
// cells, an answer from another kernel says it restarted, Stop clears the queue, #notebook links.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadNodeCore } from '../../scripts/lib/node-core.mjs';
import {
  applyNotebookLink,
  cellFinished,
  cellStarted,
  cellStopped,
  createNotebookState,
  dismissNotice,
  editCell,
  KERNEL_LOST,
  KERNEL_RESTARTED,
  kernelReset,
  lineKind,
  notebookBusy,
  notebookHashPart,
  notebookOutput,
  queueCells,
  restoreSeed,
  seedRestored,
  undoSeed,
  unqueue,
} from '../../web/notebook_state.js';
import { TASKS } from '../../web/worker_host.js';

let core;
before(async () => {
  core = await loadNodeCore();
});

const SEED = [
  { source: 'x = 1', firstLine: 1 },
  { source: 'print(x)', firstLine: 3 },
  { source: 'print(x + 1)', firstLine: 5 },
];
const answer = (kernel, over = {}) => ({
  stdout: '',
  error: '',
  errorType: '',
  exception: '',
  line: 0,
  column: 0,
  file: '',
  sourceLine: 0,
  cellsRun: 1,
  kernel,
  ...over,
});

describe('web/notebook_state.js', () => {
  test("cells run in a kernel: counts, outputs, errors with the cell's line", () => {
    let n = createNotebookState(SEED);
    assert.equal(n.cells.length, 3);
    n = queueCells(n, [0, 1, 2]);
    assert.ok(notebookBusy(n));
    n = cellFinished(cellStarted(n, 0), 0, answer('k1'));
    n = cellFinished(cellStarted(n, 1), 1, answer('k1', { stdout: '1\n', display: '[1, 2]', cellsRun: 2 }));
    assert.deepEqual(
      n.cells.map((c) => c.status),
      ['done', 'done', 'queued'],
    );
    // The last expression's value, as Jupyter's Out[n]; none where the answer has none.
    assert.deepEqual(
      n.cells.map((c) => c.display),
      ['', '[1, 2]', ''],
    );
    assert.deepEqual(
      n.cells.map((c) => c.count),
      [1, 2, null],
    );
    n = cellFinished(
      cellStarted(n, 2),
      2,
      answer('k1', {
        stdout: '',
        error: 'Traceback …',
        errorType: 'NameError',
        exception: "NameError: name 'y' is not defined",
        line: 1,
        file: '<cell 3>',
        sourceLine: 1,
        cellsRun: 3,
      }),
    );
    assert.equal(n.cells[2].status, 'error');
    assert.deepEqual(n.cells[2].error, {
      text: 'Traceback …',
      type: 'NameError',
      exception: "NameError: name 'y' is not defined",
      line: 1,
      file: '<cell 3>',
      sourceLine: 1,
      column: 0,
    });
    assert.equal(notebookOutput(n), '1\n');
    assert.equal(n.notice, null);
    assert.ok(!notebookBusy(n));
  });

  test('an answer from another kernel, Stop, Reset and the seed again', () => {
    let n = cellFinished(createNotebookState(SEED), 0, answer('k1', { display: '3' }));
    n = cellFinished(n, 1, answer('k2', { stdout: 'x\n', display: "'x'" }));
    assert.equal(n.notice, KERNEL_LOST);
    n = cellStarted(queueCells(n, [1, 2]), 1);
    n = cellStopped(n, 1);
    assert.deepEqual(
      n.cells.map((c) => c.status),
      ['done', 'stopped', 'idle'],
    );
    assert.equal(n.kernel, null);
    assert.equal(n.notice, KERNEL_RESTARTED);
    assert.equal(unqueue(queueCells(n, [2])).cells[2].status, 'idle');
    assert.equal(n.cells[1].display, '', 'a stopped cell shows no value');
    assert.equal(n.cells[0].display, '3');
    n = kernelReset(n, 'k3');
    assert.deepEqual(
      n.cells.map((c) => [c.status, c.stdout, c.display, c.count]),
      [
        ['idle', '', '', null],
        ['idle', '', '', null],
        ['idle', '', '', null],
      ],
    );
    n = editCell(n, 0, 'x = 2');
    assert.equal(n.cells[0].source, 'x = 2');
    // The seed again replaces the edit, says so, and Undo puts it back; nothing edited: no notice.
    const restored = restoreSeed(n);
    assert.equal(restored.cells[0].source, 'x = 1');
    assert.equal(restored.undoNotice, seedRestored(1));
    assert.match(restored.undoNotice, /edits to 1 cell were replaced.*Undo puts them back/);
    assert.equal(undoSeed(restored).cells[0].source, 'x = 2');
    assert.equal(undoSeed(restored).undoNotice, null);
    assert.deepEqual(undoSeed(restored).undo, []);
    assert.equal(
      restoreSeed(restored).undoNotice,
      restored.undoNotice,
      'the seed again over the seed: nothing new lost',
    );
    assert.equal(restoreSeed(createNotebookState(SEED)).undoNotice, null);
    // The seed again supersedes the kernel's notice; Dismiss of Undo's notice lets the cells go.
    assert.equal(restored.notice, null);
    assert.deepEqual(dismissNotice(restored).undo, []);
  });

  test('#notebook opens the view and the link says so; no seed: no cells and why', () => {
    const n = createNotebookState(SEED);
    assert.equal(applyNotebookLink(n, '#notebook&m=64').open, true);
    assert.equal(applyNotebookLink({ ...n, open: true }, '#m=64').open, false);
    assert.equal(notebookHashPart({ ...n, open: true }), 'notebook');
    assert.equal(notebookHashPart(n), '');
    const none = createNotebookState(null, 'not bundled');
    assert.deepEqual([none.cells, none.seedError], [[], 'not bundled']);
  });

  test('the timing samples are a measurement, the cost_analysis dict an estimate', () => {
    assert.equal(lineKind('Local CPU samples seconds: [0.1, 0.2]'), 'measurement');
    assert.equal(lineKind("Compiler estimates (backend-specific): {'flops': 8192.0}"), 'estimate');
    assert.equal(lineKind('Hypothetical ceilings GFLOP/s: [1.0]'), null);
  });
});

describe("the Worker's kernel (web/worker_host.js)", () => {
  test('cells share one kernel; reset empties it; the kernel keeps its id', () => {
    const a = TASKS['notebook-cell'](core, { source: 'x = 20\n', cell: 1 });
    assert.equal(a.error, '');
    const b = TASKS['notebook-cell'](core, { source: 'print(x * 2)\n', cell: 2 });
    assert.equal(b.stdout, '40\n');
    assert.equal(b.kernel, a.kernel);
    assert.ok(b.cellsRun >= 2);
    const bad = TASKS['notebook-cell'](core, { source: 'print(1)\n1 / 0\n', cell: 3 });
    assert.equal(bad.stdout, '1\n');
    assert.equal(
      bad.error,
      'Traceback (most recent call last):\n  File "<cell 3>", line 2, in <module>\n    1 / 0\nZeroDivisionError: division by zero\n',
    );
    assert.deepEqual([bad.line, bad.sourceLine, bad.file, bad.errorType], [2, 2, '<cell 3>', 'ZeroDivisionError']);
    assert.equal(TASKS['notebook-reset'](core, {}).kernel, a.kernel);
    assert.match(
      TASKS['notebook-cell'](core, { source: 'x\n', cell: 1 }).error,
      /NameError: name 'x' is not defined\n$/,
    );
    assert.throws(() => TASKS['notebook-cell'](core, { source: 'x = 1\n', cell: 0 }), /cell must be an integer from 1/);
  });

  test('core.notebookCells splits the seed the way the page shows it', () => {
    const r = core.notebookCells('import numpy as np\n\n# a comment\ndef f():\n    return 1\n\nprint(f())\n');
    assert.deepEqual(r, {
      ok: true,
      value: [
        { source: 'import numpy as np', firstLine: 1 },
        { source: '# a comment\ndef f():\n    return 1', firstLine: 3 },
        { source: 'print(f())', firstLine: 7 },
      ],
    });
    assert.deepEqual(core.notebookCells(5), { ok: false, error: 'source must be a string, got number' });
  });
});
