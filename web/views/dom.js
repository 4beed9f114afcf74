// Small DOM helpers shared by the views. Text always goes in with textContent.

export const $ = (selector, root = document) => root.querySelector(selector);

/** Sets the text of every element marked data-field="name". */
export function setField(name, text) {
  for (const el of document.querySelectorAll(`[data-field="${name}"]`)) el.textContent = text;
}

/** An element with text. */
export function el(tag, text = '', className = '') {
  const e = document.createElement(tag);
  if (text !== '') e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** Replaces a tbody's rows; each row is a list of cell texts (or [text, className] pairs). */
export function fillRows(tbody, rows) {
  tbody.replaceChildren(
    ...rows.map((cells) => {
      const tr = document.createElement('tr');
      for (const cell of cells) {
        const [text, className] = Array.isArray(cell) ? cell : [cell, ''];
        tr.append(el('td', String(text), className));
      }
      return tr;
    }),
  );
}

/** Saves `href` under `filename` (a blob: or data: URL made here: no network). */
export function download(filename, href) {
  const a = el('a');
  a.href = href;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Saves text as a file through a blob: URL. The browser may read the blob after the click
 * returns, in its own time, so the URL is revoked only after BLOB_URL_LIFE_MS (a minute, as
 * FileSaver.js waits about as long), not one second after as before.
 */
export const BLOB_URL_LIFE_MS = 60_000;
export function downloadText(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  download(filename, url);
  setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFE_MS);
}

/**
 * A Start / Cancel pair: `set(running)` enables one and disables the other, and `others` (inputs
 * that must not change mid-run) with Start. Focus never falls to <body> when the button holding it
 * is disabled: Start hands it to Cancel, the run's end hands it back to Start — unless the reader has
 * moved it elsewhere meanwhile. Returns whether focus was ours to move (the caller may then move it
 * on, to the results).
 */
export function startStopSwitch(start, stop, others = []) {
  const focusIsOurs = () => [start, stop, document.body, null].includes(document.activeElement);
  return (running) => {
    const moveFocus = focusIsOurs();
    // The button about to get focus is enabled first, so focus never lands on a disabled one.
    if (running) stop.disabled = false;
    else start.disabled = false;
    if (moveFocus) (running ? stop : start).focus();
    start.disabled = running;
    stop.disabled = !running;
    for (const input of others) input.disabled = running;
    return moveFocus;
  };
}
