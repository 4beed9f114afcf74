// Section 9's settings: which generated set is on show (a seed, a count, families, and a
// student's variant), read from a link or the form and written back as a link. Pure: no DOM, no
// core. Whether a seed, a count or a family is acceptable to the core is the core's to say; this
// only reads text into those values, so a bad value in a link is ignored with a notice. The list
// of families is the core's (core.exerciseFamilies()), passed in as `familyIds`, in its order.
import { MAX_VALUE_LENGTH } from './hash.js';

/** What the page shows when no link says otherwise. */
export const DEFAULT_SETTINGS = Object.freeze({ seed: 'class', count: 5, families: Object.freeze([]), student: '' });

/** The count the page accepts (the core's range). */
export const COUNT_RANGE = { min: 1, max: 100 };

/** The seed the core is given: the teacher's, or "teacher/student" for a student's own variant. */
export function effectiveSeed(settings) {
  const student = settings.student.trim();
  return student ? `${settings.seed}/${student}` : settings.seed;
}

/** The families argument for core.generateExercises / checkAnswer: undefined means all of them. */
export function familiesArg(settings) {
  return settings.families.length ? [...settings.families] : undefined;
}

/** Reads a count typed or linked: an integer from 1 to 100. */
export function parseCount(text) {
  const t = String(text ?? '').trim();
  const value = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!(value >= COUNT_RANGE.min && value <= COUNT_RANGE.max)) {
    // An empty field is "nothing", as every other field says it.
    return {
      ok: false,
      error: `count must be an integer from ${COUNT_RANGE.min} to ${COUNT_RANGE.max}, got ${t === '' ? 'nothing' : JSON.stringify(t)}`,
    };
  }
  return { ok: true, value };
}

/** Reads a seed: any text, not empty, at most 100 characters, no line breaks. */
export function parseSeed(text, what = 'seed') {
  const t = String(text ?? '').trim();
  if (t === '') return { ok: false, error: `${what} must not be empty` };
  if (t.length > 100) return { ok: false, error: `${what} must be at most 100 characters, got ${t.length}` };
  if (/[\n\r\t]/.test(t)) return { ok: false, error: `${what} must be one line` };
  return { ok: true, value: t };
}

/**
 * Reads a list of families ("bound,fusion"); empty, "all" or every one of `familyIds` in the core's
 * order mean all. Unknown names are refused by name.
 * @param {string[]} familyIds  the core's family ids, in its order
 */
export function parseFamilies(text, familyIds) {
  const names = String(text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === 'all') return { ok: true, value: [] };
  const unknown = names.filter((n) => !familyIds.includes(n));
  if (unknown.length) {
    return {
      ok: false,
      error: `families must be among ${familyIds.join(', ')}, got ${JSON.stringify(unknown.join(','))}`,
    };
  }
  // Each once, in the order given: the core takes turns in that order, as the CLI's --families does.
  const value = [...new Set(names)];
  return {
    ok: true,
    value: value.length === familyIds.length && value.every((f, i) => f === familyIds[i]) ? [] : value,
  };
}

/** A student's name or number: may be empty (the teacher's set itself). */
export function parseStudent(text) {
  const t = String(text ?? '').trim();
  if (t === '') return { ok: true, value: '' };
  return parseSeed(t, 'student');
}

/**
 * Settings from the classroom part of a link (decodeHash(...).classroom). What cannot be read is
 * replaced by the default and named in `notices`.
 * @param {Record<string, string>|null} raw
 * @param {string[]} familyIds  the core's family ids, in its order
 * @returns {{settings: object|null, notices: string[]}}  settings is null when the link has no classroom keys
 */
/** The link's keys that name an exercise set (the gradebook grades that set); `student` is not one. */
export const SET_KEYS = ['seed', 'count', 'families'];

/** Whether a notice of settingsFromHash is about one of SET_KEYS (each notice starts "ignored KEY"). */
export function isSetNotice(notice) {
  return SET_KEYS.some((key) => notice.startsWith(`ignored ${key}=`) || notice.startsWith(`ignored ${key} `));
}

export function settingsFromHash(raw, familyIds) {
  if (!raw) return { settings: null, notices: [] };
  const settings = { ...DEFAULT_SETTINGS, families: [] };
  const notices = [];
  const read = (key, parse, field = key) => {
    if (!Object.hasOwn(raw, key)) return;
    if (raw[key].length > MAX_VALUE_LENGTH) {
      notices.push(`ignored ${key} in the link: its value is longer than ${MAX_VALUE_LENGTH} characters`);
      return;
    }
    const r = parse(raw[key]);
    if (r.ok) settings[field] = r.value;
    else notices.push(`ignored ${key}=${JSON.stringify(raw[key])} in the link: ${r.error}`);
  };
  read('seed', parseSeed);
  read('count', parseCount);
  read('families', (text) => parseFamilies(text, familyIds));
  read('student', parseStudent);
  return { settings, notices };
}

/** The classroom part of a link, in a fixed order: "classroom&seed=…&count=…[&families=…][&student=…]". */
export function classroomHash(settings) {
  const enc = (v) => encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%2F/gi, '/');
  const parts = ['classroom', `seed=${enc(settings.seed)}`, `count=${settings.count}`];
  if (settings.families.length) parts.push(`families=${enc(settings.families.join(','))}`);
  if (settings.student) parts.push(`student=${enc(settings.student)}`);
  return parts.join('&');
}

/** The key a set's progress is saved under: the same seed, count and families share it. */
export function setKey(settings) {
  return `${settings.count}|${settings.families.length ? settings.families.join(',') : 'all'}|${effectiveSeed(settings)}`;
}

/** Same settings? (the families compared as lists in the core's order) */
export function sameSettings(a, b) {
  return (
    Boolean(a && b) &&
    a.seed === b.seed &&
    a.count === b.count &&
    a.student === b.student &&
    a.families.join(',') === b.families.join(',')
  );
}
