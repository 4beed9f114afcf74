// Section 9's printable sheet: the set's exercises with room for answers, then the answer key,
// which starts on a new page when printed (style.css: #cl-key breaks before a page). The sheet
// mode hides the rest of the page, on screen and in print.
import { el } from './dom.js';

/**
 * Fills the sheet and the key for a set.
 * @param {HTMLElement} body  where the exercises go
 * @param {HTMLElement} key   where the answer key goes
 * @param {{seed: string, student: string, count: number, families: string[]}} settings
 * @param {string} seedUsed
 * @param {object[]} exercises  from core.generateExercises
 * @param {{id: string, label: string}[]} familyList  the core's families
 */
export function renderSheet(body, key, settings, seedUsed, exercises, familyList) {
  const families = settings.families.length
    ? settings.families.map((f) => familyList.find((x) => x.id === f)?.label ?? f).join(', ')
    : 'all families';
  const about = `Seed ${JSON.stringify(seedUsed)}, ${exercises.length} exercise${exercises.length === 1 ? '' : 's'}, ${families}.`;
  body.replaceChildren(
    el('h3', 'Roofline Lab: classroom exercises'),
    el('p', `${about} Name: ______________________`, 'sheet-about'),
    ...exercises.map((e) => {
      const item = el('article', '', 'sheet-exercise');
      item.append(el('h4', `${e.index + 1}. ${e.title}`), el('p', e.statement));
      if (e.ir) {
        const pre = el('pre', e.ir);
        pre.tabIndex = 0;
        pre.setAttribute('aria-label', `StableHLO of exercise ${e.index + 1} (sheet)`);
        item.append(pre);
      }
      const list = el('ol', '', 'sheet-questions');
      list.type = 'a';
      for (const q of e.questions) {
        // The choices, unless the prompt already names each of them ("Bound (memory-bound or compute-bound)").
        const named = q.choices.every((c) => q.prompt.includes(c));
        const choices = q.kind === 'choice' && !named ? ` (${q.choices.join(' / ')})` : '';
        list.append(el('li', `${q.prompt}${choices}: ______________________`));
      }
      item.append(list);
      return item;
    }),
  );
  key.replaceChildren(
    el('h3', 'Answer key'),
    el('p', about, 'sheet-about'),
    ...exercises.map((e) => {
      const item = el('article', '', 'key-exercise');
      item.append(el('h4', `${e.index + 1}. ${e.title}`));
      const list = el('ul');
      for (const q of e.questions) {
        const unit = q.kind === 'number' && q.unit ? ` ${q.unit}` : '';
        const tolerance =
          q.kind === 'number' ? (q.rel_tolerance ? ` (within relative ${q.rel_tolerance})` : ' (exact)') : '';
        list.append(el('li', `${q.prompt}: ${q.exact}${unit}${tolerance}`));
      }
      item.append(list, el('p', e.solution, 'key-solution'));
      return item;
    }),
  );
}
