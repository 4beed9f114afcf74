// Section 7: the exercise. Check puts the answers in the state (state.exercise); the lesson's
// report then carries the core's verdicts on them (the generated exercises' checker, questions and
// feedback), re-checked when the budgets move. The reference solution opens on request (its
// summary), or by itself once every part has been right at a Check (web/model/answers.js:
// solutionEarned).
// Renders from the state only.
import { exerciseMessage, exerciseVerdicts, solutionEarned } from '../model/answers.js';
import { short } from '../model/format.js';
import { $, setField } from './dom.js';

/**
 * @param {(answers: {work: string, traffic: string, ratio: string, bound: string}) => void} onCheck
 */
export function bindExerciseView(onCheck) {
  const form = $('#exercise-form');
  const solution = $('#solution');
  let last = null; // the state last drawn: the message follows the solution opened or closed by hand

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onCheck({
      work: form.elements.work.value,
      traffic: form.elements.traffic.value,
      ratio: form.elements.ratio.value,
      bound: form.querySelector('input[name="bound"]:checked')?.value ?? '',
    });
  });

  function renderVerdicts(ex, { check, answers, solved }) {
    const result = exerciseVerdicts(ex, check, answers);
    const { verdicts } = result;
    for (const [key, v] of Object.entries(verdicts)) {
      const slot = $(`#${key}-feedback`);
      slot.textContent = v.message;
      slot.className = `feedback ${v.status}`;
      if (key !== 'bound') form.elements[key]?.setAttribute('aria-invalid', String(v.status === 'wrong'));
    }
    $('#exercise-result').textContent = exerciseMessage(ex, result, solved ?? [], solution.open);
  }

  /** Redraws the question, the solution and the verdicts on the last checked answers. */
  function render(state) {
    last = state;
    const r = state.report;
    if (!r) return;
    const ex = r.exercise;
    setField('exercise_shapes', `(${ex.a.join(',')}) and (${ex.b.join(',')})`);
    setField('exercise_itemsize', String(ex.itemsize));
    const tolerance = ex.questions.find((q) => q.id === 'ratio').rel_tolerance;
    $('#ratio-tolerance').textContent =
      `The ratio may be a fraction or a decimal: it is accepted within a relative ${tolerance} ` +
      `(${tolerance * 100}%) of work / traffic. Work and traffic must be exact integers.`;
    $('#exercise-solution').textContent =
      `work = 2·${ex.a[0]}·${ex.a[1]}·${ex.b[1]} = ${ex.work} flops; traffic = ${ex.itemsize}·(${ex.a[0]}·${ex.a[1]} + ` +
      `${ex.b[0]}·${ex.b[1]} + ${ex.a[0]}·${ex.b[1]}) = ${ex.traffic} bytes; ratio = ${ex.ratio_fraction} ≈ ` +
      `${short(ex.ratio)} flops/byte; bandwidth · ratio ≈ ${short(ex.bandwidth_times_ratio_gflops)} GFLOP/s against a ` +
      `peak of ${short(r.budgets.peak)}: ${ex.bound}.`;
    if (!state.exercise.checked) return;
    if (solutionEarned(ex, state.exercise.solved ?? []) && !solution.dataset.opened) {
      solution.dataset.opened = 'yes'; // opened once, when every part was right; the reader may close it
      solution.open = true;
      solution.querySelector('summary').textContent = 'Reference solution';
    }
    renderVerdicts(ex, state.exercise);
  }
  solution.addEventListener('toggle', () => {
    if (last?.report && last.exercise.checked) renderVerdicts(last.report.exercise, last.exercise);
  });
  return { render };
}
