// Work written once as a generator that yields between its pieces, run either at once
// (runSteps: Node, small programs, tests) or in slices across tasks (sliced: the page), so a
// big program's derivation never holds the main thread for long. No DOM here.

/**
 * Main-thread time a slice may take before it hands the thread back (a task over 50 ms is a long
 * task; on a loaded 2-core machine everything takes 3–4 times as long, garbage collection too).
 */
export const SLICE_MS = 12;

/** Runs every step of `steps` (a generator) now; its return value. */
export function runSteps(steps) {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs `steps` in slices of about SLICE_MS, each slice its own task (setTimeout 0), and calls
 * onDone(value) when it returns, or onError(e) when it throws. Stops, calling nothing, once
 * alive() is false (a newer request replaced it). The first slice runs in a later task too.
 * @param {Generator} steps
 * @param {() => boolean} alive
 * @param {(value: any) => void} onDone
 * @param {(e: Error) => void} onError
 * @param {(f: () => void) => void} [later]  how a slice is put off (default: setTimeout 0)
 */
export function sliced(steps, alive, onDone, onError, later = (f) => setTimeout(f, 0)) {
  const slice = () => {
    if (!alive()) return;
    const t0 = performance.now();
    try {
      for (;;) {
        const r = steps.next();
        if (r.done) {
          onDone(r.value);
          return;
        }
        if (performance.now() - t0 >= SLICE_MS) break;
      }
    } catch (e) {
      onError(e);
      return;
    }
    later(slice);
  };
  later(slice);
}

/** Rows a loop handles between two yields of a stepped derivation. */
export const STEP_ROWS = 2000;
