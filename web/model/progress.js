// A student's progress on generated exercises: what is saved in the browser (localStorage), read
// back defensively, and exported as CSV or JSON. Pure: no DOM, no storage, no core; the view
// reads and writes the text.
//
// Saved value (one localStorage key, PROGRESS_KEY):
//   {version: 1, sets: {[setKey]: {seed, count, families, student,
//      questions: {"<index>:<questionId>": {answer, correct, feedback, attempts, hints,
//                                           history, right_at, last_correct}},
//      solutions: [index, …],   // solutions opened (on request, or unfolded after an attempt)
//      updated,                 // ISO time of the last change
//      unnamed_id?}}}           // with no student name: the id this browser's exports carry, so
//                               // that two unnamed students' files differ (made at the first export)
// Per question: `answer`, `feedback` and `last_correct` are the latest attempt's; `correct` is
// the first right verdict, kept (a later wrong answer does not undo it), and `right_at` the
// attempt it came at (0: none); `history` is every attempt, [{answer, at, correct}] (the first
// MAX_HISTORY). history, right_at and last_correct came after version 1's first release: a saved
// value without them is still version 1 and read as it is.
// A value that is not this (corrupt JSON, another app's, another version) is ignored whole,
// with a notice: the page starts afresh and never trusts it.
//
// The exports: resultsCSV (for people) and resultsJSON, the result file the teacher's gradebook
// regrades (cpp/exercises/gradebook.h reads it; RESULTS_VERSION is the version it reads).

export const PROGRESS_KEY = 'rooflineLab.classroom.v1';
export const PROGRESS_VERSION = 1;

/** Longest saved answer or feedback kept (a text field is not a place for essays). */
const MAX_TEXT = 500;
/** Attempts kept in a question's history (later ones are counted, not kept). */
export const MAX_HISTORY = 200;
/** The result file's format (resultsJSON). */
export const RESULTS_KIND = 'roofline-lab classroom results';
export const RESULTS_VERSION = 2;

export function emptyProgress() {
  return { version: PROGRESS_VERSION, sets: {} };
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v) => Number.isInteger(v) && v >= 0 && v <= 1e6;

const validAttempt = (a) =>
  isObject(a) &&
  typeof a.answer === 'string' &&
  a.answer.length <= MAX_TEXT &&
  typeof a.at === 'string' &&
  a.at.length <= 40 &&
  typeof a.correct === 'boolean';

function validQuestion(q) {
  return (
    isObject(q) &&
    typeof q.answer === 'string' &&
    q.answer.length <= MAX_TEXT &&
    (q.correct === true || q.correct === false || q.correct === null) &&
    typeof q.feedback === 'string' &&
    q.feedback.length <= MAX_TEXT &&
    isCount(q.attempts) &&
    isCount(q.hints) &&
    (q.history === undefined ||
      (Array.isArray(q.history) && q.history.length <= MAX_HISTORY && q.history.every(validAttempt))) &&
    (q.right_at === undefined || isCount(q.right_at)) &&
    (q.last_correct === undefined || q.last_correct === null || typeof q.last_correct === 'boolean')
  );
}

function validSet(s) {
  return (
    isObject(s) &&
    typeof s.seed === 'string' &&
    Number.isInteger(s.count) &&
    Array.isArray(s.families) &&
    s.families.every((f) => typeof f === 'string') &&
    typeof s.student === 'string' &&
    isObject(s.questions) &&
    Object.entries(s.questions).every(([k, q]) => /^\d+:[a-z_]+$/.test(k) && validQuestion(q)) &&
    Array.isArray(s.solutions) &&
    s.solutions.every(isCount) &&
    typeof s.updated === 'string' &&
    (s.unnamed_id === undefined || (typeof s.unnamed_id === 'string' && UNNAMED_ID.test(s.unnamed_id)))
  );
}

/** An unnamed export's id: a few lowercase letters and digits (made from random bits by the view). */
export const UNNAMED_ID = /^[a-z0-9]{4,12}$/;

/**
 * Reads what localStorage holds (a string, or null when nothing is saved). Never throws.
 * @returns {{progress: object, notice: string|null}}  notice says why a saved value was ignored
 */
export function decodeProgress(text) {
  if (text === null || text === undefined) return { progress: emptyProgress(), notice: null };
  const ignored = (why) => ({
    progress: emptyProgress(),
    notice: `The progress saved in this browser was ignored (${why}); the exercises start afresh, and your next answer replaces it.`,
  });
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return ignored('it is not valid JSON');
  }
  if (!isObject(value) || !Object.hasOwn(value, 'version')) return ignored('it is not Roofline Lab classroom progress');
  if (value.version !== PROGRESS_VERSION)
    return ignored(`it is version ${JSON.stringify(value.version)}, this page reads version ${PROGRESS_VERSION}`);
  if (!isObject(value.sets)) return ignored('it has no sets');
  for (const [key, set] of Object.entries(value.sets)) {
    if (!validSet(set)) return ignored(`its entry ${JSON.stringify(key.slice(0, 60))} is malformed`);
  }
  // Rebuilt from known fields only: nothing else from storage reaches the page.
  const sets = {};
  for (const [key, s] of Object.entries(value.sets)) {
    const questions = {};
    for (const [k, q] of Object.entries(s.questions)) {
      questions[k] = {
        answer: q.answer,
        correct: q.correct,
        feedback: q.feedback,
        attempts: q.attempts,
        hints: q.hints,
        history: (q.history ?? []).map((a) => ({ answer: a.answer, at: a.at, correct: a.correct })),
        right_at: q.right_at ?? 0,
        last_correct: q.last_correct ?? q.correct,
      };
    }
    sets[key] = {
      seed: s.seed,
      count: s.count,
      families: [...s.families],
      student: s.student,
      questions,
      solutions: [...s.solutions],
      updated: s.updated,
      ...(s.unnamed_id ? { unnamed_id: s.unnamed_id } : {}),
    };
  }
  return { progress: { version: PROGRESS_VERSION, sets }, notice: null };
}

export function encodeProgress(progress) {
  return JSON.stringify(progress);
}

/** The saved part of one set (an empty one if there is none yet). */
export function setProgress(progress, key, settings) {
  return (
    progress.sets[key] ?? {
      seed: settings.seed,
      count: settings.count,
      families: [...settings.families],
      student: settings.student,
      questions: {},
      solutions: [],
      updated: '',
    }
  );
}

/**
 * The set's progress with the id its unnamed exports carry: kept if it has one, else `id`. A
 * student with a name needs none (the name tells them apart).
 */
export function withUnnamedId(progress, key, settings, id) {
  const set = setProgress(progress, key, settings);
  if (settings.student !== '' || set.unnamed_id || !UNNAMED_ID.test(id)) return progress;
  return { ...progress, sets: { ...progress.sets, [key]: { ...set, unnamed_id: id } } };
}

export const questionKey = (index, questionId) => `${index}:${questionId}`;

/**
 * The saved state of one question: {answer, correct (null before a check; the first right verdict
 * is kept), feedback, attempts, hints, history, right_at, last_correct}.
 */
export function questionProgress(set, index, questionId) {
  return (
    set.questions[questionKey(index, questionId)] ?? {
      answer: '',
      correct: null,
      feedback: '',
      attempts: 0,
      hints: 0,
      history: [],
      right_at: 0,
      last_correct: null,
    }
  );
}

function withQuestion(progress, key, settings, index, questionId, change, now) {
  const set = setProgress(progress, key, settings);
  const q = questionProgress(set, index, questionId);
  const questions = { ...set.questions, [questionKey(index, questionId)]: { ...q, ...change(q) } };
  return { ...progress, sets: { ...progress.sets, [key]: { ...set, questions, updated: now } } };
}

const clip = (text) => String(text).slice(0, MAX_TEXT);

/**
 * A checked answer: stores it with the core's verdict, counts the attempt and adds it to the
 * history. A right verdict, once given, stays: a later wrong answer is shown and kept in the
 * history, but does not undo it.
 */
export function recordAnswer(progress, key, settings, index, questionId, answer, verdict, now) {
  return withQuestion(
    progress,
    key,
    settings,
    index,
    questionId,
    (q) => {
      const attempts = q.attempts + 1;
      const right = Boolean(verdict.correct);
      const history = q.history ?? [];
      return {
        answer: clip(answer),
        correct: q.correct === true || right,
        feedback: clip(verdict.feedback),
        attempts,
        right_at: q.right_at || (right ? attempts : 0),
        last_correct: right,
        history:
          history.length < MAX_HISTORY ? [...history, { answer: clip(answer), at: now, correct: right }] : history,
      };
    },
    now,
  );
}

/** One more hint shown for a question (at most `available`). */
export function recordHint(progress, key, settings, index, questionId, available, now) {
  return withQuestion(
    progress,
    key,
    settings,
    index,
    questionId,
    (q) => ({ hints: Math.min(q.hints + 1, available) }),
    now,
  );
}

/** The solution of exercise `index` opened (on request, or unfolded after an attempt). */
export function recordSolution(progress, key, settings, index, now) {
  const set = setProgress(progress, key, settings);
  if (set.solutions.includes(index)) return progress;
  return {
    ...progress,
    sets: {
      ...progress.sets,
      [key]: { ...set, solutions: [...set.solutions, index].sort((a, b) => a - b), updated: now },
    },
  };
}

/** Whether exercise `index` has had a checked answer (its solution may then be shown). */
export function attempted(set, exercise) {
  return exercise.questions.some((q) => questionProgress(set, exercise.index, q.id).attempts > 0);
}

/** Forgets one set's progress. */
export function resetSet(progress, key) {
  const sets = { ...progress.sets };
  delete sets[key];
  return { ...progress, sets };
}

/** {right, answered, total} over a set's questions. */
export function score(set, exercises) {
  let right = 0;
  let answered = 0;
  let total = 0;
  for (const e of exercises) {
    for (const q of e.questions) {
      total++;
      const p = questionProgress(set, e.index, q.id);
      if (p.attempts > 0) answered++;
      if (p.correct === true) right++;
    }
  }
  return { right, answered, total };
}

/**
 * One row per question, for the exports: the latest answer and its feedback, whether it was ever
 * right (and at which attempt), the attempts, hints and whether the solution was opened.
 */
export function resultRows(set, exercises) {
  const rows = [];
  for (const e of exercises) {
    for (const q of e.questions) {
      const p = questionProgress(set, e.index, q.id);
      rows.push({
        exercise: e.index + 1,
        family: e.family,
        title: e.title,
        question: q.id,
        prompt: q.prompt,
        answer: p.answer,
        correct: p.attempts ? p.correct === true : null,
        right_at: p.right_at || null,
        attempts: p.attempts,
        hints_used: p.hints,
        solution_shown: set.solutions.includes(e.index),
        feedback: p.feedback,
        history: (p.history ?? []).map((a) => ({ ...a })),
      });
    }
  }
  return rows;
}

// `correct` is the question's verdict (a right answer, once given, stays); `right_answer` is the
// answer that earned it, `last_answer` and `last_feedback` the latest attempt's, right or not.
const CSV_COLUMNS = [
  'seed',
  'student',
  'count',
  'families',
  'exercise',
  'family',
  'title',
  'question',
  'prompt',
  'correct',
  'right_answer',
  'right_at_attempt',
  'attempts',
  'last_answer',
  'last_feedback',
  'hints_used',
  'solution_shown',
];

/** One CSV cell (RFC 4180 quoting; text a spreadsheet would run as a formula is prefixed with '). */
export function csvCell(value) {
  let t =
    value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  if (/^[=+@\t\r]/.test(t) || /^-[^\d.]/.test(t)) t = `'${t}`;
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** The results as CSV text: a header, then one line per question (CRLF line ends). */
export function resultsCSV(settings, set, exercises) {
  const meta = {
    seed: settings.seed,
    student: settings.student,
    count: settings.count,
    families: settings.families.join(' ') || 'all',
  };
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of resultRows(set, exercises)) {
    const cells = {
      ...row,
      right_at_attempt: row.right_at,
      // The history keeps the first MAX_HISTORY attempts (a save from before it keeps none).
      right_answer: row.correct ? (row.history[row.right_at - 1]?.answer ?? '(not kept)') : '',
      last_answer: row.answer,
      last_feedback: row.feedback,
    };
    lines.push(CSV_COLUMNS.map((c) => csvCell(c in meta ? meta[c] : cells[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The result file: one JSON object with the set's parameters, the student's name and every
 * question's attempts (what was typed, when), hints and whether its solution was opened — what
 * the teacher's gradebook regrades. Without a name it carries the set's `unnamed_id` (withUnnamedId),
 * which tells two unnamed students apart. `correct`, `right_at`, `feedback` and `score` are this page's
 * verdicts, for people: the gradebook does not read them.
 */
export function resultsJSON(settings, set, exercises, seedUsed, now) {
  return {
    kind: RESULTS_KIND,
    version: RESULTS_VERSION,
    exported: now,
    seed: settings.seed,
    student: settings.student,
    ...(settings.student === '' && set.unnamed_id ? { unnamed_id: set.unnamed_id } : {}),
    seed_used: seedUsed,
    count: settings.count,
    families: settings.families.length ? [...settings.families] : 'all',
    score: score(set, exercises),
    questions: resultRows(set, exercises).map(({ solution_shown: opened, ...row }) => ({
      ...row,
      solution_opened: opened,
    })),
  };
}
