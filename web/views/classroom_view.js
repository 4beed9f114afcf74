// Section 9, "Classroom exercises": draws state.classroom (web/classroom_state.js) — the set's
// settings form, its notices, one card per exercise, the status, the link (always the set on
// show), the exports (the student's results; the set for Moodle), reset and the printable sheet
// — and hands every action to main.js, which changes the state and redraws. Nothing here is
// remembered between renders except what the DOM itself holds (typed text).
import { classroomHash, effectiveSeed } from '../model/classroom.js';
import { resultsCSV, resultsJSON } from '../model/progress.js';
import { classroomScore, savedSet } from '../classroom_state.js';
import { exerciseCard } from './classroom_cards_view.js';
import { renderSheet } from './classroom_sheet_view.js';
import { $, downloadText, el } from './dom.js';

const FORM_FIELDS = ['seed', 'count', 'families', 'student'];

/**
 * @param {{apply(form: {seed, count, student, checked: string[]}): void, check(index, questionId, text): void,
 *          hint(index, questionId): void, solution(index): void, askReset(on: boolean): void, reset(): void,
 *          sheet(on: boolean): void, dismiss(): void, moodle(): {ok, value?, error?}, unnamed(id: string): void, gradebook(): void}} actions
 * @param {() => object} getState  the page's state (for the exports)
 */
export function bindClassroomView(actions, getState) {
  const form = $('#classroom-form');
  const list = $('#cl-exercises');
  const familyBox = $('#cl-families');
  const now = () => new Date().toISOString();
  // What was last drawn, by identity: the cards, the form's values and the sheet are drawn anew
  // only when the state says so (a new set or a reset), so typed text survives other redraws.
  let drawn = { epoch: null, settings: null, families: null, cards: [] };

  const formValues = () => ({
    seed: form.elements.seed.value,
    count: form.elements.count.value,
    student: form.elements.student.value,
    checked: [...familyBox.querySelectorAll('input:checked')].map((b) => b.value),
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    actions.apply(formValues());
  });
  // A random seed is shown at once: the set, and the link a teacher copies, follow it.
  $('#cl-random').addEventListener('click', () => {
    const words = new Uint32Array(1);
    globalThis.crypto.getRandomValues(words);
    form.elements.seed.value = words[0].toString(36);
    actions.apply(formValues());
  });
  // Typed but not applied: the link is still the shown set's, and says so.
  const pending = () => {
    const s = c().settings;
    const f = formValues();
    const families = s.families.length ? s.families : c().families.map((x) => x.id);
    $('#cl-link-pending').hidden =
      f.seed.trim() === s.seed &&
      f.count.trim() === String(s.count) &&
      f.student.trim() === s.student &&
      f.checked.length === families.length &&
      f.checked.every((x) => families.includes(x));
  };
  form.addEventListener('input', pending);
  form.addEventListener('change', pending);
  $('#cl-dismiss').addEventListener('click', () => actions.dismiss());

  const c = () => getState().classroom;
  const fileBase = () =>
    `roofline-lab-results-${effectiveSeed(c().settings)
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .slice(0, 40)}`;
  // Without a name, two students' exports would be one file name and one student to the
  // gradebook: each browser's unnamed exports carry an id of their own, named in the file name,
  // and the student is told (typing a name now would give them another variant to answer).
  const resultsBase = () => {
    if (c().settings.student !== '') {
      $('#cl-export-status').textContent = '';
      return fileBase();
    }
    const words = new Uint32Array(2);
    globalThis.crypto.getRandomValues(words);
    actions.unnamed((words[0].toString(36) + words[1].toString(36)).slice(0, 6).padEnd(6, '0'));
    const id = savedSet(c()).unnamed_id;
    $('#cl-export-status').textContent =
      `Exported without a name, as “unnamed ${id}”: tell your teacher that this id is yours. ` +
      'For exports with your name, type it in “your name or number” above before you start: it gives you your own variant of the exercises.';
    return `${fileBase()}-unnamed-${id}`;
  };
  $('#cl-export-csv').addEventListener('click', () =>
    downloadText(`${resultsBase()}.csv`, resultsCSV(c().settings, savedSet(c()), c().exercises), 'text/csv'),
  );
  $('#cl-export-json').addEventListener('click', () => {
    const base = resultsBase();
    downloadText(
      `${base}.json`,
      `${JSON.stringify(resultsJSON(c().settings, savedSet(c()), c().exercises, effectiveSeed(c().settings), now()), null, 2)}\n`,
      'application/json',
    );
  });
  $('#cl-export-moodle').addEventListener('click', () => {
    const r = actions.moodle();
    $('#cl-export-status').textContent = r.ok ? '' : `The Moodle file could not be made: ${r.error}`;
    if (r.ok) downloadText(`${fileBase().replace('results', 'moodle')}.xml`, r.value, 'application/xml');
  });
  $('#cl-gradebook').addEventListener('click', () => {
    actions.gradebook();
    document.getElementById('gradebook').scrollIntoView();
  });
  $('#cl-reset').addEventListener('click', () => {
    actions.askReset(true);
    $('#cl-reset-no').focus();
  });
  $('#cl-reset-no').addEventListener('click', () => {
    actions.askReset(false);
    $('#cl-reset').focus();
  });
  $('#cl-reset-yes').addEventListener('click', () => {
    actions.reset();
    $('#cl-reset').focus();
  });
  $('#cl-sheet').addEventListener('click', () => {
    actions.sheet(true);
    $('#cl-sheet-close').focus();
    $('#cl-sheet-view').scrollIntoView();
  });
  $('#cl-sheet-close').addEventListener('click', () => {
    actions.sheet(false);
    $('#cl-sheet').focus();
  });
  $('#cl-print').addEventListener('click', () => globalThis.print());

  const cardActions = {
    onCheck: (index, questionId, text) => actions.check(index, questionId, text),
    onHint: (index, questionId) => actions.hint(index, questionId),
    onSolution: (index) => actions.solution(index),
  };

  function renderFamilies(cl) {
    if (drawn.families === cl.families) return;
    drawn.families = cl.families;
    familyBox.querySelectorAll('label').forEach((l) => l.remove());
    for (const f of cl.families) {
      const label = el('label');
      const box = el('input');
      box.type = 'checkbox';
      box.name = 'family';
      box.value = f.id;
      label.append(box, ` ${f.label}`);
      familyBox.append(label);
    }
  }

  function renderForm(cl) {
    if (drawn.settings !== cl.settings) {
      drawn.settings = cl.settings;
      const s = cl.settings;
      form.elements.seed.value = s.seed;
      form.elements.count.value = String(s.count);
      form.elements.student.value = s.student;
      for (const box of familyBox.querySelectorAll('input'))
        box.checked = s.families.length === 0 || s.families.includes(box.value);
    }
    for (const f of FORM_FIELDS) {
      $(`#cl-${f}-error`).textContent = cl.formErrors[f] ?? '';
      form.querySelector(`[name="${f}"]`)?.setAttribute('aria-invalid', String(Boolean(cl.formErrors[f])));
    }
  }

  function renderNotices(cl) {
    const all = [...cl.notices.link, ...cl.notices.storage, ...cl.notices.set];
    $('#cl-notices').hidden = all.length === 0;
    $('#cl-notice-list').replaceChildren(...all.map((n) => el('li', n)));
  }

  function renderCards(cl) {
    const saved = savedSet(cl);
    if (drawn.epoch !== cl.epoch) {
      drawn.epoch = cl.epoch;
      drawn.cards = cl.exercises.map((e) => exerciseCard(e, saved, cardActions, cl.families));
      list.replaceChildren(...drawn.cards.map((card) => card.element));
      renderSheet(
        $('#cl-sheet-body'),
        $('#cl-key'),
        cl.settings,
        effectiveSeed(cl.settings),
        cl.exercises,
        cl.families,
      );
    }
    for (const card of drawn.cards) card.update(saved, cl.said);
  }

  function renderStatus(cl) {
    const s = classroomScore(cl);
    $('#cl-score').textContent = cl.exercises.length
      ? `${cl.cleared ? 'Progress cleared. ' : ''}${s.right} of ${s.total} answers right (${s.answered} checked). Progress is saved in this browser.`
      : '';
    const base = location.href.split('#')[0];
    const hash = `#${classroomHash({ ...cl.settings, student: '' })}`;
    $('#cl-link').value = `${base}${hash}`;
    // From a file, the link names a file on this computer: say how to share the set instead.
    const fromFile = location.protocol === 'file:';
    const note = $('#cl-link-file');
    note.hidden = !fromFile;
    if (fromFile) {
      note.replaceChildren(
        'This page is opened from a file on this computer, so the link above works only here. To share the set, give ' +
          'students the one-file app roofline-lab.html (in dist/; they open it from their disk) and this end of the link to ' +
          'add after its name in the address bar: ',
        el('code', hash),
        ' — or put dist/ on any static web host and share that address followed by the same end.',
      );
    }
    const seed = effectiveSeed(cl.settings);
    const families = cl.settings.families.length ? ` --families ${cl.settings.families.join(',')}` : '';
    $('#cl-seed-used').textContent =
      `Seed used: ${JSON.stringify(seed)}${cl.settings.student ? " (the teacher's seed / your name: your own variant)" : ''}. ` +
      `The same exercises: node scripts/exercises.mjs --seed ${JSON.stringify(seed)} --count ${cl.settings.count}${families}`;
  }

  /** Draws section 9 from state.classroom. */
  function render(state) {
    const cl = state.classroom;
    renderFamilies(cl);
    const settingsChanged = drawn.settings !== cl.settings;
    renderForm(cl);
    if (settingsChanged) $('#cl-link-pending').hidden = true;
    renderNotices(cl);
    renderCards(cl);
    renderStatus(cl);
    $('#cl-reset-confirm').hidden = !cl.confirmReset;
    $('#cl-reset').hidden = cl.confirmReset;
    document.body.classList.toggle('sheet-mode', cl.sheet);
    $('#cl-sheet-view').hidden = !cl.sheet;
  }

  return { render };
}
