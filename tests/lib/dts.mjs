// A reader of the subset of TypeScript declarations web/roofline-lab.d.ts is written in, and a
// checker of real values against it: the tests hold the code's returned objects up to the
// declared types, so the description cannot drift from the code. Strict on purpose: an object
// with a key its type does not declare is an error (the description must be complete).
//
// Subset: `export interface Name [extends A, B] { members }`, `export type Name[<T>] = type;`,
// members `name[?]: type;`, `name(params): type;`, `[key: string]: type;`; types: unions,
// string/number/boolean literals, number, string, boolean, null, undefined, unknown, any, arrays
// (T[], Array<T>), tuples [A, B], object types { … }, Record<string, T>, Promise<T>, Partial<T>,
// Float32Array, Float64Array, Int32Array, Uint8Array, indexed access Name['key'], function types (a, b) => R
// (checked as functions), and the aliases and interfaces of the file.
// `declare global { … }` is read and ignored.

const BUILTIN = new Set(['number', 'string', 'boolean', 'null', 'undefined', 'unknown', 'any', 'true', 'false']);

function tokenize(text) {
  const tokens = [];
  const re =
    /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*)|(\.\.\.|=>|[{}()[\]<>;:,?|=&.])/y;
  let m;
  while (re.lastIndex < text.length) {
    const at = re.lastIndex;
    m = re.exec(text);
    if (!m) throw new Error(`d.ts: cannot read ${JSON.stringify(text.slice(at, at + 30))}`);
    if (m[1])
      tokens.push({
        kind: 'string',
        value: JSON.parse(m[1].startsWith("'") ? `"${m[1].slice(1, -1).replace(/"/g, '\\"')}"` : m[1]),
      });
    else if (m[2]) tokens.push({ kind: 'number', value: Number(m[2]) });
    else if (m[3]) tokens.push({ kind: 'name', value: m[3] });
    else if (m[4]) tokens.push({ kind: 'punct', value: m[4] });
  }
  return tokens;
}

/** Reads the declarations: {interfaces: {Name: {extends, members}}, aliases: {Name: {param, type}}}. */
export function parseDts(text) {
  const t = tokenize(text);
  let i = 0;
  const peek = (v) => t[i] && t[i].value === v && t[i].kind !== 'string';
  const take = (v) => {
    if (!peek(v))
      throw new Error(`d.ts: expected ${v}, got ${t[i] ? JSON.stringify(t[i].value) : 'the end'} (token ${i})`);
    return t[i++];
  };
  // Steps past a bracketed stretch that starts at the current token, nested ones included.
  const skipBalanced = (open, close) => {
    let depth = 0;
    do {
      if (peek(open)) depth++;
      if (peek(close)) depth--;
      i++;
    } while (depth > 0);
  };
  const name = () => {
    if (!t[i] || t[i].kind !== 'name') throw new Error(`d.ts: expected a name, got ${JSON.stringify(t[i]?.value)}`);
    return t[i++].value;
  };

  function members() {
    take('{');
    const out = { props: {}, methods: {}, index: null };
    while (!peek('}')) {
      if (peek('[')) {
        take('[');
        name();
        take(':');
        type();
        take(']');
        take(':');
        out.index = type();
      } else {
        const key = t[i].kind === 'string' ? t[i++].value : name();
        if (peek('(')) {
          const params = [];
          take('(');
          while (!peek(')')) {
            const p = name();
            const optional = peek('?') ? (take('?'), true) : false;
            take(':');
            params.push({ name: p, optional, type: type() });
            if (peek(',')) take(',');
          }
          take(')');
          take(':');
          out.methods[key] = { params, returns: type() };
        } else {
          const optional = peek('?') ? (take('?'), true) : false;
          take(':');
          out.props[key] = { optional, type: type() };
        }
      }
      if (peek(';') || peek(',')) i++;
    }
    take('}');
    return out;
  }

  function type() {
    if (peek('|')) take('|');
    const options = [postfix()];
    while (peek('|')) {
      take('|');
      options.push(postfix());
    }
    return options.length === 1 ? options[0] : { kind: 'union', options };
  }

  function postfix() {
    let ty = primary();
    while (peek('[')) {
      take('[');
      if (peek(']')) {
        take(']');
        ty = { kind: 'array', of: ty };
      } else {
        const key = t[i++].value;
        take(']');
        ty = { kind: 'indexed', of: ty, key };
      }
    }
    return ty;
  }

  function primary() {
    const tok = t[i];
    if (tok.kind === 'string' || tok.kind === 'number') {
      i++;
      return { kind: 'literal', value: tok.value };
    }
    if (peek('{')) return { kind: 'object', ...members() };
    if (peek('(')) {
      // A function type `(a: T, b?: U) => R`: its parameters are read past (a value is checked
      // only for being a function), else a parenthesized type.
      const after = t[i + 1],
        next = t[i + 2];
      if (
        (after?.value === ')' && t[i + 2]?.value === '=>') ||
        (after?.kind === 'name' && (next?.value === ':' || next?.value === '?'))
      ) {
        skipBalanced('(', ')');
        take('=>');
        return { kind: 'function', returns: type() };
      }
      take('(');
      const inner = type();
      take(')');
      return inner;
    }
    if (peek('[')) {
      take('[');
      const items = [];
      while (!peek(']')) {
        items.push(type());
        if (peek(',')) take(',');
      }
      take(']');
      return { kind: 'tuple', items };
    }
    const n = name();
    if (n === 'true' || n === 'false') return { kind: 'literal', value: n === 'true' };
    if (BUILTIN.has(n)) return { kind: 'builtin', name: n };
    if (peek('<')) {
      take('<');
      const args = [type()];
      while (peek(',')) {
        take(',');
        args.push(type());
      }
      take('>');
      return { kind: 'generic', name: n, args };
    }
    return { kind: 'ref', name: n };
  }

  const interfaces = {};
  const aliases = {};
  while (i < t.length) {
    if (peek('export')) take('export');
    if (peek('declare')) {
      // declare global { … }: skip the block
      take('declare');
      name();
      skipBalanced('{', '}');
      continue;
    }
    if (peek('interface')) {
      take('interface');
      const n = name();
      const parents = [];
      if (peek('extends')) {
        take('extends');
        parents.push(name());
        while (peek(',')) {
          take(',');
          parents.push(name());
        }
      }
      interfaces[n] = { parents, ...members() };
    } else if (peek('type')) {
      take('type');
      const n = name();
      let param = null;
      if (peek('<')) {
        take('<');
        param = name();
        take('>');
      }
      take('=');
      aliases[n] = { param, type: type() };
      take(';');
    } else {
      throw new Error(`d.ts: unexpected ${JSON.stringify(t[i].value)}`);
    }
  }
  return { interfaces, aliases };
}

/** An interface with its parents' members merged in (its own win). */
export function interfaceOf(dts, name) {
  const decl = dts.interfaces[name];
  if (!decl) throw new Error(`d.ts: no interface ${name}`);
  const merged = { props: {}, methods: {}, index: decl.index };
  for (const p of decl.parents) {
    const parent = interfaceOf(dts, p);
    Object.assign(merged.props, parent.props);
    Object.assign(merged.methods, parent.methods);
    merged.index ??= parent.index;
  }
  Object.assign(merged.props, decl.props);
  Object.assign(merged.methods, decl.methods);
  return merged;
}

const describe = (v) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;

/**
 * The problems of `value` as a `type` (a parsed type or an interface/alias name): [] when it fits.
 * Each problem names the path: "value.report.exercise.bound: expected one of …, got string "x"".
 */
export function check(dts, value, type, path = 'value', bindings = {}) {
  if (typeof type === 'string') type = { kind: 'ref', name: type };
  const problems = [];
  const fail = (what) => {
    problems.push(`${path}: expected ${what}, got ${describe(value)}`);
    return problems;
  };
  switch (type.kind) {
    case 'builtin':
      if (type.name === 'any' || type.name === 'unknown') return problems;
      if (type.name === 'null') return value === null ? problems : fail('null');
      if (type.name === 'undefined') return value === undefined ? problems : fail('undefined');
      return typeof value === type.name && !(type.name === 'number' && Number.isNaN(value))
        ? problems
        : fail(type.name);
    case 'literal':
      return value === type.value ? problems : fail(JSON.stringify(type.value));
    case 'function':
      return typeof value === 'function' ? problems : fail('a function');
    case 'union': {
      const tries = type.options.map((o) => check(dts, value, o, path, bindings));
      const fits = tries.find((p) => p.length === 0);
      if (fits) return problems;
      // The closest option's problems (the fewest), or a summary.
      tries.sort((a, b) => a.length - b.length);
      return tries[0].some((p) => !p.startsWith(`${path}: expected`))
        ? tries[0]
        : fail(`one of ${type.options.map(show).join(' | ')}`);
    }
    case 'array':
      if (!Array.isArray(value)) return fail(`${show(type.of)}[]`);
      value.forEach((v, k) => problems.push(...check(dts, v, type.of, `${path}[${k}]`, bindings)));
      return problems;
    case 'tuple':
      if (!Array.isArray(value) || value.length !== type.items.length) return fail(`a tuple of ${type.items.length}`);
      type.items.forEach((it, k) => problems.push(...check(dts, value[k], it, `${path}[${k}]`, bindings)));
      return problems;
    case 'object':
      return checkObject(dts, value, type, path, bindings);
    case 'indexed': {
      const of = resolveObject(dts, type.of, bindings);
      const prop = of?.props[type.key];
      if (!prop) throw new Error(`d.ts: ${show(type.of)} has no member ${type.key}`);
      return check(dts, value, prop.type, path, bindings);
    }
    case 'generic': {
      const [arg] = type.args;
      if (type.name === 'Array') return check(dts, value, { kind: 'array', of: arg }, path, bindings);
      if (type.name === 'Promise') return value instanceof Promise ? problems : fail('a Promise');
      if (type.name === 'Record') {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('a record');
        for (const [k, v] of Object.entries(value))
          problems.push(...check(dts, v, type.args[1], `${path}.${k}`, bindings));
        return problems;
      }
      if (type.name === 'Partial') {
        const inner = resolveObject(dts, arg, bindings);
        const optional = {
          props: Object.fromEntries(Object.entries(inner.props).map(([k, p]) => [k, { ...p, optional: true }])),
          methods: {},
          index: inner.index,
        };
        return checkObject(dts, value, optional, path, bindings);
      }
      const alias = dts.aliases[type.name];
      if (!alias || !alias.param) throw new Error(`d.ts: unknown generic ${type.name}`);
      return check(dts, value, alias.type, path, { ...bindings, [alias.param]: arg });
    }
    case 'ref': {
      if (bindings[type.name]) return check(dts, value, bindings[type.name], path, bindings);
      if (type.name === 'Float64Array') return value instanceof Float64Array ? problems : fail('a Float64Array');
      if (type.name === 'Float32Array') return value instanceof Float32Array ? problems : fail('a Float32Array');
      if (type.name === 'Uint8Array') return value instanceof Uint8Array ? problems : fail('a Uint8Array');
      if (type.name === 'Int32Array') return value instanceof Int32Array ? problems : fail('an Int32Array');
      if (dts.aliases[type.name]) return check(dts, value, dts.aliases[type.name].type, path, bindings);
      if (dts.interfaces[type.name])
        return checkObject(dts, value, interfaceOf(dts, type.name), path, bindings, type.name);
      throw new Error(`d.ts: unknown type ${type.name}`);
    }
    default:
      throw new Error(`d.ts: cannot check a ${type.kind}`);
  }
}

function resolveObject(dts, type, bindings) {
  if (type.kind === 'object') return type;
  if (type.kind === 'ref' && bindings[type.name]) return resolveObject(dts, bindings[type.name], bindings);
  if (type.kind === 'ref' && dts.interfaces[type.name]) return interfaceOf(dts, type.name);
  if (type.kind === 'ref' && dts.aliases[type.name]) return resolveObject(dts, dts.aliases[type.name].type, bindings);
  return null;
}

function checkObject(dts, value, decl, path, bindings, name = 'an object') {
  const problems = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${path}: expected ${name}, got ${describe(value)}`);
    return problems;
  }
  for (const [key, prop] of Object.entries(decl.props)) {
    if (!(key in value) || value[key] === undefined) {
      if (!prop.optional) problems.push(`${path}.${key}: missing (declared ${show(prop.type)})`);
      continue;
    }
    problems.push(...check(dts, value[key], prop.type, `${path}.${key}`, bindings));
  }
  for (const key of Object.keys(decl.methods)) {
    if (typeof value[key] !== 'function')
      problems.push(`${path}.${key}: expected a function, got ${describe(value[key])}`);
  }
  for (const key of Object.keys(value)) {
    if (decl.props[key] || decl.methods[key]) continue;
    if (decl.index) problems.push(...check(dts, value[key], decl.index, `${path}.${key}`, bindings));
    else problems.push(`${path}.${key}: not declared in ${name} (add it to web/roofline-lab.d.ts)`);
  }
  return problems;
}

/** A type as text, for messages. */
export function show(type) {
  switch (type.kind) {
    case 'builtin':
      return type.name;
    case 'literal':
      return JSON.stringify(type.value);
    case 'function':
      return `(…) => ${show(type.returns)}`;
    case 'union':
      return type.options.map(show).join(' | ');
    case 'array':
      return `${show(type.of)}[]`;
    case 'tuple':
      return `[${type.items.map(show).join(', ')}]`;
    case 'object':
      return '{…}';
    case 'indexed':
      return `${show(type.of)}['${type.key}']`;
    case 'generic':
      return `${type.name}<${type.args.map(show).join(', ')}>`;
    case 'ref':
      return type.name;
    default:
      return type.kind;
  }
}
