// The reader's code kept between visits (web/model/drafts.js) and never lost to a click: the
// Write tab's own program survives an example or a link replacing it (Undo), and is kept in this
// browser; the Notebook's edited cells are kept and put back into the same seed's cells only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decodeDrafts,
  DRAFTS_VERSION,
  encodeDrafts,
  MAX_DRAFT_CHARS,
  seedFingerprint,
} from '../../web/model/drafts.js';
import { encodeSource } from '../../web/model/source_link.js';
import { DEFAULT_WRITE_EXAMPLE, WRITE_EXAMPLES } from '../../web/model/write_examples.js';
import {
  applyNotebookDraft,
  createNotebookState,
  DRAFT_OTHER_SEED,
  draftRestored,
  editCell,
  notebookDraft,
  restoreSeed,
  undoSeed,
} from '../../web/notebook_state.js';
import {
  applyWriteDraft,
  applyWriteLink,
  createWriteState,
  dismissWriteNotice,
  exampleReplaced,
  exampleSource,
  LINK_REPLACED,
  setWriteMode,
  setWriteSource,
  undoExample,
  writeDraft,
} from '../../web/write_state.js';

const SEED = [
  { source: 'x = 1', firstLine: 1 },
  { source: 'print(x)', firstLine: 3 },
];
const MINE = 'import jax\n\ndef f(x):\n    return x * 2\n';

describe('the saved value', () => {
  test('round-trips the Write source and the Notebook cells, and nothing is saved when nothing is the reader’s', () => {
    const drafts = { write: MINE, notebook: { seed: seedFingerprint(SEED), cells: ['x = 2', 'print(x)'] } };
    const e = encodeDrafts(drafts);
    assert.equal(e.ok, true);
    assert.deepEqual(decodeDrafts(e.text), { drafts, notice: null });
    assert.deepEqual(encodeDrafts({ write: null, notebook: null }), { ok: true, text: null });
    assert.deepEqual(decodeDrafts(null), { drafts: { write: null, notebook: null }, notice: null });
  });

  test('a source too long to keep is refused by name, with its length and the limit', () => {
    const e = encodeDrafts({ write: 'x'.repeat(MAX_DRAFT_CHARS + 1), notebook: null });
    assert.deepEqual(e, { ok: false, error: 'a source of 1,000,001 characters is over the 1,000,000 kept' });
  });

  test('a value that is not ours is ignored whole, with a notice saying why', () => {
    const cases = [
      ['{', 'it is not valid JSON'],
      ['[1]', 'it is not Roofline Lab code'],
      [JSON.stringify({ version: 2, write: 'x' }), 'it is version 2, this page reads version 1'],
      [JSON.stringify({ version: DRAFTS_VERSION, write: 5 }), 'its Write source is not text'],
      [
        JSON.stringify({ version: DRAFTS_VERSION, notebook: { seed: 's', cells: [1] } }),
        'its Notebook cells are malformed',
      ],
    ];
    for (const [text, why] of cases) {
      const d = decodeDrafts(text);
      assert.deepEqual(d.drafts, { write: null, notebook: null }, text);
      assert.equal(d.notice, `The code saved in this browser was ignored (${why}); your next edit replaces it.`);
    }
  });

  test('the seed’s fingerprint changes with any cell’s text and with where cells split', () => {
    const a = seedFingerprint(SEED);
    assert.match(a, /^2-[0-9a-f]{8}$/);
    assert.equal(seedFingerprint(SEED.map((c) => ({ ...c }))), a);
    assert.notEqual(seedFingerprint([SEED[0], { source: 'print(x )', firstLine: 3 }]), a);
    assert.notEqual(seedFingerprint([{ source: 'x = 1print(x)' }]), a);
    assert.notEqual(seedFingerprint([{ source: 'x = 1p' }, { source: 'rint(x)' }]), a);
  });
});

describe('the Write tab keeps the reader’s program', () => {
  const other = WRITE_EXAMPLES.find((e) => e.name !== DEFAULT_WRITE_EXAMPLE);

  test('an example replacing it offers Undo, which puts it back; an example as it is is not kept', () => {
    const w0 = setWriteMode(createWriteState(), 'write');
    assert.equal(writeDraft(w0), null); // the default example, as it is
    const mine = setWriteSource(w0, MINE);
    assert.equal(writeDraft(mine), MINE);
    const replaced = exampleSource(mine, other.name);
    assert.equal(replaced.source, other.source);
    assert.equal(replaced.notice, exampleReplaced(other.title));
    assert.equal(writeDraft(replaced), null);
    // A second example keeps the first Undo: the reader's program, not the first example.
    const again = exampleSource(replaced, DEFAULT_WRITE_EXAMPLE);
    assert.deepEqual(undoExample(again).source, MINE);
    const back = undoExample(replaced);
    assert.equal(back.source, MINE);
    assert.equal(back.example, null);
    assert.equal(back.notice, null);
    assert.equal(back.undo, null);
    // An edit after the example lets the Undo go, as does Dismiss.
    assert.equal(setWriteSource(replaced, 'y = 1').undo, null);
    assert.equal(dismissWriteNotice(replaced).undo, null);
    // An example replacing an example offers nothing.
    const plain = exampleSource(w0, other.name);
    assert.equal(plain.undo, null);
    assert.equal(plain.notice, null);
  });

  test('a kept program opens in the tab; a link’s program replaces it with an Undo', () => {
    const kept = applyWriteDraft(createWriteState(), MINE);
    assert.equal(kept.source, MINE);
    assert.equal(kept.mode, 'paste');
    assert.equal(setWriteMode(kept, 'write').source, MINE); // not the default example
    const linked = applyWriteLink(kept, `#py=${encodeSource('def g(x):\n    return x\n').value}`);
    assert.equal(linked.source, 'def g(x):\n    return x\n');
    assert.equal(linked.notice, LINK_REPLACED);
    assert.equal(undoExample(linked).source, MINE);
    // The same program in the link, or no kept program: nothing to undo.
    assert.equal(applyWriteLink(kept, `#py=${encodeSource(MINE).value}`).undo, null);
    assert.equal(applyWriteLink(createWriteState(), `#py=${encodeSource(MINE).value}`).undo, null);
    // A link's source stays when a kept one comes later (the link wins).
    assert.equal(applyWriteDraft(linked, 'other').source, linked.source);
  });
});

describe('the Notebook keeps the reader’s edits', () => {
  const fresh = () => createNotebookState(SEED);

  test('no edit, nothing kept; an edit keeps every cell’s source with the seed’s fingerprint', () => {
    assert.equal(notebookDraft(fresh()), null);
    const n = editCell(fresh(), 0, 'x = 2');
    assert.deepEqual(notebookDraft(n), { seed: seedFingerprint(SEED), cells: ['x = 2', 'print(x)'] });
    assert.equal(notebookDraft(restoreSeed(n)), null);
    assert.equal(notebookDraft(undoSeed(restoreSeed(n))).cells[0], 'x = 2');
  });

  test('kept edits to this seed come back with a notice; those to another seed are offered by Undo', () => {
    const draft = notebookDraft(editCell(fresh(), 1, 'print(x * 3)'));
    const n = applyNotebookDraft(fresh(), draft);
    assert.deepEqual(
      n.cells.map((c) => [c.source, c.firstLine, c.status]),
      [
        ['x = 1', 1, 'idle'],
        ['print(x * 3)', 3, 'idle'],
      ],
    );
    assert.equal(n.notice, draftRestored(1));
    assert.equal(n.undo, null);
    const other = applyNotebookDraft(fresh(), { ...draft, seed: '2-00000000' });
    assert.deepEqual(
      other.cells.map((c) => c.source),
      ['x = 1', 'print(x)'],
    );
    assert.equal(other.notice, DRAFT_OTHER_SEED);
    assert.deepEqual(
      undoSeed(other).cells.map((c) => c.source),
      ['x = 1', 'print(x * 3)'],
    );
    // Nothing kept, or a kept copy of the seed itself: the cells as they are.
    assert.equal(applyNotebookDraft(fresh(), null).notice, null);
    assert.equal(applyNotebookDraft(fresh(), { seed: 'x', cells: ['x = 1', 'print(x)'] }).notice, null);
  });
});
