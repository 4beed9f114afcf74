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
