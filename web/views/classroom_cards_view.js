// Section 9's exercise cards: statement, IR, one small form per question (answer, Check, the
// core's feedback, hints one at a time) and the solution — available after a first attempt, or
// on request; opening it either way is recorded. Text from the core and from people goes in with
// textContent only.
import { attempted, questionKey, questionProgress } from '../model/progress.js';
import { el } from './dom.js';

function toleranceNote(q) {
  if (q.kind === 'choice') return '';
  if (q.kind === 'set') return 'a list of sizes such as 32, 64, or none';
  return q.rel_tolerance
    ? `accepted within a relative ${q.rel_tolerance} (${q.rel_tolerance * 100}%)`
    : 'an exact count';
}

/**
 * Builds one exercise's card.
 * @param {object} exercise  from core.generateExercises
 * @param {object} saved  the set's saved progress (web/model/progress.js)
 * @param {{onCheck(index, questionId, text), onHint(index, questionId), onSolution(index)}} actions
 * @param {{id: string, label: string}[]} families  the core's families (for the card's label)
 * @returns {{element: HTMLElement, update(saved: object, said: object): void}}
 */
export function exerciseCard(exercise, saved, actions, families) {
  const i = exercise.index;
  const card = el('li', '', 'exercise');
  card.id = `cl-ex-${i}`;
  const h = el('h3', `${i + 1}. ${exercise.title} `);
  h.append(el('span', families.find((f) => f.id === exercise.family)?.label ?? exercise.family, 'family'));
  card.append(h, el('p', exercise.statement, 'statement'));
  if (exercise.ir) {
    const pre = el('pre', exercise.ir, 'ir');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `StableHLO of exercise ${i + 1}`);
    card.append(pre);
  }
  const questions = exercise.questions.map((q) => questionForm(exercise, q, saved, actions));
  card.append(...questions.map((q) => q.element));

  const solution = el('div', '', 'solution');
  const request = el('button', 'Show the solution now, without trying');
  request.type = 'button';
  request.className = 'solution-request';
  request.addEventListener('click', () => actions.onSolution(i));
  const details = el('details', '', 'solution-details');
  details.append(el('summary', 'Solution'), el('p', exercise.solution, 'solution-text'));
  solution.append(request, details);
  card.append(solution);
  let opened = saved.solutions.includes(i);
  // Unfolding the solution after an attempt opens it as much as asking for it does: recorded once.
  details.addEventListener('toggle', () => {
    if (details.open && !opened) actions.onSolution(i);
  });

  /** Draws the saved progress `s`, and `said` ({"index:questionId": text}): messages that are not verdicts. */
  function update(s, said = {}) {
    for (const q of questions) q.update(s, said);
    opened = s.solutions.includes(i);
    const available = opened || attempted(s, exercise);
    request.hidden = available;
    details.hidden = !available;
    if (opened && !details.dataset.opened) {
      details.open = true; // opened: open it once on show; the student may close it again
      details.dataset.opened = 'yes';
    }
  }
  update(saved);
  return { element: card, update };
}

function questionForm(exercise, q, saved, actions) {
  const i = exercise.index;
  const id = `cl-${i}-${q.id}`;
  const form = el('form', '', 'question');
  form.noValidate = true;
  form.autocomplete = 'off';
  form.dataset.question = q.id;
  const feedback = el('span', '', 'feedback');
  feedback.id = `${id}-feedback`;
  feedback.setAttribute('aria-live', 'polite');
  const note = toleranceNote(q);
  const noteEl = note ? el('span', note, 'note') : null;
  if (noteEl) noteEl.id = `${id}-note`;
  const described = [feedback.id, noteEl?.id].filter(Boolean).join(' ');
  const first = questionProgress(saved, i, q.id);

  let read;
  let input = null;
  const row = el('div', '', 'answer');
  if (q.kind === 'choice') {
    const group = el('fieldset', '', 'choices');
    group.append(el('legend', q.prompt));
    group.setAttribute('aria-describedby', described);
    for (const choice of q.choices) {
      const label = el('label');
      const radio = el('input');
      radio.type = 'radio';
      radio.name = id;
      radio.value = choice;
      radio.checked = first.answer === choice;
      label.append(radio, ` ${choice}`);
      group.append(label);
    }
    row.append(group);
    read = () => form.querySelector(`input[name="${id}"]:checked`)?.value ?? '';
  } else {
    const label = el('label', q.prompt);
    label.htmlFor = id;
    input = el('input');
    input.id = id;
    input.name = 'answer';
    input.size = 14;
    input.value = first.answer;
    input.setAttribute('aria-describedby', described);
    row.append(label, input);
    if (noteEl) row.append(noteEl);
    read = () => input.value;
  }
  const check = el('button', 'Check');
  check.type = 'submit';
  check.className = 'check';
  row.append(check, feedback);

  const hintButton = el('button', '', 'hint-button');
  hintButton.type = 'button';
  const hints = el('ul', '', 'hints');
  hintButton.addEventListener('click', () => actions.onHint(i, q.id));
  form.append(row, hintButton, hints);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    actions.onCheck(i, q.id, read());
  });

  function update(s, said) {
    const p = questionProgress(s, i, q.id);
    const message = said[questionKey(i, q.id)];
    if (message !== undefined) {
      // not a verdict (nothing typed yet): no colour
      feedback.textContent = message;
      feedback.className = 'feedback empty';
    } else {
      // The latest attempt's feedback; a right answer given earlier still counts, and is said so.
      const kept =
        p.correct === true && p.last_correct === false
          ? ` Your answer at attempt ${p.right_at} was right: that still counts.`
          : '';
      feedback.textContent = p.attempts
        ? `${p.feedback}${p.attempts > 1 ? ` (attempt ${p.attempts})` : ''}${kept}`
        : '';
      feedback.className = `feedback ${p.attempts ? (p.last_correct ? 'right' : 'wrong') : 'empty'}`;
    }
    input?.setAttribute('aria-invalid', String(p.attempts > 0 && !p.last_correct));
    const total = q.hints.length;
    const shown = Math.min(p.hints, total);
    hints.replaceChildren(...q.hints.slice(0, shown).map((text, k) => el('li', `Hint ${k + 1} of ${total}: ${text}`)));
    hintButton.hidden = total === 0 || shown >= total;
    hintButton.textContent = shown === 0 ? `Show a hint (1 of ${total})` : `Next hint (${shown + 1} of ${total})`;
  }
  return { element: form, update };
}
