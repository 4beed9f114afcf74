// The reader's code kept between visits (web/model/drafts.js) and never lost to a click: the
// Write tab's own program survives an example or a link replacing it (Undo, even after edits),
// and is kept in this browser with what Undo can bring back; the Notebook's edited cells and the
// cells "The seed's code again" replaced are kept and put back into the same seed's cells only;
// two tabs keep each other's parts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decodeDrafts,
  DRAFTS_VERSION,
  emptyDrafts,
  encodeDrafts,
  MAX_DRAFT_CHARS,
  mergeDrafts,
  seedFingerprint,
} from '../../web/model/drafts.js';
import { encodeSource } from '../../web/model/source_link.js';
import { DEFAULT_WRITE_EXAMPLE, WRITE_EXAMPLES } from '../../web/model/write_examples.js';
import {
  adoptNotebookReplaced,
  applyNotebookDraft,
  clearNotice,
  dismissNotice,
  createNotebookState,
  DRAFT_OTHER_SEED,
  DRAFT_REPLACED_KEPT,
  draftRestored,
  editCell,
  notebookDraft,
  NOTEBOOK_UNDO_MORE,
  noticeShown,
  restoreSeed,
  seedRestored,
  undoSeed,
} from '../../web/notebook_state.js';
import {
  adoptReplaced,
  applyWriteDraft,
  applyWriteLink,
  createWriteState,
  dismissWriteNotice,
  exampleReplaced,
  exampleSource,
  KEPT_REPLACED,
  LINK_REPLACED,
  setWriteMode,
  setWriteSource,
  UNDO_MORE,
  undoExample,
  writeDraft,
  writeReplaced,
} from '../../web/write_state.js';

const SEED = [
  { source: 'x = 1', firstLine: 1 },
  { source: 'print(x)', firstLine: 3 },
];
const MINE = 'import jax\n\ndef f(x):\n    return x * 2\n';

describe('the saved value', () => {
  test('round-trips the Write part and the Notebook part, and nothing is saved when nothing is the reader’s', () => {
    const drafts = {
      write: { source: MINE, replaced: ['old = 1\n'] },
      notebook: { seed: seedFingerprint(SEED), cells: ['x = 2', 'print(x)'], replaced: [['x = 3', 'print(x)']] },
    };
    const e = encodeDrafts(drafts);
    assert.equal(e.ok, true);
    assert.deepEqual(decodeDrafts(e.text), { drafts, notice: null });
    assert.deepEqual(encodeDrafts(emptyDrafts()), { ok: true, text: null });
    assert.deepEqual(decodeDrafts(null), { drafts: emptyDrafts(), notice: null });
  });

  test('a source too long to keep is refused by name, with its length and the limit', () => {
    const long = 'x'.repeat(MAX_DRAFT_CHARS + 1);
    const error = 'a source of 1,000,001 characters is over the 1,000,000 kept';
    assert.deepEqual(encodeDrafts({ write: { source: long, replaced: [] }, notebook: null }), { ok: false, error });
    assert.deepEqual(encodeDrafts({ write: { source: null, replaced: [long] }, notebook: null }), {
      ok: false,
      error,
    });
  });

  test('a value that is not ours is ignored whole, a malformed part alone, each with a notice saying why', () => {
    const whole = [
      ['{', 'it is not valid JSON'],
      ['[1]', 'it is not Roofline Lab code'],
      [JSON.stringify({ version: 2, write: null }), 'it is version 2, this page reads version 1'],
    ];
    for (const [text, why] of whole) {
      const d = decodeDrafts(text);
      assert.deepEqual(d.drafts, emptyDrafts(), text);
      assert.equal(d.notice, `The code saved in this browser was ignored (${why}); your next edit replaces it.`);
    }
    const nb = { seed: 's', cells: ['a'], replaced: [] };
    const parts = [
      [{ write: 5, notebook: nb }, 'its Write program is', { write: null, notebook: nb }],
      [{ write: { source: 'x', replaced: [1] }, notebook: nb }, 'its Write program is', { write: null, notebook: nb }],
      [
        { write: 'x', notebook: { seed: 's', cells: [1], replaced: [] } },
        'its Notebook cells are',
        { write: { source: 'x', replaced: [] }, notebook: null },
      ],
      [
        { write: 5, notebook: { seed: 's', cells: null, replaced: [[2]] } },
        'its Write program and its Notebook cells are',
        emptyDrafts(),
      ],
    ];
    for (const [value, why, kept] of parts) {
      const d = decodeDrafts(JSON.stringify({ version: DRAFTS_VERSION, ...value }));
      assert.deepEqual(d.drafts, kept, JSON.stringify(value));
      assert.equal(
        d.notice,
        `Part of the code saved in this browser was ignored (${why} malformed); your next edit replaces it.`,
      );
    }
    // The first form of this value (a bare Write source, no replaced cells) still reads.
    assert.deepEqual(
      decodeDrafts(JSON.stringify({ version: 1, write: 'x = 1\n', notebook: { seed: 's', cells: ['a'] } })),
      {
        drafts: { write: { source: 'x = 1\n', replaced: [] }, notebook: { seed: 's', cells: ['a'], replaced: [] } },
        notice: null,
      },
    );
  });

  test('two tabs keep each other’s parts and programs: what another tab wrote joins Undo’s', () => {
    const stored = { write: { source: 'from tab A', replaced: [] }, notebook: null };
    const mine = { write: { source: 'in tab B', replaced: [] }, notebook: { seed: 's', cells: ['b'], replaced: [] } };
    // Only the part this tab changed is taken from it.
    assert.deepEqual(mergeDrafts(stored, mine, new Set(['notebook'])), {
      write: stored.write,
      notebook: mine.notebook,
    });
    // Tab A wrote the Write part since tab B last did: A's program is not lost, it is Undo's.
    const lastB = { write: JSON.stringify({ source: 'old', replaced: [] }), notebook: 'null' };
    assert.deepEqual(mergeDrafts(stored, mine, new Set(['write']), lastB).write, {
      source: 'in tab B',
      replaced: ['from tab A'],
    });
    // Unchanged since this tab wrote it: this tab's part as it is (a dismissal clears it).
    const lastSame = { write: JSON.stringify(stored.write), notebook: 'null' };
    assert.deepEqual(mergeDrafts(stored, { write: null, notebook: null }, new Set(['write']), lastSame).write, null);
    // Cells another tab kept stay when this tab has none.
    const nbStored = { write: null, notebook: { seed: 's', cells: ['theirs'], replaced: [] } };
    assert.deepEqual(
      mergeDrafts(nbStored, { write: null, notebook: null }, new Set(['notebook']), { write: 'null', notebook: 'null' })
        .notebook,
      nbStored.notebook,
    );
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

  test('an example replacing it offers Undo, which outlives edits to the example; an example as it is is not kept', () => {
    const w0 = setWriteMode(createWriteState(), 'write');
    assert.equal(writeDraft(w0), null); // the default example, as it is
    const mine = setWriteSource(w0, MINE);
    assert.equal(writeDraft(mine), MINE);
    const replaced = exampleSource(mine, other.name);
    assert.equal(replaced.source, other.source);
    assert.equal(replaced.notice, exampleReplaced(other.title));
    assert.equal(writeDraft(replaced), null);
    assert.deepEqual(writeReplaced(replaced), [MINE], 'kept in this browser while Undo can bring it back');
    // An edit to the example keeps the Undo (its notice too); Undo then puts the program back.
    const edited = setWriteSource(replaced, `${other.source}# x\n`);
    assert.equal(edited.undo.length, 1);
    assert.equal(edited.notice, replaced.notice);
    assert.equal(undoExample(edited).source, MINE);
    // An edited example replaced by another example: both can come back, the latest first.
    const twice = exampleSource(edited, DEFAULT_WRITE_EXAMPLE);
    assert.deepEqual(writeReplaced(twice), [MINE, `${other.source}# x\n`]);
    const once = undoExample(twice);
    assert.equal(once.source, `${other.source}# x\n`);
    assert.equal(once.notice, UNDO_MORE);
    const back = undoExample(once);
    assert.equal(back.source, MINE);
    assert.equal(back.example, null);
    assert.equal(back.notice, null);
    assert.deepEqual(back.undo, []);
    // Dismiss lets them go; an example replacing an example offers nothing.
    assert.deepEqual(dismissWriteNotice(replaced).undo, []);
    const plain = exampleSource(w0, other.name);
    assert.deepEqual(plain.undo, []);
    assert.equal(plain.notice, null);
  });

  test('what was kept opens in the tab (with its Undo); a link’s program replaces it with an Undo', () => {
    const kept = applyWriteDraft(createWriteState(), { source: MINE, replaced: [] });
    assert.equal(kept.source, MINE);
    assert.equal(kept.mode, 'paste');
    assert.equal(setWriteMode(kept, 'write').source, MINE); // not the default example
    const withUndo = applyWriteDraft(createWriteState(), { source: null, replaced: ['old = 1\n'] });
    assert.equal(withUndo.notice, KEPT_REPLACED);
    assert.equal(undoExample(withUndo).source, 'old = 1\n');
    // The tab opening on the default example says nothing false: the kept notice stays.
    assert.equal(setWriteMode(withUndo, 'write').notice, KEPT_REPLACED);
    // Programs another tab kept become this tab's Undo's too.
    assert.equal(undoExample(adoptReplaced(createWriteState(), ['theirs = 1\n'])).source, 'theirs = 1\n');
    const linked = applyWriteLink(kept, `#py=${encodeSource('def g(x):\n    return x\n').value}`);
    assert.equal(linked.source, 'def g(x):\n    return x\n');
    assert.equal(linked.notice, LINK_REPLACED);
    assert.equal(undoExample(linked).source, MINE);
    // The same program in the link, or no kept program: nothing to undo.
    assert.deepEqual(applyWriteLink(kept, `#py=${encodeSource(MINE).value}`).undo, []);
    assert.deepEqual(applyWriteLink(createWriteState(), `#py=${encodeSource(MINE).value}`).undo, []);
  });
});

describe('the Notebook keeps the reader’s edits', () => {
  const fresh = () => createNotebookState(SEED);

  test('no edit, nothing kept; an edit keeps every cell’s source with the seed’s fingerprint; replaced cells too', () => {
    assert.equal(notebookDraft(fresh()), null);
    const n = editCell(fresh(), 0, 'x = 2');
    assert.deepEqual(notebookDraft(n), { seed: seedFingerprint(SEED), cells: ['x = 2', 'print(x)'], replaced: [] });
    const restored = restoreSeed(n);
    assert.deepEqual(notebookDraft(restored), {
      seed: seedFingerprint(SEED),
      cells: null,
      replaced: [['x = 2', 'print(x)']],
    });
    assert.equal(restored.undoNotice, seedRestored(1, false));
    assert.doesNotMatch(restored.undoNotice, /outputs/, 'no cell had run');
    // An edit after it keeps the Undo and its notice.
    const later = editCell(restored, 1, 'print(x, 3)');
    assert.equal(later.undo.length, 1);
    assert.equal(later.undoNotice, restored.undoNotice);
    // A run clears a notice, not Undo's; Dismiss of Undo's own notice lets them go.
    assert.equal(clearNotice(later).undo.length, 1);
    assert.deepEqual(noticeShown(later), { text: restored.undoNotice, undo: true });
    assert.deepEqual(dismissNotice(later).undo, []);
    assert.equal(undoSeed(later).cells[0].source, 'x = 2');
    // Restored twice: both come back, the latest first.
    const twice = restoreSeed(later);
    const once = undoSeed(twice);
    assert.equal(once.cells[1].source, 'print(x, 3)');
    assert.equal(once.undoNotice, NOTEBOOK_UNDO_MORE);
    assert.equal(undoSeed(once).cells[0].source, 'x = 2');
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
    assert.deepEqual(n.undo, []);
    // A kernel notice shows first, without Undo; its Dismiss keeps what Undo can bring back.
    const both = { ...restoreSeed(editCell(fresh(), 0, 'x = 5')), notice: 'The kernel was reset.' };
    assert.deepEqual(noticeShown(both), { text: 'The kernel was reset.', undo: false });
    assert.equal(dismissNotice(both).undo.length, 1);
    assert.equal(noticeShown(dismissNotice(both)).undo, true);
    const other = applyNotebookDraft(fresh(), { ...draft, seed: '2-00000000' });
    assert.deepEqual(
      other.cells.map((c) => c.source),
      ['x = 1', 'print(x)'],
    );
    assert.equal(other.undoNotice, DRAFT_OTHER_SEED);
    assert.deepEqual(
      undoSeed(other).cells.map((c) => c.source),
      ['x = 1', 'print(x * 3)'],
    );
    // Only replaced cells kept: the seed's code stays, Undo offers them.
    const replacedOnly = applyNotebookDraft(fresh(), notebookDraft(restoreSeed(editCell(fresh(), 0, 'x = 9'))));
    assert.equal(replacedOnly.undoNotice, DRAFT_REPLACED_KEPT);
    assert.equal(undoSeed(replacedOnly).cells[0].source, 'x = 9');
    assert.equal(applyNotebookDraft(fresh(), null).notice, null);
    // Cells another tab kept become this tab's Undo's too.
    const adopted = adoptNotebookReplaced(fresh(), [['x = 7', 'print(x)']]);
    assert.equal(undoSeed(adopted).cells[0].source, 'x = 7');
  });
});
