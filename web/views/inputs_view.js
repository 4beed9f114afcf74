// The input fields (the top form and section 6's traffic factor), their inline messages, the
// "last valid numbers" notes and the notices about a link's ignored values.
import { FIELDS } from '../state.js';
import { $, el } from './dom.js';

function fieldElement(name) {
  return document.querySelector(`#inputs [name="${name}"], #experiment-form [name="${name}"]`);
}

/** Puts the state's typed text into the fields (only where it differs, to keep the caret). */
export function renderInputs(state) {
  for (const f of FIELDS) {
    const input = fieldElement(f);
    if (!input) continue;
    if (input.value !== state.inputs[f]) input.value = state.inputs[f];
    const message = state.errors[f] ?? (state.error?.input === f ? state.error.message : '');
    input.setAttribute('aria-invalid', String(Boolean(message)));
    const slot = document.getElementById(`${f}-error`);
    if (slot) slot.textContent = message;
  }
  // One live summary for screen readers (the inline messages are what people see).
  $('#input-error').textContent = state.error ? state.error.message : '';
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
