// Columns across the seam: the core counts a column in UTF-8 bytes from the line's start (its
// lexers read bytes), JavaScript strings and editors in UTF-16 code units. Pure: no DOM, no core.

/**
 * The UTF-16 offset in `line` (a line's text) of the core's 1-based byte `column`; a column past
 * the line's end gives the line's length, one inside a character's bytes gives that character.
 */
export function offsetOfByteColumn(line, column) {
  const target = Math.max(0, (Number.isInteger(column) ? column : 1) - 1);
  let bytes = 0;
  let offset = 0;
  for (const ch of line) {
    const cp = ch.codePointAt(0);
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > target) return offset;
    bytes += size;
    offset += ch.length;
  }
  return offset;
}

/**
 * A line to show with a caret under the core's 1-based byte `column`: {text, pad}, where `text` is
 * the line (a window of at most `width` characters around the column when the line is longer, cut
 * ends marked …) and `pad` the whitespace that puts a caret printed after it under the column's
 * character in a monospaced excerpt — a tab for each tab before it, a space for any other character
 * (so tabs line up whatever their width), counting characters, not the UTF-8 bytes the core counts.
 */
export function caretUnder(line, column, width = 400) {
  const at = offsetOfByteColumn(line, column);
  let start = 0;
  let end = line.length;
  if (line.length > width) {
    start = Math.max(0, Math.min(at - Math.floor(width / 2), line.length - width));
    end = start + width;
    // Never cut a surrogate pair in two.
    if (start > 0 && /[\uDC00-\uDFFF]/.test(line[start])) start -= 1;
    if (end < line.length && /[\uDC00-\uDFFF]/.test(line[end])) end += 1;
  }
  const lead = start > 0 ? '…' : '';
  const text = `${lead}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
  let pad = lead ? ' ' : '';
  for (const ch of line.slice(start, at)) pad += ch === '\t' ? '\t' : ' ';
  return { text, pad };
}
