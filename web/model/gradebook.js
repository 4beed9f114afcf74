// The teacher's gradebook, as shown and exported: the core's class table (core.gradebook,
// GradebookTable in web/roofline-lab.d.ts) put in order, its cells and columns named, and the
// table as CSV. Pure: no DOM, no core; no grading here (the verdicts are the core's).
import { csvCell } from './progress.js';

/**
 * The most of a file the page and the CLI read: the core refuses a result file over its limit
 * (5 MB) and names its size, which it is told apart; reading gigabytes to learn that would stall.
 */
export const READ_AT_MOST = 8 * 1024 * 1024;

/** A question's column label: "2b bound" (exercise 2, its second question). */
export function questionLabels(table) {
  const seen = {};
  return table.questions.map((q) => {
    const n = seen[q.exercise] ?? 0;
    seen[q.exercise] = n + 1;
    return `${q.exercise + 1}${String.fromCharCode(97 + (n % 26))} ${q.question}`;
  });
}

const STATUS_WORD = { right: 'right', wrong: 'wrong', not_tried: 'not tried' };
const STATUS_MARK = { right: '✓', wrong: '✗', not_tried: '–' };
const STATUS_RANK = { right: 2, wrong: 1, not_tried: 0 };

const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** One student's answer to one question, as a cell: {mark, word, detail, title}. */
export function answerCell(a) {
  const parts = [];
  if (a.attempts) parts.push(plural(a.attempts, 'attempt'));
  if (a.hints) parts.push(plural(a.hints, 'hint'));
  if (a.solution_opened) parts.push('solution');
  const word = a.status === 'right' && a.right_at ? `right at attempt ${a.right_at}` : STATUS_WORD[a.status];
  return {
    mark: STATUS_MARK[a.status],
    word,
    detail: parts.join(', '),
    title: [word, ...parts].join(', ') + (a.feedback ? ` — ${a.feedback}` : ''),
  };
}

/** How a student is named in the table: their name, or an unnamed export's id ("(no name) k3f9x2"). */
export function studentLabel(s) {
  if (s.student) return s.student;
  return s.unnamed_id ? `(no name) ${s.unnamed_id}` : '(no name)';
}

/** The students in the table's order under `sort` ({key, dir}); ties in the students' names. */
export function sortedStudents(table, sort) {
  const sign = sort.dir === 'desc' ? -1 : 1;
  const byName = (a, b) =>
    a.student.localeCompare(b.student) ||
    (a.unnamed_id ?? '').localeCompare(b.unnamed_id ?? '') ||
    a.file.localeCompare(b.file);
  const q = /^q(\d+)$/.exec(sort.key);
  const value = q
    ? (s) => {
        const a = s.answers[Number(q[1])];
        return a ? STATUS_RANK[a.status] * 1e6 - (a.right_at || a.attempts) : -1;
      }
    : (s) => s[sort.key];
  return [...table.students].sort((a, b) => {
    if (sort.key === 'student') return sign * byName(a, b);
    const va = value(a);
    const vb = value(b);
    return (va === vb ? 0 : va < vb ? -sign : sign) || byName(a, b);
  });
}

/** A share as a percentage: 0.666… → "67%". */
export const percent = (share) => (share === null ? '' : `${Math.round(share * 100)}%`);

/**
 * The table as CSV (RFC 4180, CRLF, formulas defused as in the students' exports): one line per
 * student in the order shown, a column per question (right at attempt n / wrong / not tried) with
 * its attempts and hints, a column per exercise for its solution, and a last line with each
 * question's share right.
 */
export function gradebookCSV(table, sort) {
  const labels = questionLabels(table);
  const exercises = [...new Set(table.questions.map((q) => q.exercise))];
  const header = ['student', 'file', 'right', 'tried', 'questions', 'attempts', 'hints', 'solutions'];
  labels.forEach((l) => header.push(l, `${l} attempts`, `${l} hints`));
  exercises.forEach((e) => header.push(`${e + 1} solution opened`));
  const lines = [header.map(csvCell).join(',')];
  for (const s of sortedStudents(table, sort)) {
    const row = [
      s.student || studentLabel(s),
      s.file,
      s.right,
      s.tried,
      table.questions.length,
      s.attempts,
      s.hints,
      s.solutions,
    ];
    s.answers.forEach((a) => row.push(answerCell(a).word, a.attempts, a.hints));
    exercises.forEach((e) =>
      row.push(s.answers[table.questions.findIndex((q) => q.exercise === e)]?.solution_opened ?? false),
    );
    lines.push(row.map(csvCell).join(','));
  }
  const share = ['share right', '', '', '', '', '', '', ''];
  table.summary.forEach((q) => share.push(percent(q.share_right), '', ''));
  exercises.forEach(() => share.push(''));
  lines.push(share.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
