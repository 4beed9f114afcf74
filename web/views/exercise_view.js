// Section 7: the exercise. The student's answers are checked by the core's checker
// (core.checkQuestion, the one section 9 uses), with the questions web/model/answers.js builds
// from report.exercise; the reference solution opens after a first attempt, or on request.
import { checkExercise, EXERCISE_ANSWERS as ANSWERS, RATIO_RELATIVE_TOLERANCE } from '../model/answers.js';
import { short } from '../model/format.js';
import { $, setField } from './dom.js';

/**
 * @param {() => object} getState
 * @param {object} core  from web/core.js
 */
export function bindExerciseView(getState, core) {
  const form = $('#exercise-form');
  let attempted = false;

  const read = () => ({
    work: form.elements.work.value,
    traffic: form.elements.traffic.value,
    ratio: form.elements.ratio.value,
    bound: form.querySelector('input[name="bound"]:checked')?.value ?? '',
  });

  function check() {
    const exercise = getState().report?.exercise;
    if (!exercise) return null;
    const result = checkExercise(core, read(), exercise);
    for (const key of ANSWERS) {
      const slot = $(`#${key}-feedback`);
      slot.textContent = result[key].message;
      slot.className = `feedback ${result[key].status}`;
      const input = key === 'bound' ? null : form.elements[key];
      input?.setAttribute('aria-invalid', String(result[key].status === 'wrong'));
    }
    const right = ANSWERS.filter((k) => result[k].status === 'right').length;
    $('#exercise-result').textContent = result.allRight
      ? 'All four answers are right.'
      : `${right} of 4 right. Change an answer and check again; the reference solution is open below.`;
    return result;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const result = check();
    if (result && result.attempted && !attempted) {
      attempted = true;
      const solution = $('#solution');
      solution.open = true;
      solution.querySelector('summary').textContent = 'Reference solution';
    }
  });

  /** Redraws the question and the solution; re-checks a made attempt (the budgets may have moved). */
  function render(state) {
    const r = state.report;
    if (!r) return;
    const ex = r.exercise;
    setField('exercise_shapes', `(${ex.a.join(',')}) and (${ex.b.join(',')})`);
    setField('exercise_itemsize', String(ex.itemsize));
    $('#ratio-tolerance').textContent =
      `The ratio may be a fraction or a decimal: it is accepted within a relative ${RATIO_RELATIVE_TOLERANCE} ` +
      `(${RATIO_RELATIVE_TOLERANCE * 100}%) of work / traffic. Work and traffic must be exact integers.`;
    $('#exercise-solution').textContent =
      `work = 2·${ex.a[0]}·${ex.a[1]}·${ex.b[1]} = ${ex.work} flops; traffic = ${ex.itemsize}·(${ex.a[0]}·${ex.a[1]} + ` +
      `${ex.b[0]}·${ex.b[1]} + ${ex.a[0]}·${ex.b[1]}) = ${ex.traffic} bytes; ratio = ${ex.ratio_fraction} ≈ ` +
      `${short(ex.ratio)} flops/byte; bandwidth · ratio ≈ ${short(ex.bandwidth_times_ratio_gflops)} GFLOP/s against a ` +
      `peak of ${short(r.budgets.peak)}: ${ex.bound}.`;
    if (attempted) check();
  }
  return { render, check: () => check() };
}
