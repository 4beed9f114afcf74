// The teacher's gradebook (a view of its own): result files dropped or opened, the set they are
// graded against, the files refused with their reasons, and the class table — sortable, with each
// question's share right and its most common mistake — exported as CSV. Names, answers and
// reasons come from files people made: they go in with textContent only.
import {
  answerCell,
  gradebookCSV,
  percent,
  questionLabels,
  READ_AT_MOST,
  sortedStudents,
  studentLabel,
} from '../model/gradebook.js';
import { $, downloadText, el } from './dom.js';

/** A dropped or opened file as core.gradebook takes it: {name, text, size}. */
export async function readResultFile(file) {
  return { name: file.name, text: await file.slice(0, READ_AT_MOST).text(), size: file.size };
}

/**
 * @param {{add(files: {name, text, size}[]): void, clear(): void, close(): void, sort(key: string): void}} actions
 * @param {() => object} getState  the page's state (for the export)
 */
export function bindGradebookView(actions, getState) {
  const drop = $('#gb-drop');
  const read = async (list) => {
    const files = [...(list ?? [])];
    if (!files.length) return;
    $('#gb-status').textContent = `reading ${files.length} file${files.length === 1 ? '' : 's'}…`;
    actions.add(await Promise.all(files.map(readResultFile)));
  };
  $('#gb-files').addEventListener('change', async (e) => {
    await read(e.target.files);
    e.target.value = ''; // the same files may be opened again
  });
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('dragging');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('dragging');
    read(e.dataTransfer?.files);
  });
  drop.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      $('#gb-files').click();
    }
  });
  $('#gb-clear').addEventListener('click', () => actions.clear());
  $('#gb-close').addEventListener('click', () => actions.close());
  $('#gb-export').addEventListener('click', () => {
    const g = getState().gradebook;
    if (!g.table) return;
    const seed = (g.table.set?.seed ?? 'class').replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40);
    downloadText(`roofline-lab-gradebook-${seed}.csv`, gradebookCSV(g.table, g.sort), 'text/csv');
  });
  $('#gb-table thead').addEventListener('click', (e) => {
    const key = e.target.closest('button[data-sort]')?.dataset.sort;
    if (key) actions.sort(key);
  });

  const describeSet = (set) =>
    `seed ${JSON.stringify(set.seed)}, ${set.count} exercise${set.count === 1 ? '' : 's'}, ` +
    (set.families.length ? `families ${set.families.join(', ')}` : 'all families');

  function renderHead(table, sort) {
    const labels = questionLabels(table);
    const tr = el('tr');
    const head = (key, text, title = '') => {
      const th = el('th');
      th.scope = 'col';
      const b = el('button', text, 'sort');
      b.type = 'button';
      b.dataset.sort = key;
      if (title) b.title = title;
      th.append(b);
      th.setAttribute('aria-sort', sort.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      tr.append(th);
    };
    head('student', 'student');
    head('right', 'right');
    head('tried', 'tried');
    head('attempts', 'attempts');
    head('hints', 'hints');
    head('solutions', 'solutions');
    labels.forEach((l, i) => head(`q${i}`, l, `${table.questions[i].title}: ${table.questions[i].prompt}`));
    $('#gb-table thead').replaceChildren(tr);
  }

  function renderBody(table, sort) {
    const total = table.questions.length;
    $('#gb-table tbody').replaceChildren(
      ...sortedStudents(table, sort).map((s) => {
        const tr = el('tr');
        const name = el('th', studentLabel(s));
        name.scope = 'row';
        name.title = `${s.file}, exported ${s.exported || 'at an unknown time'}; seed ${JSON.stringify(s.seed_used)}`;
        tr.append(
          name,
          el('td', `${s.right} of ${total}`),
          el('td', String(s.tried)),
          el('td', String(s.attempts)),
          el('td', String(s.hints)),
          el('td', String(s.solutions)),
        );
        for (const a of s.answers) {
          const c = answerCell(a);
          const td = el('td', '', `gb-answer ${a.status}`);
          td.title = c.title;
          const mark = el('span', c.mark, 'mark');
          mark.setAttribute('aria-hidden', 'true');
          td.append(mark, el('span', c.word, 'visually-hidden'));
          if (c.detail) td.append(el('small', c.detail));
          tr.append(td);
        }
        return tr;
      }),
    );
    const share = el('tr');
    const label = el('th', 'share right');
    label.scope = 'row';
    share.append(label, el('td', '', ''), el('td'), el('td'), el('td'), el('td'));
    for (const q of table.summary)
      share.append(el('td', q.students ? `${percent(q.share_right)} (${q.right} of ${q.students})` : ''));
    $('#gb-table tfoot').replaceChildren(share);
    const labels = questionLabels(table);
    const mistakes = table.summary.map((q, i) => [q, labels[i]]).filter(([q]) => q.mistake);
    $('#gb-mistakes-box').hidden = mistakes.length === 0;
    $('#gb-mistakes').replaceChildren(
      ...mistakes.map(([q, l]) => {
        const li = el('li');
        li.append(
          el('strong', l),
          ` (${q.mistake.students} student${q.mistake.students === 1 ? '' : 's'}, ${q.mistake.category}): `,
          el('q', q.mistake.feedback),
        );
        return li;
      }),
    );
  }

  // Focus follows the view: opened, the gradebook's heading has it (a reader hears where they
  // are); closed, the control that opened it gets it back (or section 9's heading, after a link),
  // at the place on the page the reader left, instead of <body> at the top.
  let wasOpen = null; // null: not drawn yet (a link that opens the gradebook moves no focus)
  let opener = null;
  let scrolledTo = 0;

  /** Draws state.gradebook; the rest of the page is hidden while it is open. */
  function render(state) {
    const g = state.gradebook;
    const opening = wasOpen === false && g.open,
      closing = wasOpen === true && !g.open;
    if (opening) {
      // read before the page is hidden (its scroll position goes with it)
      const from = document.activeElement;
      opener = from && from !== document.body && !$('#gradebook').contains(from) ? from : null;
      scrolledTo = window.scrollY;
    }
    document.body.classList.toggle('gradebook-mode', g.open);
    $('#gradebook').hidden = !g.open;
    wasOpen = g.open;
    if (opening) $('#h-gradebook').focus();
    if (closing) {
      window.scrollTo(0, scrolledTo);
      const back = opener?.isConnected && opener.getClientRects().length ? opener : $('#h-classroom');
      back.focus({ preventScroll: true });
      const box = back.getBoundingClientRect();
      if (box.bottom < 0 || box.top > window.innerHeight) back.scrollIntoView({ block: 'center' });
      opener = null;
    }
    if (!g.open) return;
    const t = g.table;
    const set = t?.set ?? g.set;
    $('#gb-set').textContent = set
      ? `Graded against ${describeSet(set)}${t?.set?.from === 'files' || (!t && !g.set) ? ' (the set most of the files belong to)' : ''}.`
      : 'The set is taken from the files: the one most of them belong to.';
    $('#gb-notices').hidden = g.notices.length === 0;
    $('#gb-notice-list').replaceChildren(...g.notices.map((n) => el('li', n)));
    $('#gb-error').textContent = g.error ?? '';
    $('#gb-error').hidden = !g.error;
    const refused = t?.refused ?? [];
    $('#gb-refused').hidden = refused.length === 0;
    $('#gb-refused-list').replaceChildren(
      ...refused.map((r) => {
        const li = el('li');
        li.append(el('strong', r.file), `: ${r.reason}`);
        return li;
      }),
    );
    $('#gb-status').textContent = t
      ? `${t.totals.students} student${t.totals.students === 1 ? '' : 's'} graded from ${t.totals.files} file${t.totals.files === 1 ? '' : 's'}` +
        `${refused.length ? `; ${refused.length} not graded (below)` : ''}.`
      : 'No result files yet.';
    $('#gb-export').disabled = !t || t.students.length === 0;
    $('#gb-results').hidden = !t || t.students.length === 0;
    if (t && t.students.length) {
      renderHead(t, g.sort);
      renderBody(t, g.sort);
    }
  }

  return { render };
}
