// Number formatting shared by the page and the CLIs. Pure: no DOM, testable in Node.

/**
 * A number the way Python's repr prints a float, so the CLI's report reads like the seed's:
 * 100 → "100.0", 16/7 → "2.2857142857142856", 1e-5 → "1e-05", 1e16 → "1e+16".
 */
export function pyFloat(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() with no argument gives the shortest digits that read back as x.
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const text = String(x); // plain notation in this exponent range
  return Number.isInteger(x) ? `${text}.0` : text;
}

/** A list of floats the way Python prints one: "[26.666666666666668, 100.0]". */
export function pyFloatList(xs) {
  return `[${xs.map(pyFloat).join(', ')}]`;
}

/** A short, readable number for prose and tables: 68.571428… → "68.57", 8192 → "8192". */
export function short(x, digits = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  return String(Number(x.toPrecision(digits)));
}

/** A size in bytes as people read it: 512 → "512 bytes", 1536 → "1.5 KiB", 268435456 → "256 MiB". */
export function bytesText(n) {
  if (!Number.isFinite(n) || n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${short(v, 3)} ${units[u]}`;
}

/**
 * An exact count (the core's decimal digits) with its thousands grouped once it has seven digits
 * or more, so 2·10^15 reads "2,000,000,000,000,000", not a run of zeros; "8192" and "16384" stay.
 * @param {string|number} count
 */
export function grouped(count) {
  const text = String(count);
  if (!/^-?\d{7,}$/.test(text)) return text;
  return text.replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * A fraction as a percentage for tables and prose, never in exponent form: 0.6857 → "68.6%",
 * 0.00012 → "0.012%", 1.78e-9 → "< 0.001%", 0 → "0%", 2.5 → "250%" (a share of a roof may pass 100%).
 * @param {number|null} fraction
 * @param {number} [digits] significant digits (3)
 */
export function percent(fraction, digits = 3) {
  if (fraction === null || fraction === undefined) return '—';
  if (!Number.isFinite(fraction)) return String(fraction);
  const p = 100 * fraction;
  if (p === 0) return '0%';
  if (Math.abs(p) < 0.001) return p > 0 ? '< 0.001%' : '> -0.001%';
  const rounded = Number(p.toPrecision(digits));
  // toPrecision keeps the digits; toFixed with enough places writes them without an exponent.
  const places = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(rounded))));
  return `${Number(rounded.toFixed(places))}%`;
}

/** Scientific notation with `digits` significant digits, trailing zeros dropped: 1.7720e-6 → "1.77e-6", 2e-5 → "2e-5". */
export function sci(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  return Number(x.toPrecision(digits)).toExponential();
}

/**
 * The local time of an ISO instant as hours:minutes:seconds, 24-hour ("09:05:07"); '' for none.
 * Written here, not with toLocaleTimeString: the first use of the locale's time format loads its
 * data, 20–70 ms in Chromium, inside the task that draws a big program's results.
 */
export function clockTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((x) => String(x).padStart(2, '0')).join(':');
}

/**
 * A duration as people read it, the way the core's messages write one: 3 significant digits,
 * whole seconds from 100 s, never an exponent: 61.4889 → "61.5 s", 60 → "60 s", 0.0012345 → "0.00123 s".
 */
export function duration(s) {
  if (!(s > 0) || !Number.isFinite(s)) return `${s === 0 ? 0 : s} s`;
  const decimals = Math.max(0, 2 - Math.floor(Math.log10(s)));
  // toFixed never writes an exponent (below 1e21); trailing zeros go: 60.0 → 60.
  const text = s.toFixed(Math.min(decimals, 100));
  return `${text.includes('.') ? text.replace(/\.?0+$/, '') : text} s`;
}
