// The teacher's gradebook's part of the page's state (state.gradebook) and the pure functions that
// change it. No DOM: web/views/gradebook_view.js draws it. The grading is the core's
// (core.gradebook, cpp/exercises/gradebook.h): one call per action (a drop of many files, a
// clear, a new set), which regrades every file held from its text.
//
// state.gradebook = {
//   open:  whether the gradebook is on show instead of the lesson (a #gradebook link, or section 9's button);
//   set:   the set it grades against, {seed, count, families} (families [] = all), or null: the set
//          most files belong to;
//   files: [{name, text, size}]: the result files dropped or opened so far, read in this page
//          (nothing leaves the browser); a file of the same name as one held replaces it;
//   table: the core's class table for them (GradebookTable in web/roofline-lab.d.ts), or null;
//   error: the core's refusal of the whole request (a set it cannot make), or null;
//   notices: what the link's set part said that could not be read (`ignored count="abc" in the link:
//          count must be …`): shown in the gradebook, which then grades the files' own set rather
//          than a set made up of the link's readable keys and defaults;
//   sort:  {key, dir}: 'student', 'right', 'tried', 'attempts', 'hints', 'solutions' or 'q<i>' (a question's column).
// }
import { classroomHash, familiesArg, isSetNotice } from './model/classroom.js';
import { decodeHash } from './model/hash.js';

export function createGradebookState() {
  return {
    open: false,
    set: null,
    files: [],
    table: null,
    error: null,
    notices: [],
    sort: { key: 'student', dir: 'asc' },
  };
}

/** The set as core.gradebook takes it. */
const setArg = (set) => (set ? { seed: set.seed, count: set.count, families: familiesArg(set) } : undefined);

/** Every file held, graded again against the set (one core call); no files: no table. */
function regraded(core, g) {
  if (!g.files.length) return { ...g, table: null, error: null };
  const r = core.gradebook(g.files, setArg(g.set));
  return r.ok ? { ...g, table: r.value, error: null } : { ...g, table: null, error: r.error };
}

const sameSet = (a, b) =>
  (a === null && b === null) ||
  (Boolean(a && b) && a.seed === b.seed && a.count === b.count && a.families.join(',') === b.families.join(','));

/**
 * Opens the gradebook for `set` ({seed, count, families}: section 9's set, without a student), or
 * for the files' own set (null). Files held are graded again when the set changes.
 */
export function openGradebook(core, g, set, notices = []) {
  const next = {
    ...g,
    open: true,
    notices: [...notices],
    set: set ? { seed: set.seed, count: set.count, families: [...set.families] } : null,
  };
  return sameSet(g.set, next.set) && (g.table || !g.files.length) ? next : regraded(core, next);
}

export function closeGradebook(g) {
  return { ...g, open: false, notices: [] };
}

/** Files dropped or opened ([{name, text, size}]): added to those held (a same name replaces), all graded again. */
export function addGradebookFiles(core, g, files) {
  const added = files.map((f) => ({
    name: String(f.name),
    text: String(f.text),
    ...(Number.isFinite(f.size) ? { size: f.size } : {}),
  }));
  const kept = g.files.filter((f) => !added.some((a) => a.name === f.name));
  return regraded(core, { ...g, files: [...kept, ...added] });
}

export function clearGradebook(g) {
  return { ...g, files: [], table: null, error: null };
}

/** Sorts by a column; the same column again turns the order round. */
export function setGradebookSort(g, key) {
  const dir = g.sort.key === key ? (g.sort.dir === 'asc' ? 'desc' : 'asc') : key === 'student' ? 'asc' : 'desc';
  return { ...g, sort: { key, dir } };
}

/** What the gradebook does when its link's set cannot be read whole. */
export const LINK_SET_IGNORED = "The link's set is not used: the gradebook grades the set most of the files belong to.";

/**
 * A link's gradebook part: `#gradebook` opens it (for the files' own set), with the classroom's
 * keys it grades that set: `#gradebook&seed=week3&count=6&families=bound,fusion`. `settings` are
 * section 9's settings read from the same link, and `linkNotices` what it could not read of them
 * (settingsFromHash's notices). A set key that cannot be read leaves the set to the files, with
 * the notices in the gradebook: a default in its place would refuse every real file as
 * "another set". Without `gradebook` in the link it closes.
 */
export function applyGradebookLink(core, g, hash, settings, linkNotices = []) {
  const raw = decodeHash(hash).classroom;
  if (!raw || !Object.hasOwn(raw, 'gradebook')) return g.open ? closeGradebook(g) : g;
  // Only a set key read wrong leaves the set to the files; a bad `student=` does not concern it.
  if (linkNotices.some(isSetNotice))
    return openGradebook(core, g, null, [...linkNotices.filter(isSetNotice), LINK_SET_IGNORED]);
  return openGradebook(core, g, Object.hasOwn(raw, 'seed') ? settings : null);
}

/** The gradebook's part of the page's link, '' when it is closed. */
export function gradebookHashPart(g) {
  if (!g.open) return '';
  return g.set ? classroomHash({ ...g.set, student: '' }).replace(/^classroom/, 'gradebook') : 'gradebook';
}
