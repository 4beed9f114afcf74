// JSON text written in pieces, the same text JSON.stringify(value, null, 2) makes: the analysis
// of a big program (a row per op, millions of them) is more text than one JavaScript string may
// hold (V8: 2^29 − 24 characters), so `node scripts/analyze.mjs --json` streams it.

/** Collects pieces and hands them to `sink` about a megabyte at a time. */
export class ChunkedWriter {
  /** @param {(text: string) => void} sink */
  constructor(sink, size = 1 << 20) {
    this.sink = sink;
    this.size = size;
    this.parts = [];
    this.length = 0;
  }

  write(text) {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= this.size) this.flush();
  }

  flush() {
    if (this.parts.length) this.sink(this.parts.join(''));
    this.parts = [];
    this.length = 0;
  }
}

const isContainer = (v) => v !== null && typeof v === 'object' && typeof v.toJSON !== 'function';

/**
 * Writes `value` as JSON.stringify(value, null, 2) would, through `out.write(text)`: arrays and
 * objects down to `depth` levels piece by piece, what lies deeper (one op's row) in one call to
 * JSON.stringify each. `indent` is the indentation of the line the value starts on.
 */
export function writeJson(value, out, depth = 3, indent = '') {
  if (depth <= 0 || !isContainer(value)) {
    const text = JSON.stringify(value, null, 2);
    out.write(text === undefined ? 'null' : indent ? text.replaceAll('\n', `\n${indent}`) : text);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.write('[]');
      return;
    }
    out.write('[\n');
    value.forEach((item, i) => {
      out.write(i ? `,\n${inner}` : inner);
      writeJson(
        item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item,
        out,
        depth - 1,
        inner,
      );
    });
    out.write(`\n${indent}]`);
    return;
  }
  // Keys JSON.stringify keeps: own enumerable ones whose values it can write.
  const keys = Object.keys(value).filter((k) => {
    const v = value[k];
    return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
  });
  if (keys.length === 0) {
    out.write('{}');
    return;
  }
  out.write('{\n');
  keys.forEach((k, i) => {
    out.write(`${i ? `,\n${inner}` : inner}${JSON.stringify(k)}: `);
    writeJson(value[k], out, depth - 1, inner);
  });
  out.write(`\n${indent}}`);
}
