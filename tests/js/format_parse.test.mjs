// web/model: formatting and number parsing, without a DOM or the core.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bytesText,
  clockTime,
  duration,
  grouped,
  percent,
  pyFloat,
  pyFloatList,
  sci,
  short,
} from '../../web/model/format.js';
import { parseNumber, parseNumberList } from '../../web/model/parse.js';

test('pyFloat prints floats the way Python repr does, so the CLI reads like the seed', () => {
  const cases = [
    [100, '100.0'],
    [16 / 7, '2.2857142857142856'],
    [20 * (8 / 6), '26.666666666666664'],
    [0.5, '0.5'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [123456789012345.6, '123456789012345.6'],
    [-2, '-2.0'],
    [0, '0.0'],
    [NaN, 'nan'],
    [Infinity, 'inf'],
    [1.5e300, '1.5e+300'],
  ];
  for (const [x, text] of cases) assert.equal(pyFloat(x), text, `pyFloat(${x})`);
  assert.equal(
    pyFloatList([0.1 + 0.2, 100, 1e22, 1.5e-7, 12345678901234567]),
    '[0.30000000000000004, 100.0, 1e+22, 1.5e-07, 1.2345678901234568e+16]',
  );
});

test('percent writes a share without an exponent: tiny shares say so, large ones stay whole', () => {
  const cases = [
    [0.6857, '68.6%'],
    [1, '100%'],
    [2.5, '250%'],
    [0, '0%'],
    [0.00012, '0.012%'],
    [0.00001, '0.001%'],
    [1.78e-9, '< 0.001%'],
    [1.78e-7, '< 0.001%'],
    [-0.5, '-50%'],
    [null, '—'],
    [0.1234567, '12.3%'],
  ];
  for (const [x, text] of cases) assert.equal(percent(x), text, `percent(${x})`);
  for (let e = -12; e <= 2; e += 0.25) assert.doesNotMatch(percent(10 ** e), /e/, `percent(1e${e}) has no exponent`);
});

test('short rounds for prose but keeps integers whole', () => {
  assert.equal(short(480 / 7), '68.57');
  assert.equal(short(8192), '8192');
  assert.equal(short(27648), '27648');
  assert.equal(short(160 / 3), '53.33');
});

test('sci gives compact scientific notation for measurements', () => {
  assert.equal(sci(2e-5), '2e-5');
  assert.equal(sci(1.7720400001053349e-6), '1.77e-6');
  assert.equal(sci(0.00093), '9.3e-4');
  assert.equal(sci(123456), '1.23e+5');
  assert.equal(sci(NaN), 'NaN');
});

test("clockTime gives the local time of an instant as HH:MM:SS, without the locale's time format", () => {
  const at = new Date(2026, 11, 1, 9, 5, 7); // local time
  assert.equal(clockTime(at.toISOString()), '09:05:07');
  assert.equal(clockTime(new Date(2026, 0, 2, 23, 59, 0).toISOString()), '23:59:00');
  assert.equal(clockTime(null), '');
  assert.equal(clockTime('not a time'), '');
});

test('parseNumber accepts the usual spellings and refuses empty, hex and words by name', () => {
  assert.deepEqual(parseNumber('m', ' 32 '), { ok: true, value: 32 });
  assert.deepEqual(parseNumber('peak', '1e2'), { ok: true, value: 100 });
  assert.deepEqual(parseNumber('peak', '-.5'), { ok: true, value: -0.5 });
  assert.equal(parseNumber('peak', 'inf').value, Infinity);
  assert.ok(Number.isNaN(parseNumber('peak', 'NaN').value));
  assert.deepEqual(parseNumber('m', ''), { ok: false, error: 'm must be a number, got nothing' });
  assert.deepEqual(parseNumber('m', '0x10'), { ok: false, error: 'm must be a number, got "0x10"' });
  assert.deepEqual(parseNumber('m', '3 4'), { ok: false, error: 'm must be a number, got "3 4"' });
  assert.deepEqual(parseNumber('m', undefined), { ok: false, error: 'm must be a number, got nothing' });
});

test('parseNumber refuses text no double holds as typed, never as another number', () => {
  // 1e400 would become Infinity (and be quoted back as "infinity"): it is refused as typed.
  assert.deepEqual(parseNumber('peak', '1e400'), {
    ok: false,
    error: 'peak must be a number a double can hold (at most about 1.8e308), got 1e400',
  });
  assert.deepEqual(parseNumber('peak', '-1e400'), {
    ok: false,
    error: 'peak must be a number a double can hold (at most about 1.8e308), got -1e400',
  });
  // 2^53 + 1 would silently become 2^53.
  assert.deepEqual(parseNumber('m', '9007199254740993', { integer: true }), {
    ok: false,
    error: 'm must be an integer a double holds exactly (at most 2^53 = 9007199254740992), got 9007199254740993',
  });
  // A field that takes decimals is not told it must be an integer.
  assert.deepEqual(parseNumber('peak', '9007199254740993'), {
    ok: false,
    error:
      'peak must be a number a double holds exactly (a whole number typed in full: at most 2^53 = 9007199254740992), got 9007199254740993',
  });
  assert.match(
    parseNumberList('sizes', '8,9007199254740993').error,
    /^sizes: entry 2 of 2 must be an integer a double holds exactly/,
  );
  assert.deepEqual(parseNumber('m', '9007199254740992'), { ok: true, value: 9007199254740992 });
  assert.deepEqual(parseNumber('m', '+9007199254740994'), { ok: true, value: 9007199254740994 }); // exact: the core says "at most 2^53"
  assert.deepEqual(parseNumber('m', '1e300'), { ok: true, value: 1e300 }); // a double: the core judges it
});

test('grouped separates the thousands of long exact counts only', () => {
  assert.equal(grouped('2000000000000000'), '2,000,000,000,000,000');
  assert.equal(grouped('1000000'), '1,000,000');
  assert.equal(
    grouped('340282366920938463463374607431768211456'),
    '340,282,366,920,938,463,463,374,607,431,768,211,456',
  );
  for (const kept of ['8192', '16384', '999999', '2.5e+15', 'n/a']) assert.equal(grouped(kept), kept);
});

test('parseNumberList names the entry that is not a number', () => {
  assert.deepEqual(parseNumberList('sizes', '8, 16,32'), { ok: true, value: [8, 16, 32] });
  assert.deepEqual(parseNumberList('sizes', '8,,32'), {
    ok: false,
    error: 'sizes: entry 2 of 3 must be a number, got nothing',
  });
  assert.deepEqual(parseNumberList('sizes', ' '), {
    ok: false,
    error: 'sizes must be a comma-separated list of numbers, got nothing',
  });
});

test('duration: seconds as people read them, 3 significant digits, no exponent, the way the core writes them', () => {
  assert.equal(duration(61.4889), '61.5 s');
  assert.equal(duration(60), '60 s');
  assert.equal(duration(0.0012345), '0.00123 s');
  assert.equal(duration(123.6), '124 s');
  assert.equal(duration(3600), '3600 s');
  assert.equal(duration(0), '0 s');
  assert.equal(duration(1.234e-7), '0.000000123 s'); // no exponent, however small
  assert.equal(duration(9.996), '10 s');
});

test('bytesText: bytes below a KiB, then KiB, MiB, GiB with three digits', () => {
  assert.equal(bytesText(0), '0 bytes');
  assert.equal(bytesText(1023), '1023 bytes');
  assert.equal(bytesText(1536), '1.5 KiB');
  assert.equal(bytesText(268435456), '256 MiB');
  assert.equal(bytesText(101584), '99.2 KiB');
  assert.equal(bytesText(3 * 2 ** 30 + 2 ** 29), '3.5 GiB');
});
