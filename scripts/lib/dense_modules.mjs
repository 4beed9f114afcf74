// Dense synthetic modules for the analyzer's size benchmark and the browser tests: one op per line
// (add, tanh, multiply, dot on f32[128,128], in turn), like an optimized-HLO dump of a large model, in
// either dialect, grown to a target size in bytes.

const OPS = 4;

/** HLO text of about `bytes` bytes. */
export function denseHlo(bytes) {
  const lines = [
    'HloModule dense',
    '',
    'ENTRY main {',
    '  p0 = f32[128,128]{1,0} parameter(0)',
    '  p1 = f32[128,128]{1,0} parameter(1)',
  ];
  let size = lines.join('\n').length;
  let prev = 'p0';
  for (let i = 1; size < bytes; i++) {
    const name = `v${i}`;
    let line;
    switch (i % OPS) {
      case 1:
        line = `  ${name} = f32[128,128]{1,0} add(${prev}, p1)`;
        break;
      case 2:
        line = `  ${name} = f32[128,128]{1,0} tanh(${prev})`;
        break;
      case 3:
        line = `  ${name} = f32[128,128]{1,0} multiply(${prev}, p1)`;
        break;
      default:
        line = `  ${name} = f32[128,128]{1,0} dot(${prev}, p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}`;
    }
    lines.push(line);
    size += line.length + 1;
    prev = name;
  }
  lines.push(`  ROOT out = f32[128,128]{1,0} negate(${prev})`, '}', '');
  return lines.join('\n');
}

/**
 * StableHLO text of about `bytes` bytes, its tensors f32[dim, dim] (128 unless told: a smaller
 * dim gives a module of the same size that runs quickly in the interpreter).
 */
export function denseStablehlo(bytes, { dim = 128 } = {}) {
  const t = `tensor<${dim}x${dim}xf32>`;
  const lines = ['module @dense {', `  func.func public @main(%arg0: ${t}, %arg1: ${t}) -> ${t} {`];
  let size = lines.join('\n').length;
  let prev = '%arg0';
  let i = 0;
  for (; size < bytes; i++) {
    let line;
    switch (i % OPS) {
      case 0:
        line = `    %${i} = stablehlo.add ${prev}, %arg1 : ${t}`;
        break;
      case 1:
        line = `    %${i} = stablehlo.tanh ${prev} : ${t}`;
        break;
      case 2:
        line = `    %${i} = stablehlo.multiply ${prev}, %arg1 : ${t}`;
        break;
      default:
        line = `    %${i} = stablehlo.dot_general ${prev}, %arg0, contracting_dims = [1] x [0] : (${t}, ${t}) -> ${t}`;
    }
    lines.push(line);
    size += line.length + 1;
    prev = `%${i}`;
  }
  lines.push(`    return ${prev} : ${t}`, '  }', '}', '');
  return lines.join('\n');
}
