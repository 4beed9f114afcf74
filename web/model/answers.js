// Section 7's verdicts, as the page shows them: the lesson's report carries the exercise's
// questions (report.exercise.questions) and, built with answers, the core's checker gives its
// verdicts on them (buildLesson's `check`) — the same checker, questions and feedback as the
// generated exercises (cpp/exercises). This only says which answers were blank. No DOM.
import { buildLesson } from './lesson.js';

/**
 * The verdict on each question of report.exercise, in its order, for the answers as typed.
 * Verdict = {status: 'right'|'wrong'|'empty', message} (message: the core's feedback).
 * @param {{questions: {id: string}[]}} exercise  report.exercise
 * @param {Record<string, {correct: boolean, feedback: string}>} check  the core's verdicts by question id
 * @param {Record<string, string>} answers
 * @returns {{verdicts: Record<string, {status: string, message: string}>, allRight: boolean, attempted: boolean}}
 */
export function exerciseVerdicts(exercise, check, answers) {
  const verdicts = {};
  for (const q of exercise.questions) {
    const text = String(answers?.[q.id] ?? '').trim();
    const checked = check?.[q.id];
    verdicts[q.id] =
      text === '' || !checked
        ? { status: 'empty', message: 'No answer yet.' }
        : { status: checked.correct ? 'right' : 'wrong', message: checked.feedback };
  }
  const all = Object.values(verdicts);
  return {
    verdicts,
    allRight: all.every((v) => v.status === 'right'),
    attempted: all.some((v) => v.status !== 'empty'),
  };
}

/** How section 7 names its parts in messages. */
const PART_NAMES = { work: 'work', traffic: 'minimum traffic', ratio: 'ratio', bound: 'bound' };
const partName = (id) => PART_NAMES[id] ?? id;
const listed = (names) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/**
 * Whether section 7's reference solution opens by itself: once every part has been right at some
 * Check. Before that it opens only when asked for (its summary), as section 9's does: a wrong try
 * does not give the other parts away.
 * @param {{questions: {id: string}[]}} exercise  report.exercise
 * @param {string[]} solved  the question ids right at some Check
 */
export function solutionEarned(exercise, solved) {
  return exercise.questions.every((q) => solved.includes(q.id));
}

/**
 * The line under Check: what was checked and what happened to the reference solution, as it is.
 * @param {{questions: {id: string}[]}} exercise
 * @param {{verdicts: Record<string, {status: string}>, allRight: boolean}} result  exerciseVerdicts' value
 * @param {string[]} solved  the question ids right at some Check
 * @param {boolean} solutionOpen  whether the solution is open on the page now
 */
export function exerciseMessage(exercise, { verdicts, allRight }, solved, solutionOpen) {
  const ids = exercise.questions.map((q) => q.id);
  const blank = ids.filter((id) => verdicts[id]?.status === 'empty');
  const unsolved = ids.filter((id) => !solved.includes(id));
  const solution = solutionOpen
    ? 'The reference solution is open below.'
    : unsolved.length
      ? `The reference solution opens once every part is right (still to get right: ${listed(unsolved.map(partName))}), or when you open it below.`
      : 'The reference solution is closed below; open it to compare.';
  if (blank.length === ids.length) return `Every answer is blank: nothing was checked. ${solution}`;
  if (allRight) return `All ${ids.length === 4 ? 'four' : ids.length} answers are right.`;
  const right = ids.filter((id) => verdicts[id]?.status === 'right').length;
  const unanswered = blank.length ? ` (${listed(blank.map(partName))} not answered)` : '';
  return `${right} of ${ids.length} right${unanswered}. Change an answer and check again. ${solution}`;
}

/**
 * Checks answers to the lesson's exercise under `params` (the lesson's inputs; the seed's when
 * left out) with one core call, as the page's Check does.
 * @returns {{ok: true, verdicts: object, allRight: boolean, attempted: boolean, exercise: object} | {ok: false, input: string, error: string}}
 */
export function checkLessonExercise(core, answers, params = {}) {
  const built = buildLesson(core, params, { answers });
  if (!built.ok) return built;
  return {
    ok: true,
    exercise: built.report.exercise,
    ...exerciseVerdicts(built.report.exercise, built.check, answers),
  };
}
