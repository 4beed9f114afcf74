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
    verdicts[q.id] = text === '' || !checked
      ? { status: 'empty', message: 'No answer yet.' }
      : { status: checked.correct ? 'right' : 'wrong', message: checked.feedback };
  }
  const all = Object.values(verdicts);
  return { verdicts, allRight: all.every((v) => v.status === 'right'), attempted: all.some((v) => v.status !== 'empty') };
}

/**
 * Checks answers to the lesson's exercise under `params` (the lesson's inputs; the seed's when
 * left out) with one core call, as the page's Check does.
 * @returns {{ok: true, verdicts: object, allRight: boolean, attempted: boolean, exercise: object} | {ok: false, input: string, error: string}}
 */
export function checkLessonExercise(core, answers, params = {}) {
  const built = buildLesson(core, params, { answers });
  if (!built.ok) return built;
  return { ok: true, exercise: built.report.exercise, ...exerciseVerdicts(built.report.exercise, built.check, answers) };
}
