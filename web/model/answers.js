// Section 7's fixed exercise as four questions for the core's checker (core.checkQuestion, the
// one that grades the generated exercises too): the expected values come from report.exercise,
// the likely mistakes from its shapes. No DOM; the core is passed in.

/** The ratio is accepted within this relative tolerance: 24/7, 3.4286 and 3.43 pass; 3.4 does not. */
export const RATIO_RELATIVE_TOLERANCE = 2e-3;

export const EXERCISE_ANSWERS = ['work', 'traffic', 'ratio', 'bound'];

/**
 * The four questions of report.exercise, in the shape core.checkQuestion takes.
 * @param {{a: number[], b: number[], itemsize: number, work: number, traffic: number, ratio: number,
 *          ratio_fraction: string, bound: 'memory-bound'|'compute-bound'|'balanced'}} exercise
 */
export function exerciseQuestions(exercise) {
  const [m, k] = exercise.a;
  const n = exercise.b[1];
  const s = exercise.itemsize;
  const elements = m * k + k * n + m * n;
  const mkn = m * k * n;
  return {
    work: {
      kind: 'number', unit: 'flops', value: exercise.work, exact: String(exercise.work), rel_tolerance: 0,
      mistakes: [
        { value: mkn, feedback: `You counted m·k·n = ${mkn}: each multiply-add is 2 flops, so the work is 2·m·k·n.` },
        { value: exercise.work + m * n, feedback: `You included tanh (m·n = ${m * n} more): the model counts the matmul's multiply-adds only.` },
        { value: mkn + m * n, feedback: 'That is m·k·n plus an elementwise op: count 2 flops per multiply-add and nothing for tanh.' },
      ],
      hints: ['Count 2·m·k·n flops, with a of shape (m, k) and b of shape (k, n).'],
    },
    traffic: {
      kind: 'number', unit: 'bytes', value: exercise.traffic, exact: String(exercise.traffic), rel_tolerance: 0,
      mistakes: [
        { value: elements, feedback: `That is the number of elements: bytes must use the itemsize, ${s} bytes per element.` },
        { value: s * (m * k + k * n), feedback: `You left out writing the result: it has m·n = ${m * n} elements, written once.` },
        { value: s * (elements + m * n), feedback: 'The minimum traffic writes the result once; it is not read.' },
      ],
      hints: ['minimum bytes = itemsize · (m·k + k·n + m·n): each input read once, the result written once.'],
    },
    ratio: {
      kind: 'number', unit: 'flops/byte', value: exercise.ratio, exact: exercise.ratio_fraction,
      rel_tolerance: RATIO_RELATIVE_TOLERANCE,
      mistakes: [
        { value: 1 / exercise.ratio, feedback: 'You divided bytes by flops: the ratio is flops per byte (work / traffic).' },
        { value: exercise.ratio / 2, feedback: 'That is half: the work is 2·m·k·n.' },
      ],
      hints: ['The ratio is work / traffic, in flops per byte.'],
    },
    bound: {
      kind: 'choice', exact: exercise.bound, choices: ['memory-bound', 'compute-bound'],
      hints: ['Compare bandwidth · ratio with the peak: below the peak, memory is the limit.'],
    },
  };
}

/**
 * Checks the typed answers with the core. A blank answer is not checked ('empty').
 * @param {object} core  from web/core.js
 * @param {{work?: string, traffic?: string, ratio?: string, bound?: 'memory'|'compute'|''}} answers  as typed
 * @returns {{work: Verdict, traffic: Verdict, ratio: Verdict, bound: Verdict, allRight: boolean, attempted: boolean}}
 *   Verdict = {status: 'right'|'wrong'|'empty', message: string} (message: the core's feedback)
 */
export function checkExercise(core, answers, exercise) {
  const questions = exerciseQuestions(exercise);
  const out = {};
  for (const key of EXERCISE_ANSWERS) {
    const text = String(answers[key] ?? '').trim();
    if (text === '') {
      out[key] = { status: 'empty', message: 'No answer yet.' };
      continue;
    }
    if (key === 'bound' && exercise.bound === 'balanced') {
      // Exactly on the ridge: either answer is accepted, if it reads as one of them.
      const either = ['memory-bound', 'compute-bound'].map((b) => core.checkQuestion({ ...questions.bound, exact: b }, text));
      const right = either.some((r) => r.ok && r.value.correct);
      out[key] = right
        ? { status: 'right', message: 'Accepted: the workload sits exactly on the ridge, so both budgets bind.' }
        : verdict(either[0]);
      continue;
    }
    out[key] = verdict(core.checkQuestion(questions[key], text));
  }
  const all = EXERCISE_ANSWERS.map((k) => out[k]);
  return { ...out, allRight: all.every((v) => v.status === 'right'), attempted: all.some((v) => v.status !== 'empty') };
}

function verdict(r) {
  if (!r.ok) return { status: 'wrong', message: r.error };  // a bug, not an answer: say it, never crash
  return { status: r.value.correct ? 'right' : 'wrong', message: r.value.feedback };
}
