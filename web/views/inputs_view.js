// The input fields (the top form and section 6's traffic factor), their inline messages, the
// "last valid numbers" notes and the notices about a link's ignored values.
import { FIELDS } from '../state.js';
import { $, el } from './dom.js';

function fieldElement(name) {
  return document.querySelector(`#inputs [name="${name}"], #experiment-form [name="${name}"]`);
}

/** The field's name as its label says it ("square sizes", "peak (GFLOP/s)"). */
function fieldLabel(name) {
  const input = fieldElement(name);
  const label = input ? document.querySelector(`label[for="${input.id}"]`) : null;
  return label ? label.textContent.trim() : name;
}

/**
 * The summary under the inputs: how many fields are refused and which, each a button that moves
 * the focus to its field (the inline messages say why).
 */
function renderSummary(errors) {
  const fields = FIELDS.filter((f) => errors[f]);
  const summary = $('#input-error');
  if (!fields.length) {
    summary.replaceChildren();
    summary.hidden = true;
    return;
  }
  summary.hidden = false;
  const buttons = fields.map((f) => {
    const button = el('button', fieldLabel(f), 'link');
    button.type = 'button';
    button.dataset.input = f; // (not data-field: setField writes into those)
    button.setAttribute('aria-label', `${fieldLabel(f)}: ${errors[f]}`);
    button.addEventListener('click', () => fieldElement(f)?.focus());
    return button;
  });
  const parts = [`${fields.length === 1 ? 'One field needs' : `${fields.length} fields need`} fixing: `];
  buttons.forEach((b, i) => parts.push(...(i ? [i === buttons.length - 1 ? ' and ' : ', '] : []), b));
  parts.push('.');
  summary.replaceChildren(...parts);
}

/** Puts the state's typed text into the fields (only where it differs, to keep the caret). */
export function renderInputs(state) {
  const errors = { ...state.errors };
  if (state.error?.input && !errors[state.error.input]) errors[state.error.input] = state.error.message;
  for (const f of FIELDS) {
    const input = fieldElement(f);
    if (!input) continue;
    if (input.value !== state.inputs[f]) input.value = state.inputs[f];
    const message = errors[f] ?? '';
    input.setAttribute('aria-invalid', String(Boolean(message)));
    const slot = document.getElementById(`${f}-error`);
    if (slot) slot.textContent = message;
  }
  // Every refused field, counted and named next to the inputs (a refusal of no one field, such
  // as counts that overflow, is said there in full).
  if (state.error && !Object.keys(errors).length) {
    $('#input-error').hidden = false;
    $('#input-error').textContent = state.error.message;
  } else {
    renderSummary(errors);
  }
  for (const note of document.querySelectorAll('.stale-note')) note.hidden = !state.error;
  $('main').classList.toggle('stale', Boolean(state.error));
}

/** The notices about ignored parts of a link; `onDismiss` clears them from the state. */
export function renderNotices(state) {
  const box = $('#notices');
  box.hidden = state.notices.length === 0;
  $('#notice-list').replaceChildren(...state.notices.map((n) => el('li', n)));
}

/**
 * Calls onInput(field, text) for every edit in the fields, wherever they are on the page.
 */
export function bindInputs(onInput, onReset, onDismissNotices) {
  for (const form of [$('#inputs'), $('#experiment-form')]) {
    const handler = (event) => {
      const name = event.target.name;
      if (FIELDS.includes(name)) onInput(name, event.target.value);
    };
    form.addEventListener('input', handler);
    form.addEventListener('submit', (event) => event.preventDefault());
  }
  $('#reset').addEventListener('click', onReset);
  $('#dismiss-notices').addEventListener('click', onDismissNotices);
}
