// Section 9's part of the page's state (state.classroom) and the pure functions that change it.
// No DOM, no storage: the view renders from this, main.js writes `progress` to localStorage (a
// view of the state) and the set's settings into the URL hash.
//
// state.classroom = {
//   families:  [{id, label}] from the core (core.exerciseFamilies): the one list of families;
//   settings:  {seed, count, families, student}: the set on show;
//   inLink:    whether the page's link carries the set (a link had it, or it was chosen here);
//   exercises: the set, from core.generateExercises (answers, hints and solutions included);
//   epoch:     counts new sets and resets: the cards are drawn afresh when it changes;
//   progress:  every set's saved progress (web/model/progress.js), what localStorage holds;
//   notices:   {link, storage, set}: what the page ignored or could not do, by cause;
//   formErrors: {seed?, count?, families?, student?}: the last Apply's refusals, by field;
//   said:      {"<index>:<questionId>": text}: a message that is not a verdict ("Type an answer first.");
//   confirmReset: whether "reset progress?" is being asked;  cleared: a reset just happened;
//   sheet:     whether the page shows the printable sheet.
// }
import {
  classroomHash,
  DEFAULT_SETTINGS,
  effectiveSeed,
  familiesArg,
  parseCount,
  parseSeed,
  parseStudent,
  sameSettings,
  setKey,
  settingsFromHash,
} from './model/classroom.js';
import { decodeHash } from './model/hash.js';
import {
  decodeProgress,
  emptyProgress,
  questionKey,
  recordAnswer,
  recordHint,
  recordSolution,
  resetSet,
  score,
  setProgress,
  withUnnamedId,
} from './model/progress.js';

/** The first state: the default set, not generated yet (applyClassroomLink or submitSettings does it). */
export function createClassroomState(core) {
  const families = core.exerciseFamilies();
  return {
    families: families.ok ? families.value.map((f) => ({ id: f.id, label: f.label })) : [],
    settings: { ...DEFAULT_SETTINGS, families: [] },
    inLink: false,
    exercises: [],
    epoch: 0,
    progress: emptyProgress(),
    notices: {
      link: [],
      storage: families.ok ? [] : [`The exercise families could not be read: ${families.error}`],
      set: [],
    },
    formErrors: {},
    said: {},
    confirmReset: false,
    cleared: false,
    sheet: false,
  };
}

export const familyIds = (c) => c.families.map((f) => f.id);

/** The saved part of the set on show. */
export const savedSet = (c) => setProgress(c.progress, setKey(c.settings), c.settings);

/** Generates the set for the settings (one core call); the cards start afresh. */
function show(core, c) {
  const r = core.generateExercises(effectiveSeed(c.settings), c.settings.count, familiesArg(c.settings));
  return {
    ...c,
    exercises: r.ok ? r.value : [],
    notices: { ...c.notices, set: r.ok ? [] : [`These exercises could not be generated: ${r.error}`] },
    epoch: c.epoch + 1,
    said: {},
    formErrors: {},
  };
}

/**
 * What localStorage held at start: {ok: true, text} (text null when nothing is saved) or
 * {ok: false, error} when the browser refuses storage. A corrupt value is ignored with a notice.
 */
export function loadProgress(c, stored) {
  if (!stored.ok) {
    return {
      ...c,
      progress: emptyProgress(),
      notices: {
        ...c.notices,
        storage: [
          ...c.notices.storage,
          `Progress cannot be saved in this browser (${stored.error}); answers are checked but forgotten on reload.`,
        ],
      },
    };
  }
  const decoded = decodeProgress(stored.text);
  return {
    ...c,
    progress: decoded.progress,
    notices: { ...c.notices, storage: decoded.notice ? [...c.notices.storage, decoded.notice] : c.notices.storage },
  };
}

const SAVE_FAILED = 'Your progress could not be saved in this browser';

/** The result of writing `progress` to localStorage: a failure is said until a write succeeds. */
export function storageResult(c, result) {
  const storage = c.notices.storage.filter((n) => !n.startsWith(SAVE_FAILED));
  if (!result.ok) storage.push(`${SAVE_FAILED} (${result.error}); export your results to keep them.`);
  const same = storage.length === c.notices.storage.length && storage.every((n, i) => n === c.notices.storage[i]);
  return same ? c : { ...c, notices: { ...c.notices, storage } };
}

/**
 * Applies the classroom part of a URL hash. With none, the set on show stays (and leaves the
 * link); a bad value is ignored with a notice, its default kept.
 */
export function applyClassroomLink(core, c, hash) {
  // `#gradebook` alone opens the gradebook (web/gradebook_state.js) and names no set.
  const raw = decodeHash(hash).classroom;
  const own = raw && Object.keys(raw).some((k) => k !== 'gradebook') ? raw : null;
  const { settings: linked, notices } = settingsFromHash(own, familyIds(c));
  let next = { ...c, notices: { ...c.notices, link: notices } };
  if (!linked) {
    next = { ...next, inLink: false };
    return next.exercises.length ? next : show(core, next);
  }
  next = { ...next, inLink: true };
  if (!sameSettings(linked, next.settings) || !next.exercises.length) next = show(core, { ...next, settings: linked });
  return next;
}

/**
 * The settings form applied: {seed, count, student} as typed and `checked`, the family ids ticked.
 * A refused field is named in formErrors and nothing else changes.
 */
export function submitSettings(core, c, form) {
  const errors = {};
  const next = { families: [] };
  for (const [field, parse] of [
    ['seed', parseSeed],
    ['count', parseCount],
    ['student', parseStudent],
  ]) {
    const r = parse(form[field]);
    if (r.ok) next[field] = r.value;
    else errors[field] = r.error;
  }
  const checked = form.checked.filter((f) => familyIds(c).includes(f));
  if (checked.length === 0) errors.families = 'pick at least one family';
  const same = checked.length === c.settings.families.length && checked.every((f) => c.settings.families.includes(f));
  // The same families keep their order (a link's order picks the exercises); all: the shortest link.
  next.families = same ? [...c.settings.families] : checked.length === c.families.length ? [] : checked;
  if (Object.keys(errors).length) return { ...c, formErrors: errors };
  const changed = !sameSettings(next, c.settings);
  const applied = {
    ...c,
    settings: next,
    inLink: true,
    notices: { ...c.notices, link: [] },
    formErrors: {},
    cleared: false,
  };
  return changed ? show(core, applied) : applied;
}

/** Checks one answer with the core (the exercise is generated again from the seed there). */
export function checkClassroomAnswer(core, c, index, questionId, text, now) {
  const key = questionKey(index, questionId);
  const said = { ...c.said };
  if (String(text).trim() === '') return { ...c, said: { ...said, [key]: 'Type an answer first.' }, cleared: false };
  const s = c.settings;
  const r = core.checkAnswer(effectiveSeed(s), s.count, familiesArg(s), index, questionId, String(text));
  if (!r.ok) return { ...c, said: { ...said, [key]: r.error }, cleared: false };
  delete said[key];
  return {
    ...c,
    said,
    cleared: false,
    progress: recordAnswer(c.progress, setKey(s), s, index, questionId, String(text), r.value, now),
  };
}

/** One more hint shown for a question. */
export function showClassroomHint(c, index, questionId, now) {
  const q = c.exercises[index]?.questions.find((x) => x.id === questionId);
  if (!q) return c;
  return {
    ...c,
    cleared: false,
    progress: recordHint(c.progress, setKey(c.settings), c.settings, index, questionId, q.hints.length, now),
  };
}

/** The solution of exercise `index` opened on request. */
export function showClassroomSolution(c, index, now) {
  return { ...c, cleared: false, progress: recordSolution(c.progress, setKey(c.settings), c.settings, index, now) };
}

/**
 * Before an export without a student's name: the set gets the id its unnamed exports carry (`id`,
 * random, from the view), once; with a name, nothing changes.
 */
export function nameUnnamedExport(c, id) {
  const progress = withUnnamedId(c.progress, setKey(c.settings), c.settings, id);
  return progress === c.progress ? c : { ...c, progress };
}

/** Whether "reset this set's progress?" is being asked. */
export function askClassroomReset(c, on) {
  return { ...c, confirmReset: Boolean(on) };
}

/** Forgets the set's progress: fresh cards, empty answers. */
export function resetClassroomSet(c) {
  return {
    ...c,
    progress: resetSet(c.progress, setKey(c.settings)),
    confirmReset: false,
    cleared: true,
    said: {},
    epoch: c.epoch + 1,
  };
}

export function setClassroomSheet(c, on) {
  return { ...c, sheet: Boolean(on) };
}

/** The notices about the link and storage, dismissed. */
export function dismissClassroomNotices(c) {
  return { ...c, notices: { ...c.notices, link: [], storage: [] } };
}

/** The set on show as Moodle XML (one core call): {ok, value: text} or {ok: false, error}. */
export const classroomMoodle = (core, c) =>
  core.moodleXml(effectiveSeed(c.settings), c.settings.count, familiesArg(c.settings));

/** The classroom part of the page's link ('' when the link does not carry the set). */
export const classroomHashPart = (c) => (c.inLink ? classroomHash(c.settings) : '');

/** {right, answered, total} over the set on show. */
export const classroomScore = (c) => score(savedSet(c), c.exercises);

/** For window.rooflineLab.classroom(). */
export function classroomSnapshot(c) {
  return {
    settings: { ...c.settings, families: [...c.settings.families] },
    seed_used: effectiveSeed(c.settings),
    exercises: c.exercises.map((e) => ({ index: e.index, family: e.family, title: e.title, statement: e.statement })),
    score: classroomScore(c),
  };
}
