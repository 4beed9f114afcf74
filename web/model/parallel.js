// tanh(A·B) split by row blocks across the Worker pool (web/pool.js): B is packed once, here,
// by the core; each Worker gets its rows of A and the packed B (moved, not copied) and computes
// its rows of C with its own wasm instance. Rows are independent, so C equals the one-thread
// product bit for bit. No DOM: the page, the CLIs and the tests use it alike.

/** The variant an undefined name means, or the named one: {name, mr, nr, fused_tanh, …}. */
export function kernelVariant(core, name) {
  const list = core.kernelVariants();
  if (!list.ok) throw new Error(list.error);
  const v =
    name === undefined || name === null ? list.value.find((x) => x.default) : list.value.find((x) => x.name === name);
  if (!v)
    throw new Error(`variant must be one of ${list.value.map((x) => x.name).join(', ')}, got ${JSON.stringify(name)}`);
  return v;
}

/**
 * m rows split into at most `parts` blocks of whole register tiles (mr rows), as even as they
 * can be; fewer blocks when m has fewer tiles than `parts`.
 * @returns {{row0: number, rows: number}[]}
 */
export function rowBlocks(m, parts, mr = 1) {
  if (!(Number.isInteger(m) && m >= 1)) throw new RangeError(`m must be a positive integer, got ${m}`);
  if (!(Number.isInteger(parts) && parts >= 1)) throw new RangeError(`parts must be a positive integer, got ${parts}`);
  const tiles = Math.ceil(m / mr);
  const count = Math.min(parts, tiles);
  const blocks = [];
  let row0 = 0;
  for (let i = 0; i < count; i++) {
    const blockTiles = Math.floor(tiles / count) + (i < tiles % count ? 1 : 0);
    const rows = Math.min(blockTiles * mr, m - row0);
    blocks.push({ row0, rows });
    row0 += rows;
  }
  return blocks;
}

/**
 * The payloads of one product's row blocks: [{variant, rows, k, n, a, packed_b}] with their own
 * buffers (so each can be moved to its Worker), and the blocks.
 */
export function blockPayloads(core, { variant, m, k, n, a, b, parts }) {
  const v = kernelVariant(core, variant);
  const packed = core.packB(v.name, k, n, b);
  if (!packed.ok) throw new Error(packed.error);
  const blocks = rowBlocks(m, parts, v.mr);
  const payloads = blocks.map(({ row0, rows }, i) => ({
    variant: v.name,
    rows,
    k,
    n,
    a: a.slice(row0 * k, (row0 + rows) * k),
    packed_b: i === 0 ? packed.value : packed.value.slice(),
  }));
  return { blocks, payloads, variant: v };
}

/** The buffers a block payload moves to its Worker. */
export const blockTransfer = (_, p) => [p.a.buffer, p.packed_b.buffer];
